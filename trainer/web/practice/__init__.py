"""The trainee's practice: drills one at a time, sprints, self-check quizzes, today's practice,
progress, home."""
