"""Headless Chkobba players (issue 3, item 8): ``dineri bot URL`` and computer opponents.

:mod:`dineri.bot.strategy` chooses actions from a seat's own view; :mod:`dineri.bot.client`
plays them at a table through the documented protocol (``docs/protocol.md``).
"""
