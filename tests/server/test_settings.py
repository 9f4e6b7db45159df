"""Settings (``DINERI_*``) and the app factory."""

from __future__ import annotations

from pathlib import Path

import pytest

from dineri.server.auth import Tokens, clean_name
from dineri.settings import Settings


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DINERI_GRACE_SECONDS", "12.5")
    monkeypatch.setenv("DINERI_ALLOWED_ORIGINS", "https://a.example/, https://b.example")
    monkeypatch.setenv("DINERI_TESTING", "1")
    s = Settings()
    assert s.grace_seconds == 12.5 and s.testing is True
    assert s.allowed_origins == ["https://a.example", "https://b.example"]
    assert s.database_url == "sqlite:///./dineri.db" and s.redis_url is None and s.admin_token is None
    monkeypatch.setenv("DINERI_GRACE_SECONDS", "-1")
    with pytest.raises(ValueError):
        Settings()


def test_generated_secret_is_kept_beside_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    first = Settings(database_url=url).resolved_secret()
    assert (tmp_path / "x.db.secret").read_text().strip() == first
    assert Settings(database_url=url).resolved_secret() == first  # survives a restart
    assert Settings(database_url=url, secret_key="given").resolved_secret() == "given"
    token = Tokens(first).make("p1")
    claims = Tokens(Settings(database_url=url).resolved_secret()).check(token)
    assert claims is not None and claims.player_id == "p1"
    assert Tokens("other").check(token) is None


def test_display_names() -> None:
    assert clean_name("  Amira ") == "Amira"
    assert clean_name("يوسف") == "يوسف"
    assert clean_name("<b>x</b>") == "<b>x</b>"  # kept as typed; pages escape it when rendering
    for bad in ("", " ", "a" * 25, "a\nb", "\u200ex", 7):
        with pytest.raises(ValueError):
            clean_name(bad)


def test_computer_players_wait_at_least_the_page_s_pace() -> None:
    """Issue 13 item 2: a computer waits at least as long as the table page keeps another
    player's move drawn (``PACE_MS`` in table-shell.js), so computers playing in a row never
    queue up on the page and get drawn in a catch-up burst (seen in the second Arabic trial);
    a testing server plays them at once; a setting wins."""
    import re

    import dineri

    js = (Path(dineri.__file__).parent / "static" / "js" / "table-shell.js").read_text()
    m = re.search(r"PACE_MS\s*=\s*(\d+)", js)
    assert m is not None
    assert Settings(testing=False).resolved_bot_delay() * 1000 >= int(m.group(1))
    assert Settings(testing=True).resolved_bot_delay() == 0.0
    assert Settings(testing=False, bot_delay=0.25).resolved_bot_delay() == 0.25
