"""Accounts: sign up, sign in, one-time codes, bearer tokens, the `user` commands and the limits on
guessing."""
