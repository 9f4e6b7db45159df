"""Screenshots of the player and admin pages, taken with Playwright on Debian's Chromium against a
testing server of this checkout (stacked decks, computer players without delay).

    .venv/bin/python scripts/screenshots.py OUT_DIR          # the Arabic phone trial's pictures
    .venv/bin/python scripts/screenshots.py OUT_DIR --readme # also README's docs/screenshot-*.png

The trial's pictures (360 x 740, Arabic): ``ar-1v1.png`` (a 1v1 Chkobba table in play),
``ar-2v2.png`` (a 2v2 table mid-play), ``ar-summary.png`` (a round summary), ``ar-admin.png``
(the admin match page). With ``--readme``: ``docs/screenshot-table.png`` (English 2v2 at
1280 x 900, a card selected, the clock running) and ``docs/screenshot-phone-ar.png`` (the same
table on an Arabic phone, the whole page)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import running_server  # noqa: E402  (after the path is set)
from tests.web.plan import decks_for  # noqa: E402

PHONE = {"width": 360, "height": 740}
ADMIN_TOKEN = "screenshots-admin-token"


def _player(browser: Any, base: str, name: str, lang: str, viewport: dict[str, int] = PHONE) -> Any:
    ctx = browser.new_context(viewport=viewport, locale=lang, base_url=base,
                              extra_http_headers={"Accept-Language": lang})
    assert ctx.request.post("/api/players", data={"name": name}).ok
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": base}])
    ctx.add_init_script("localStorage.setItem('dineri_named', '1')")
    return ctx


def _table(ctx: Any, seats: int, bots: list[int], *, clock: int = 0, dealer: int = 1,
           level: str = "greedy") -> str:
    """A Chkobba table, seat 0 taken by ctx's player, computers at ``bots``, started on stacked decks."""
    body = {"game": "chkobba", "public": True, "clock": clock,
            "options": {"seats": seats, "target": 11, "best_of": 1}}
    table_id = str(ctx.request.post("/api/tables", data=body).json()["id"])
    assert ctx.request.post(f"/api/tables/{table_id}/seats", data={"seat": 0}).ok
    for seat in bots:
        assert ctx.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": level}).ok
    r = ctx.request.post(f"/api/tables/{table_id}/start",
                         data={"first_dealer": dealer, "decks": decks_for(3)})
    assert r.ok, r.text()
    return table_id


MY_PLAY = ("document.body.dataset.turn === '0'"
           " && ['cut', 'cut_choice', 'play'].includes(document.body.dataset.phase)")


def _my_move(page: Any) -> str:
    """Make seat 0's move (cut at 5, keep, lay the first card); returns the phase it was in."""
    page.wait_for_function(MY_PLAY + " || document.getElementById('summary').open"
                           " || !document.getElementById('redeal-answer').hidden", timeout=30000)
    if page.evaluate("document.getElementById('summary').open"):
        return "summary"
    if page.evaluate("!document.getElementById('redeal-answer').hidden"):  # a computer asks (R10)
        page.click("#redeal-refuse")
        page.wait_for_function("document.getElementById('redeal-answer').hidden")
        return "redeal"
    phase = str(page.evaluate("document.body.dataset.phase"))
    if phase == "cut":
        page.fill("#cut-at", "5")
        page.click("#cut-btn")
        page.wait_for_function("document.body.dataset.phase !== 'cut'")
    elif phase == "cut_choice":
        page.click("#keep-btn")
        page.wait_for_function("document.body.dataset.phase !== 'cut_choice'")
    else:
        hand = page.evaluate("document.body.dataset.hand").split(",")
        card = page.locator(f'.card[data-zone="hand"][data-card="{hand[0]}"]')
        if card.get_attribute("aria-pressed") != "true":  # not already selected (_select_one)
            card.click()
        page.click("#lay-btn")
        # The card leaves the hand (a new deal may fill it again in the same step).
        page.wait_for_function("(c) => !document.body.dataset.hand.split(',').includes(c)", arg=hand[0])
    return phase


def _plays(page: Any, n: int) -> None:
    """Seat 0 plays until it has laid ``n`` cards (the computers answer meanwhile)."""
    laid = 0
    while laid < n:
        if _my_move(page) == "play":
            laid += 1


