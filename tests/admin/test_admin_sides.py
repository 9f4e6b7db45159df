"""The admin pages name a Chkobba side by its players (Arabic phone trial, 28_admin_match.png:
«الفائز: الفريق 2» of a 1v1): in a 1v1 the player, in a 2v2 "side n (A and B)"; score pairs
read one way, first side first, with the order named; computers named as the players' pages
name them, the strategy id in a column of its own.

Records come from the shared scenario cases (tests/cases/chkobba); the pages are rendered by the
admin's own environment (tests/admin/test_replay_views.render).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from dineri.admin.replay import action_log, final_state, step
from tests.admin.test_replay_views import case, render


def detail(lang: str, name: str, players: list[str]) -> tuple[str, dict[str, Any]]:
    record = copy.deepcopy(case(name)["record"])
    record["players"] = players
    state = final_state(record)
    html = render(lang, "match.html", match={"id": 3, "status": "over", "table_id": "t", "reason": "won",
                                             "started_at": None, "ended_at": None},
                  record=record, log=action_log(record), state=state, game="chkobba")
    return html, state


def text(html: str) -> str:
    """The page's words, tags dropped."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize(("lang", "winner", "side_word"), [
    ("en", "Winner: {name}", "side"), ("fr", "Vainqueur : {name}", "camp"),
    ("ar", "الفائز: {name}", "الفريق"),
])
def test_a_1v1_names_the_players_never_sides(lang: str, winner: str, side_word: str) -> None:
    html, state = detail(lang, "full-match-2seats-t11-bo1", ["Sami", "Layla"])
    words = text(html)
    name = ["Sami", "Layla"][state["winner"]]
    assert winner.format(name=name) in words
    # No side anywhere: result, rounds (karta, dinari, … won by a player), log.
    assert not re.search(rf"{side_word} [12]", words, re.IGNORECASE), words
    # Each number next to its player, so no pair to read in a direction.
    a, b = state["games_won"]
    assert {"en": f"Sami: {a}, Layla: {b}", "fr": f"Sami : {a}, Layla : {b}",
            "ar": f"Sami: {a}، Layla: {b}"}[lang] in words
    # Rounds: every pair an isolate in the page's direction (Arabic: right to left, first side
    # first), each half isolated; the caption names the order with the same pair of names.
    way = "rtl" if lang == "ar" else "ltr"
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html.split('class="rounds"')[1].split("</table>")[0])
    pairs = [c for c in cells if "–" in c]
    assert pairs and all(c.startswith(f'<bdi dir="{way}" class="pair"><bdi>') for c in pairs)
    caption = text(html.split('<p class="caption" id="rounds-caption">')[1].split("</p>")[0])
    assert "Sami – Layla" in caption
    halves = "<bdi><bdi>Sami</bdi></bdi> – <bdi><bdi>Layla</bdi></bdi>"
    assert f'<bdi dir="{way}" class="pair">{halves}</bdi>' in html
    # The caption says the way the pairs read on this page (the trial: «من اليسار إلى اليمين»
    # of an Arabic page, whose every other line reads right to left).
    assert {"en": "left to right", "fr": "de gauche à droite", "ar": "من اليمين إلى اليسار"}[lang] in caption


def test_a_1v1_without_names_says_seats() -> None:
    record = copy.deepcopy(case("full-match-2seats-t11-bo1")["record"])
    record.pop("players", None)
    html = render("ar", "match.html", match={"id": 3, "status": "over", "table_id": "t", "reason": "won",
                                             "started_at": None, "ended_at": None},
                  record=record, log=action_log(record), state=final_state(record), game="chkobba")
    words = text(html)
    assert "الفريق" not in words and re.search(r"الفائز: المقعد [12]", words)


def test_a_2v2_keeps_sides_named_by_their_players() -> None:
    html, state = detail("en", "full-match-4seats-t11-bo3", ["Amel", "Bilel", "Chaima", "Dali"])
    words = text(html)
    names = ["side 1 (Amel and Chaima)", "side 2 (Bilel and Dali)"]
    assert f"Winner: {names[state['winner']]}" in words
    assert "Each pair, left to right: side 1 (Amel and Chaima) – side 2 (Bilel and Dali)." in words


def test_an_arabic_2v2_pair_keeps_each_side_whole() -> None:
    """«الفريق 1 (Amel وChaima) – الفريق 2 (…)»: each side an isolate of its own inside the pair,
    so its Arabic words and Latin names never run into the other side's."""
    html, _ = detail("ar", "full-match-4seats-t11-bo3", ["Amel", "Bilel", "Chaima", "Dali"])
    caption = html.split('<p class="caption" id="rounds-caption">')[1].split("</p>")[0]
    assert ('<bdi dir="rtl" class="pair"><bdi>الفريق 1 (Amel وChaima)</bdi> – '
            '<bdi>الفريق 2 (Bilel وDali)</bdi></bdi>') in caption
    assert "كل زوج من اليمين إلى اليسار" in caption and "اليسار إلى اليمين" not in caption


