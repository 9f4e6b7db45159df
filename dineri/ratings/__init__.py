"""Glicko-2 ratings per game and mode (issue 14, item 3). See docs/accounts.md."""