def _select_one(page: Any) -> None:
    """Wait for seat 0's turn to play and select the first card of its hand (nothing sent)."""
    page.wait_for_function("document.body.dataset.turn === '0' && document.body.dataset.phase === 'play'",
                           timeout=30000)
    page.wait_for_timeout(1200)  # the last move's pace and motion are over
    card = page.evaluate("document.body.dataset.hand").split(",")[0]
    page.click(f'.card[data-zone="hand"][data-card="{card}"]')


def take(out: Path, readme: bool) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []
    with TemporaryDirectory() as work, running_server(Path(work), ADMIN_TOKEN=ADMIN_TOKEN) as base, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        # 1. A 1v1 table in play, Arabic phone; then on to the end of the round: its summary.
        ctx = _player(browser, base, "يوسف", "ar")
        table_id = _table(ctx, 2, [1], clock=60)
        page = ctx.new_page()
        page.goto(f"/t/{table_id}")
        _plays(page, 4)
        _select_one(page)
        shots.append(out / "ar-1v1.png")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots[-1]))
        shots.append(out / "ar-1v1-full.png")
        page.screenshot(path=str(shots[-1]), full_page=True)
        while _my_move(page) != "summary":
            pass
        page.wait_for_timeout(500)
        shots.append(out / "ar-summary.png")
        page.screenshot(path=str(shots[-1]))
        ctx.close()
        # 2. A 2v2 table mid-play, Arabic phone (with its clock running).
        ctx = _player(browser, base, "يوسف", "ar")
        table_id = _table(ctx, 4, [1, 2, 3], clock=30)
        page = ctx.new_page()
        page.goto(f"/t/{table_id}")
        _plays(page, 2)
        _select_one(page)
        shots.append(out / "ar-2v2.png")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots[-1]))
        ctx.close()
        if readme:
            # README's pair: the same 2v2 moment (a new deal: three cards in hand, one selected;
            # easy computers), in English at 1280 x 800 and on an Arabic phone (the whole page).
            for lang, name, viewport, path, full in (
                    ("en", "Youssef", {"width": 1280, "height": 800}, "screenshot-table.png", False),
                    ("ar", "يوسف", PHONE, "screenshot-phone-ar.png", True)):
                c = _player(browser, base, name, lang, viewport=viewport)
                t = _table(c, 4, [1, 2, 3], clock=30, dealer=0, level="easy")
                p_ = c.new_page()
                p_.goto(f"/t/{t}")
                _plays(p_, 3)
                _select_one(p_)
                p_.evaluate("window.scrollTo(0, 0)")
                shots.append(ROOT / "docs" / path)
                p_.screenshot(path=str(shots[-1]), full_page=full)
                c.close()
        # 3. The admin match page of a finished 1v1 match between two computers, Arabic phone.
        host = _player(browser, base, "Host", "ar")
        body = {"game": "chkobba", "public": True, "clock": 0,
                "options": {"seats": 2, "target": 11, "best_of": 1}}
        done = host.request.post("/api/tables", data=body).json()["id"]
        for seat in (0, 1):
            assert host.request.post(f"/api/tables/{done}/bots", data={"seat": seat}).ok
        assert host.request.post(f"/api/tables/{done}/start", data={}).ok
        admin = host.new_page()
        admin.goto(f"/t/{done}")
        admin.wait_for_function("document.body.dataset.phase === 'over'", timeout=240000)
        admin.goto("/admin")
        admin.fill("#token", ADMIN_TOKEN)
        admin.press("#token", "Enter")
        admin.wait_for_url(base + "/admin")
        shots.append(out / "ar-admin-list.png")
        admin.screenshot(path=str(shots[-1]))
        admin.click("tr.match a")
        admin.wait_for_selector("table.rounds")
        shots.append(out / "ar-admin.png")
        admin.screenshot(path=str(shots[-1]))
        admin.locator("table.rounds").scroll_into_view_if_needed()
        admin.evaluate("document.querySelector('table.rounds').closest('.scroll').previousElementSibling"
                       ".scrollIntoView()")
        shots.append(out / "ar-admin-rounds.png")
        admin.screenshot(path=str(shots[-1]))
        host.close()
        browser.close()
    return shots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for the trial's pictures")
    ap.add_argument("--readme", action="store_true",
                    help="also refresh docs/screenshot-table.png and -phone-ar.png")
    args = ap.parse_args()
    for path in take(args.out, args.readme):
        print(path)


if __name__ == "__main__":
    main()