def forfeited(lang: str, name: str, players: list[str], loser: int) -> str:
    """The admin match page of case *name* cut short by *loser*'s forfeit (R33)."""
    record = copy.deepcopy(case(name)["record"])
    record["players"] = players
    record["actions"] = [*record["actions"][:2], {"seat": loser, "type": "forfeit"}]
    state = final_state(record)
    assert state["phase"] == "over" and state["winner"] == 1 - loser % 2
    match = {"id": 3, "status": "over", "table_id": "t", "reason": "forfeit",
             "started_at": None, "ended_at": None}
    return text(render(lang, "match.html", match=match, record=record, log=action_log(record), state=state,
                       game="chkobba"))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Winner: Sami, by the forfeit of Salma."),
    ("fr", "Vainqueur : Sami, par forfait de Salma."),
    ("ar", "الفائز: Sami، بانسحاب Salma."),
])
def test_a_forfeit_names_the_winner_and_who_forfeited(lang: str, said: str) -> None:
    """«الفائز: سلمى (بالانسحاب)» left open who forfeited (trial): a 1v1 names both players."""
    words = forfeited(lang, "full-match-2seats-t11-bo1", ["Sami", "Salma"], loser=1)
    assert said in words
    assert not re.search(r"(side|camp|الفريق) [12]", words)


def test_a_2v2_forfeit_names_both_sides() -> None:
    words = forfeited("en", "full-match-4seats-t11-bo3", ["Amel", "Bilel", "Chaima", "Dali"], loser=3)
    assert "Winner: side 1 (Amel and Chaima), by the forfeit of side 2 (Bilel and Dali)." in words


def test_the_step_viewer_names_players_in_a_1v1() -> None:
    record = copy.deepcopy(case("full-match-2seats-t11-bo1")["record"])
    record["players"] = ["Sami", "Layla"]
    n = len(record["actions"])
    shown = step(record, n)
    html = render("ar", "replay.html", match={"id": 7}, players=record["players"], shown=shown,
                  state=shown["state"], last=n)
    words = text(html)
    assert "الفريق" not in words
    assert re.search(r"Sami \(المقعد 1\)", words) and re.search(r"Layla \(المقعد 2\)", words)
    s0, s1 = shown["state"]["scores"]
    assert f"Sami: {s0}، Layla: {s1}" in words


@pytest.mark.parametrize(("lang", "shown"), [("en", "Computer 2 · easy"), ("fr", "Ordinateur 2 · facile"),
                                             ("ar", "الحاسوب 2 · سهل")])
def test_computers_are_named_by_level_with_the_strategy_aside(lang: str, shown: str) -> None:
    html, _ = detail(lang, "full-match-2seats-t11-bo1", ["Sami", "Bot 2 (greedy)"])
    assert f'<td class="name">{shown}</td>' in html
    # The strategy in the page's words, its id kept for tools (fresh Arabic trial: "greedy").
    level = {"en": "easy", "fr": "facile", "ar": "سهل"}[lang]
    assert f'<td class="strategy" data-strategy="greedy">{level}</td>' in html
    assert "طمّاع" not in html and "Bot 2" not in html and "(greedy)" not in html


@pytest.mark.parametrize(("lang", "side_word"), [("en", "side"), ("ar", "الفريق")])
def test_the_match_list_names_a_1v1_winner(lang: str, side_word: str) -> None:
    """The list's Winner column said «الفريق 2» of a 1v1 too: the player's name there, a side
    in a 2v2."""
    item = {"id": 5, "table_id": "t", "game": "chkobba", "status": "over", "started_at": None,
            "ended_at": None, "actions": 3, "winner": 1, "reason": "forfeit", "problem": None,
            "players": ["Sami", "Salma"], "options": {"seats": 2, "target": 11, "best_of": 1}}
    pair = {**item, "id": 6, "players": ["Amel", "Bilel", "Chaima", "Dali"],
            "options": {"seats": 4, "target": 11, "best_of": 1}}
    html = render(lang, "matches.html", matches=[item, pair], more=False, problem=None, statuses=(),
                  q={}, page=1, prev_url=None, next_url=None)
    rows = re.findall(r'<tr class="match" data-id="(\d)">(.*?)</tr>', html, re.S)
    cells = {i: re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for i, row in rows}
    assert text(cells["5"][6]).strip() == "Salma"
    assert side_word in text(cells["6"][6]) and "Bilel" in text(cells["6"][6])
