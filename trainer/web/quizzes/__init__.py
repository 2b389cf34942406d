"""Assigned quizzes: an instructor sets one for a group, trainees sit it, the results."""
