"""A whole 1v1 match watched on two French phones (issue 13, item 7): a side's captured cards
open from its pile (every card the page saw taken, R13-R25), and at the end the match-end
dialog, with the last round's summary under the result, keeps Continue, Download the match
record and Rematch in sight. The moves are sent by WebSocket clients of the same players (the
pages only watch), on the scripted decks of tests/web/plan.py."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from dineri.engine import CODE
from tests.server.harness import Client
from tests.web.plan import Plan, action_json, decks_for
from tests.web.tables import PHONE, open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
SEED = 17
PAUSE_AT = 14  # actions into round 1: some cards already taken by each side


def _token(ctx: Any) -> str:
    return str(next(c["value"] for c in ctx.cookies() if c["name"] == "dineri_token"))


class Driver:
    """Plays the plan's actions through one WebSocket client per seat, in a thread of its own
    (the Playwright pages stay on the test's thread)."""

    def __init__(self, base: str, table_id: str, tokens: list[str], plan: Plan) -> None:
        self.server = SimpleNamespace(ws_base=base.replace("http://", "ws://"))
        self.table_id, self.tokens, self.plan = table_id, tokens, plan
        self.error: BaseException | None = None

    def run(self, upto: int | None) -> None:
        def go() -> None:
            try:
                asyncio.run(self._play(upto))
            except BaseException as e:  # reported to the test
                self.error = e
        t = threading.Thread(target=go)
        t.start()
        t.join(240)
        assert not t.is_alive() and self.error is None, self.error

    async def _play(self, upto: int | None) -> None:
        clients = [await Client(self.server, self.table_id, tok).connect() for tok in self.tokens]  # type: ignore[arg-type]
        try:
            done = 0
            while (seat := self.plan.actor()) is not None and (upto is None or done < upto):
                action = self.plan.choose()
                reply = await clients[seat].act(action_json(action))
                assert reply["type"] == "ack", reply
                self.plan.step(action)
                done += 1
        finally:
            for c in clients:
                await c.close()


def _in_sight(page: Any, selector: str) -> bool:
    box = page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                        " return [r.top, r.bottom, r.width]; }", selector)
    return bool(box[2] > 0 and box[0] >= 0 and box[1] <= PHONE["height"])


def test_piles_open_and_the_match_end_buttons_stay_in_sight(browser: Any, server: str, console: Any) -> None:
    a, b = player(browser, server, "Leïla", lang="fr"), player(browser, server, "Karim", lang="fr")
    plan = Plan(decks_for(SEED), first_dealer=0)
    table_id = started([a, b], first_dealer=0, decks=plan.decks)
    pages = [open_table(a, console, table_id), open_table(b, console, table_id)]
    driver = Driver(server, table_id, [_token(a), _token(b)], plan)

    driver.run(PAUSE_AT)
    deal = plan.state.deal
    assert deal is not None and all(deal.piles)  # both sides have taken cards by now
    leila = pages[0]
    table = ",".join(CODE[c] for c in deal.table)
    leila.wait_for_function("(t) => document.body.dataset.table === t", arg=table)
    for side in (0, 1):
        leila.click(f'[data-open-pile="{side}"]')
        dialog = leila.locator("#summary")
        dialog.wait_for(state="visible")
        codes = "(is) => is.map((i) => i.getAttribute('src').split('/').pop().split('.')[0])"
        shown = leila.eval_on_selector_all("#summary-body .pile-cards img", codes)
        assert sorted(shown) == sorted(CODE[c] for c in deal.piles[side]), side
        # 1v1: Leila's own pile and her opponent's (not "your side", issue 13 item 8).
        titles = ("Cartes que vous avez prises", "Cartes prises par votre adversaire")
        assert leila.locator("#summary-h").inner_text() == titles[side]
        assert leila.locator("#summary-body .hint").count() == 0  # every card is known
        leila.click("#summary-close")

    driver.run(None)  # the rest of the match
    assert plan.actor() is None and plan.state.winner is not None
    for page in pages:
        page.locator("#record-link").wait_for(state="visible")
        page.locator("#rematch-btn").wait_for(state="visible")
        # The last round's summary is in the dialog, and its three buttons are on the screen.
        assert page.locator("#summary-body .summary-table").count() == 1
        for button in ("#summary-close", "#record-link", "#rematch-btn"):
            assert _in_sight(page, button), button
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # The empty pack at the end is an empty place, not a card back with 0.
        assert page.locator("#pack img").count() == 0 and page.locator("#pack .pack-box.empty").count() == 1
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []
