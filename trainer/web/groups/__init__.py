"""Groups and the instructor's desk: joining, the report, a trainee's page, exports, the group's house
rules."""
