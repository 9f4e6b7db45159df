"""Page routes of the browser client (issue 4): language negotiation, cookie, RTL,
static files, escaping of the page config, and refused paths."""

from __future__ import annotations

import json
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dineri.web import mount_web


@pytest.fixture
def client() -> TestClient:
    app = FastAPI()
    mount_web(app, None)
    return TestClient(app)


def _config(html: str) -> dict[str, object]:
    m = re.search(r'<script type="application/json" id="dineri-config">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def test_home_follows_accept_language(client: TestClient) -> None:
    r = client.get("/", headers={"Accept-Language": "ar-TN,fr;q=0.8"})
    assert r.status_code == 200
    assert '<html lang="ar" dir="rtl">' in r.text
    assert "إنشاء طاولة" in r.text
    assert r.headers["content-language"] == "ar"


def test_cookie_beats_accept_language(client: TestClient) -> None:
    client.cookies.set("dineri_lang", "fr")
    r = client.get("/", headers={"Accept-Language": "ar"})
    assert '<html lang="fr" dir="ltr">' in r.text


def test_language_switch_sets_cookie_and_goes_back(client: TestClient) -> None:
    r = client.get("/lang/ar", params={"next": "/t/abc?code=x"}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/t/abc?code=x"
    assert "dineri_lang=ar" in r.headers["set-cookie"]
    assert '<html lang="ar"' in client.get("/").text


@pytest.mark.parametrize("bad", ["//evil.example/x", "https://evil.example/", "\\\\evil", ""])
def test_language_switch_never_leaves_the_site(client: TestClient, bad: str) -> None:
    r = client.get("/lang/fr", params={"next": bad}, follow_redirects=False)
    assert r.headers["location"] == "/"


def test_unknown_language_sets_nothing(client: TestClient) -> None:
    r = client.get("/lang/xx", follow_redirects=False)
    assert r.status_code == 303
    assert "set-cookie" not in r.headers


def test_table_page_carries_its_id(client: TestClient) -> None:
    r = client.get("/t/Ab_3-x")
    assert r.status_code == 200
    assert _config(r.text)["table_id"] == "Ab_3-x"


def test_table_page_loads_its_game_module(client: TestClient) -> None:
    """The helpers, the game's module, then the shell (docs/web.md); an unknown game gets Chkobba's."""
    from dineri.web.pages import page_game

    html = client.get("/t/Ab_3-x").text
    assert _config(html)["game"] == "chkobba"
    scripts = re.findall(r'<script src="/static/js/([\w/.-]+)"', html)
    assert scripts == ["common.js", "net.js", "motion.js", "games/chkobba.js", "table-shell.js",
                       "accounts/accounts.js", "accounts/table-extras.js"]  # ratings, watchers (issue 14)
    assert page_game("chkobba") == "chkobba"
    assert page_game(None) == page_game("no_such_game") == page_game("../base") == "chkobba"


def test_invitation_page(client: TestClient) -> None:
    r = client.get("/join/tbl.CODE_1")
    assert r.status_code == 200
    assert _config(r.text)["invite"] == "tbl.CODE_1"


@pytest.mark.parametrize("path", ["/t/a%3Cscript%3E", "/join/a%22b", "/t/" + "x" * 65])
def test_bad_ids_are_not_pages(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert "<script>" not in r.text


def test_next_is_escaped(client: TestClient) -> None:
    r = client.get('/?x="><script>alert(1)</script>')
    assert "<script>alert(1)</script>" not in r.text


def test_static_cards(client: TestClient) -> None:
    for code in ("AD", "7D", "KC", "back"):
        r = client.get(f"/static/cards/{code}.svg")
        assert r.status_code == 200
        assert r.text.startswith("<svg")
    for script in ("common.js", "net.js", "motion.js", "table-shell.js", "games/chkobba.js"):
        assert client.get(f"/static/js/{script}").status_code == 200, script
    assert client.get("/static/dineri.css").status_code == 200


def test_favicon_ico_leads_to_the_svg_icon(client: TestClient) -> None:
    r = client.get("/favicon.ico", follow_redirects=True)
    assert r.status_code == 200
    assert str(r.url).endswith("/static/favicon.svg")
    assert r.text.lstrip().startswith("<svg")


def test_all_52_faces_and_a_back_ship_in_both_deck_styles() -> None:
    """Chkobba's 40 (R3), and the 8, 9 and 10 (``T``) of golf4 and Seven Diamonds; the classic
    pack and the Spanish-suited one (issue 13, item 9)."""
    from dineri.web.pages import STATIC_DIR

    expected = {r + s for r in "A23456789TJQK" for s in "DHSC"} | {"back"}
    for style in ("cards", "cards/spanish"):
        names = {p.stem for p in (STATIC_DIR / style).glob("*.svg")}
        assert names == expected, style
        for name in names:
            text = (STATIC_DIR / style / f"{name}.svg").read_text(encoding="utf-8")
            assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
            # Court cards are drawn figures of our own, not chess symbols.
            assert not any(ch in text for ch in "♔♕♖♗♘♙♚♛♜♝♞♟"), (style, name)


def test_the_seven_of_diamonds_mark_leaves_its_pips_visible() -> None:
    """Sab'a l-hayya's mark (R26) is a frame and a star in the margin: nothing painted over the
    seven pips (the gold is a stroke-only frame and a star above the first row of pips)."""
    from dineri.web.pages import STATIC_DIR

    for style in ("cards", "cards/spanish"):
        text = (STATIC_DIR / style / "7D.svg").read_text(encoding="utf-8")
        gold = re.findall(r'<(rect|path|circle)[^>]*(?:stroke|fill)="#d(?:4a017|9a520)"[^>]*>', text)
        assert gold, style
        frame = re.search(r'<rect x="5" y="5"[^>]*fill="none"[^>]*stroke="#d(?:4a017|9a520)"', text)
        assert frame, style
        star = re.search(r'<path d="M50 (\d+)[^"]*" fill="#d(?:4a017|9a520)"/>', text)
        assert star, style
        ys = [float(y) for y in re.findall(r"[ML ](?:\d+(?:\.\d+)?) (\d+(?:\.\d+)?)", star.group(0))]
        assert ys and max(ys) < 22.5, (style, ys)  # the first row of pips starts below y = 22.5
