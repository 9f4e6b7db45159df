"""Seven Diamonds in Chromium: one person plays a whole game to 500 in the page against and with
three computer players (SevenDiamondsPlayer, each through its own table socket, deciding from its
seat's frames only), and the downloaded record replays to the scores the page shows.

Also: the help that marks playable cards is off by default and remembered when turned on; the
Arabic page is right to left with the seed's terms."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dineri import records
from dineri.players.seven_diamonds_basic import SevenDiamondsPlayer
from tests.server.harness import Api, Client, Server, running
from tests.web.tables import enter_name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Api]]:
    """The module's testing server (200 messages per second allowed) and its REST helper."""
    db = tmp_path_factory.mktemp("sd-browser") / "dineri.db"
    with running(db, DINERI_MESSAGES_PER_SECOND="200") as both:
        yield both


class Computers:
    """Three computer players (seats 1–3), each on its own socket in a thread with its own loop:
    on its turn it decides from its seat's last view and the events its socket received."""

    def __init__(self, srv: Server, table_id: str, players: list[dict[str, Any]], seed: int) -> None:
        self.srv, self.table_id, self.players, self.seed = srv, table_id, players, seed
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Computers:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(30)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as e:  # reported to the test
            self.error = e

    async def _main(self) -> None:
        seats = []
        for i, p in enumerate(self.players, 1):
            seats.append((i, await Client(self.srv, self.table_id, p["token"]).connect(),
                          SevenDiamondsPlayer("basic", seed=self.seed + i)))
        try:
            while not self.stop.is_set():
                for seat, client, player in seats:
                    view = client.last_view()["view"]
                    if not view or view.get("turn") != seat or view["phase"] not in ("bidding", "play"):
                        continue
                    events = [f["event"] for f in client.frames if f["type"] == "event"]
                    legal = _legal(view)
                    reply = await client.act(player.choose(view, events, legal))
                    assert reply["type"] == "ack", reply
                await asyncio.sleep(0.05)
        finally:
            for _, client, _ in seats:
                await client.close()


def _legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The action objects the seat may send, from its own view (S5–S10)."""
    if view["phase"] == "bidding":
        raise_call = "three" if view.get("doubler") is not None else "double"
        return [{"type": "bid", "call": "pass"}, {"type": "bid", "call": raise_call}]
    table = view["table"]
    order = "789TJQKA"

    def fits(code: str) -> bool:
        if not table["D"]:
            return code == "7D"
        return order.index(code[0]) == len(table[code[1]])

    plays = [{"type": "play", "card": c} for c in view["hand"] if fits(c)]
    return plays or [{"type": "pass"}]


def _new_table(page: Any, api: Api, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    page.goto("/")
    enter_name(page, name)
    table = page.evaluate("""fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'seven_diamonds', options: {}, public: true, clock: 0})})
        .then(r => r.json())""")
    assert table["game"] == "seven_diamonds" and table["options"] == {"seats": 4, "target": 500}
    page.goto(f"/t/{table['id']}")
    page.click('#setup-seats button[data-seat="0"]')
    # Seated before the others sit (the final whole-suite run once waited 60 s for a start button
    # that never came; it passed alone): a lost seat then fails here, not at the start button.
    page.locator("#leave-seat").wait_for(state="visible")
    others = [api.player(n) for n in ("Noura", "Saad", "Reem")]
    for seat, p in enumerate(others, 1):
        assert api.sit(p, table, seat=seat).status_code == 200
    page.wait_for_function("!document.getElementById('start-match').disabled")
    return table, others


def _start(page: Any, first_dealer: int, decks: list[list[str]]) -> None:
    page.evaluate("""([id, fd, decks]) => fetch('/api/tables/' + id + '/start', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({first_dealer: fd, decks: decks})})
        .then(r => { if (!r.ok) { throw new Error('start ' + r.status); } })""",
                  [page.url.split("/t/")[1].split("?")[0], first_dealer, decks])
    page.locator("#board").wait_for(state="visible")


def _decks(seed: int, n: int = 30) -> list[list[str]]:
    rng = random.Random(seed)
    codes = [r + s for s in "DHSC" for r in "789TJQKA"]
    out = []
    for _ in range(n):
        rng.shuffle(codes)
        out.append(list(codes))
    return out


def _my_move(page: Any) -> bool:
    """Play the person's move if it is theirs (the first card marked playable, or the pass).
    A round's count dialog may open meanwhile: then nothing is done and the caller closes it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return _move(page)
    except PlaywrightTimeout:
        if page.locator("#summary[open]").count():
            return False
        raise


