"""Chkobba for computer players: a compact simulator, a seat's information, its determinizer."""
