"""Optional accounts over guest identities (issue 14): names, passwords, sign-in, the player's
page, quick match and the games to watch. See docs/accounts.md."""