def _move(page: Any) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    ds = page.evaluate("({...document.body.dataset})")
    if ds.get("turn") != "0":
        return False
    if ds.get("phase") == "bidding":
        # Pass in even rounds, raise in odd ones (the page shows the multiplier either way).
        raise_id = page.evaluate("['double-btn', 'three-btn'].find(id => !document.getElementById(id).hidden"
                                 " && !document.getElementById('bid-controls').hidden) || null")
        passing = int(ds.get("rounds", "0")) % 2 == 0 or raise_id is None
        moved = ("document.body.dataset.turn !== '0'"
                 " || document.body.dataset.phase !== 'bidding'")
        page.click("#bid-pass-btn" if passing else "#" + raise_id, timeout=5000)
        try:
            page.wait_for_function(moved, timeout=8000)
        except PlaywrightTimeout:
            # Seen once in a loaded run: the click landed while the controls were redrawn and
            # nothing was sent (a follow-up of the lead's note). A player presses again; so do we.
            if page.locator("#summary[open]").count():
                raise
            page.click("#bid-pass-btn" if passing else "#" + raise_id, timeout=5000)
            page.wait_for_function(moved, timeout=20000)
    elif ds.get("phase") == "play":
        playable = page.locator('.card.playable[data-zone="hand"]')
        if playable.count():
            code = playable.first.get_attribute("data-card")
            playable.first.click(timeout=5000)
            page.click("#play-btn", timeout=5000)
            page.wait_for_function(f"!document.body.dataset.hand.split(',').includes('{code}')"
                                   " || document.body.dataset.phase !== 'play'", timeout=20000)
        else:
            page.click("#jella-btn", timeout=5000)
            page.wait_for_function("document.body.dataset.turn !== '0'", timeout=20000)
    else:
        return False
    return True


def test_a_whole_game_to_500_in_the_browser_replays_to_the_shown_scores(browser: Any, server: Any,
                                                                      console: Any, tmp_path: Path) -> None:
    srv, api = server
    ctx = browser.new_context(viewport={"width": 1000, "height": 1200}, base_url=srv.base, locale="en")
    page = console.watch(ctx.new_page())
    page.set_default_timeout(60000)  # a loaded machine
    table, others = _new_table(page, api, "Fahad")
    # The help is off by default.
    assert not page.locator("#sd-hints").is_checked()
    _start(page, 3, _decks(7))
    assert page.evaluate("document.body.dataset.hints") == "off"
    assert page.locator(".card.playable").count() == 0
    page.check("#sd-hints")
    summaries: list[int] = []
    with Computers(srv, table["id"], others, seed=40) as bots:
        deadline = time.monotonic() + 700
        while time.monotonic() < deadline:
            assert bots.error is None, bots.error
            if page.locator("#summary[open]").count():
                node = page.locator("#summary .sd-summary").last
                if node.count():
                    summaries.append(int(node.get_attribute("data-points") or "-1"))
                if page.evaluate("document.body.dataset.phase") == "over":
                    break
                page.click("#summary-close")
                continue
            if page.evaluate("document.body.dataset.phase") == "over":
                page.wait_for_selector("#summary[open]", timeout=20000)
                continue
            if not _my_move(page):
                time.sleep(0.1)
        assert bots.error is None, bots.error
    assert page.evaluate("document.body.dataset.phase") == "over"
    shown = [int(x) for x in page.evaluate("document.body.dataset.scores").split(",")]
    assert max(shown) >= 500
    # The scores the page shows, in the score bar too.
    bar = page.locator("#scorebar").inner_text()
    assert f"Score: {shown[0]}" in bar and f"Score: {shown[1]}" in bar
    # The record, downloaded by the person, replays to exactly those scores and rounds.
    doc = page.evaluate(f"fetch('/api/tables/{table['id']}/record').then(r => r.json())")
    out = records.replay_json(doc)
    assert out["ok"] and out["phase"] == "over" and out["scores"] == shown
    assert out["winner"] == int(page.evaluate("document.body.dataset.winner"))
    points = [max(r["points"]) for r in out["rounds"]]
    assert summaries[:len(points)] == points  # every round's count dialog showed its points
    assert int(page.evaluate("document.body.dataset.rounds")) == len(out["rounds"])
    # The record's own result and its decks check out.
    assert doc["result"] == out
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    _, rec = records.load(doc)
    from dineri.fairness import verify_record

    assert verify_record(rec) == []
    # The help stays on for the next page (remembered), and the record link is offered.
    page.reload()
    page.locator("#board").wait_for(state="visible")
    assert page.locator("#sd-hints").is_checked()
    page.wait_for_function("/\\/record$/.test("
                           "document.getElementById('record-board').getAttribute('href') || '')")
    ctx.close()
    assert console.errors == []


