"""Computer players (issue 12)."""
