"""The admin's record views (issue 3 item 7): the action log, the replay steps, the templates.

Records come from the shared scenario cases (tests/cases/chkobba), so the expected results are
the cases' own, computed independently of this code.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dineri.admin import i18n
from dineri.admin.auth import AdminAuth
from dineri.admin.replay import ReplayError, action_log, final_state, status_of, step

CASES = Path(__file__).resolve().parents[1] / "cases" / "chkobba"


def case(name: str) -> dict[str, Any]:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def test_final_state_is_the_cases_expected_result() -> None:
    c = case("full-match-2seats-t11-bo1")
    state = final_state(c["record"])
    for key, value in c["expect"].items():
        assert state[key] == value, key


def test_step_walks_from_the_start_to_the_stored_result() -> None:
    c = case("full-match-2seats-t11-bo1")
    n = len(c["record"]["actions"])
    first = step(c["record"], 0)
    assert first["total"] == n and first["action"] is None
    assert first["state"]["phase"] == "cut" and first["state"]["hands"] == [[], []]
    last = step(c["record"], n)
    assert last["state"]["winner"] == c["expect"]["winner"]
    assert last["action"] == c["record"]["actions"][-1]
    mid = step(c["record"], 10)
    assert mid["action"] == c["record"]["actions"][9]
    # all 40 cards are somewhere: hands, table, piles, pack (R1)
    s = mid["state"]
    held = sum(len(h) for h in s["hands"]) + len(s["table"]) + sum(len(p) for p in mid["piles"])
    assert held + s["deck_left"] == 40
    assert [len(p) for p in mid["piles"]] == s["captured"]


@pytest.mark.parametrize("bad", [-1, 10_000])
def test_step_out_of_range_is_refused(bad: int) -> None:
    with pytest.raises(ReplayError, match="step must be"):
        step(case("full-match-2seats-t11-bo1")["record"], bad)


def test_action_log_marks_auto_actions_chkobbas_and_rounds() -> None:
    c = case("full-match-2seats-t11-bo1")
    record = copy.deepcopy(c["record"])
    record["players"] = ["Amira", "Youssef"]
    record["actions"][5]["auto"] = True
    log = action_log(record)
    assert len(log) == len(record["actions"])
    assert [e["auto"] for e in log].count(True) == 1 and log[5]["auto"]
    assert log[0]["player"] == ["Amira", "Youssef"][record["actions"][0]["seat"]]
    rounds = [ev for e in log for ev in e["events"] if ev["type"] == "round_over"]
    assert [r["result"]["points"] for r in rounds] == [r["points"] for r in c["expect"]["rounds"]]
    chkobbas = sum(1 for e in log for ev in e["events"] if ev.get("chkobba"))
    assert chkobbas == sum(sum(r["chkobbas"]) for r in c["expect"]["rounds"])


def test_action_log_stops_at_a_refused_action() -> None:
    record = copy.deepcopy(case("full-match-2seats-t11-bo1")["record"])
    record["actions"][3] = {"seat": 0, "type": "claim", "card": "AH", "capture": ["2C"]}
    log = action_log(record)
    assert len(log) == 4 and log[3]["refused"]["code"] in ("no_missed_capture", "not_your_turn")


def test_a_broken_document_is_a_replay_error() -> None:
    with pytest.raises(ReplayError, match="malformed record"):
        action_log({"format": "nope"})


def test_status_names() -> None:
    assert status_of("playing", None) == "playing"
    assert status_of("over", {"reason": "forfeit"}) == "forfeited"
    assert status_of("over", {"reason": "won"}) == "over"


def test_admin_token_and_cookie() -> None:
    auth = AdminAuth("s3cret-token", "server-secret")
    assert auth.token_ok("s3cret-token") and not auth.token_ok("s3cret-tokeN") and not auth.token_ok(None)
    cookie = auth.cookie_value()
    assert auth.cookie_ok(cookie)
    assert not auth.cookie_ok(cookie + "x") and not auth.cookie_ok("") and not auth.cookie_ok(None)
    # another token (or another server secret) invalidates the cookie
    assert not AdminAuth("other-token", "server-secret").cookie_ok(cookie)
    assert not AdminAuth("s3cret-token", "other-secret").cookie_ok(cookie)
    with pytest.raises(ValueError):
        AdminAuth("", "server-secret")


@pytest.mark.parametrize(("cookie", "header", "lang"), [
    (None, None, "en"), ("ar", "fr", "ar"), (None, "fr-TN,fr;q=0.9,en;q=0.5", "fr"),
    (None, "de, ar;q=0.4, en;q=0.3", "ar"), ("xx", "garbage;;q=x", "en"),
])
def test_language_negotiation(cookie: str | None, header: str | None, lang: str) -> None:
    assert i18n.negotiate(cookie, header) == lang


def render(lang: str, template: str, **ctx: Any) -> str:
    env = i18n.environment(lang)
    return env.get_template(f"admin/{template}").render(
        lang=lang, dir=i18n.direction(lang), languages=i18n.LANGUAGES, next="/admin", **ctx)


def test_replay_page_escapes_names_and_shows_every_hand() -> None:
    c = case("full-match-2seats-t11-bo1")
    record = copy.deepcopy(c["record"])
    evil = '<script>alert("x")</script>'
    record["players"] = [evil, "Youssef"]
    shown = step(record, 10)
    html = render("en", "replay.html", match={"id": 7}, players=record["players"], shown=shown,
                  state=shown["state"], last=len(record["actions"]))
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    for hand in shown["state"]["hands"]:
        for code in hand:
            assert f'title="{code}"' in html
    assert 'id="next" href="/admin/matches/7/replay?step=11"' in html


def test_arabic_pages_are_right_to_left() -> None:
    html = render("ar", "login.html", error=True)
    assert '<html lang="ar" dir="rtl">' in html


@pytest.mark.parametrize(("lang", "phase", "pack"), [("fr", "coupe", "36 cartes restantes"),
                                                     ("ar", "القطع", "36 ورقة متبقية")])
def test_replay_page_words_phase_and_pack_in_the_language(lang: str, phase: str, pack: str) -> None:
    """The phase is a word of the page's language (its code stays in data-phase); the pack's count
    takes the language's plural form (ngettext: Arabic 11–99 takes the singular ورقة)."""
    c = case("full-match-2seats-t11-bo1")
    record = copy.deepcopy(c["record"])
    record["players"] = ["Amira", "Youssef"]
    shown = step(record, 0)
    state = dict(shown["state"], deck_left=36)
    html = render(lang, "replay.html", match={"id": 7}, players=record["players"], shown=shown,
                  state=state, last=len(record["actions"]))
    assert f'<dd id="phase" data-phase="cut">{phase}</dd>' in html
    assert f"<dd>{pack}</dd>" in html