def test_the_arabic_page_is_right_to_left_with_the_seeds_terms(browser: Any, server: Any,
                                                               console: Any) -> None:
    srv, api = server
    ctx = browser.new_context(viewport={"width": 400, "height": 900}, base_url=srv.base, locale="ar")
    page = console.watch(ctx.new_page())
    page.set_default_timeout(60000)
    page.goto("/lang/ar?next=/")
    _new_table(page, api, "Fahad")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    _start(page, 3, _decks(8))  # seat 0 calls first
    page.wait_for_function("document.body.dataset.turn === '0' && document.body.dataset.phase === 'bidding'")
    assert page.locator("#double-btn").inner_text().startswith("دبل")
    assert page.locator("#bid-pass-btn").inner_text() == "بس"
    assert "سبعة الديمن" in page.locator("#rules summary").inner_text()
    page.click("#double-btn")
    page.wait_for_function("document.body.dataset.multiplier === '2'")
    assert "دبل" in page.locator("#log").inner_text()
    with contextlib.suppress(Exception):
        ctx.close()
    assert console.errors == []


DRAWN = """() => ({
  rows: Object.fromEntries([...document.querySelectorAll('.sd-row')].map(r =>
    [r.dataset.suit, [...r.querySelectorAll('.card[data-card]')].map(c => c.dataset.card)])),
  hands: [...document.querySelectorAll('.seat[data-seat]')].sort((a, b) => a.dataset.seat - b.dataset.seat)
    .map(s => [...s.querySelectorAll('.replay-hand [data-card]')].map(c => c.dataset.card)),
  scores: document.getElementById('scorebar').innerText,
  bidding: document.getElementById('sd-bidding').innerText
})"""


def test_the_replay_page_draws_seven_diamonds_with_every_hand(browser: Any, server: Any, console: Any,
                                                              tmp_path: Path) -> None:
    srv, _api = server
    case = json.loads((Path(__file__).resolve().parents[1] / "cases" / "seven_diamonds" / "full-game.json")
                      .read_text(encoding="utf-8"))
    record = {**case["record"], "players": ["Fahad", "Noura", "Saad", "Reem"]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    expect = records.replay_json(record)
    ctx = browser.new_context(viewport={"width": 1000, "height": 1200}, base_url=srv.base, locale="en")
    page = console.watch(ctx.new_page())
    page.set_default_timeout(60000)
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.locator("#viewer").wait_for(state="visible")
    first = page.evaluate(DRAWN)
    assert all(not row for row in first["rows"].values()) and all(len(h) == 8 for h in first["hands"])
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('next').disabled")
    drawn = page.evaluate(DRAWN)
    assert drawn["rows"] == expect["table"]
    assert drawn["hands"] == expect["hands"]  # every hand face up, as dineri replay holds them
    for score in expect["scores"]:
        assert f"Score: {score}" in drawn["scores"]
    assert f"×{expect['multiplier']}" in drawn["bidding"]
    # The round jump lists the rounds.
    labels = page.locator("#round-jump option").all_inner_texts()
    assert labels == [f"Round {r}" for r in range(1, len(expect["rounds"]) + 1)]
    ctx.close()
    assert console.errors == []
