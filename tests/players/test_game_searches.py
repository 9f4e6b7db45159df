"""golf4 and Seven Diamonds search levels (issue 12 item 4): legal moves from the seat's JSON only,
worlds that keep every count and never hold a card the seat has located elsewhere, and the
benchmark's result line."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dineri.players.base import PlayerError
from dineri.players.golf4_search import Golf4Knowledge, Golf4Model, Golf4SearchPlayer
from dineri.players.levels import make_player
from dineri.players.seven_diamonds_basic import Memory
from dineri.players.seven_diamonds_search import SevenDiamondsModel, SevenDiamondsSearchPlayer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bots_games import _codes, play_match  # noqa: E402


def _decks(game: str, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        d = _codes(game)
        rng.shuffle(d)
        out.append(d)
    return out


def test_levels_are_search_players() -> None:
    assert isinstance(make_player("hard", 1, game="golf4"), Golf4SearchPlayer)
    assert isinstance(make_player("medium", 1, game="seven_diamonds"), SevenDiamondsSearchPlayer)
    assert make_player("easy", 1, game="golf4").name == "easy"  # basic with mistakes
    with pytest.raises(ValueError):
        make_player("hard", 1, game="nope")


class _Checked:
    """Wraps a search player: checks each world drawn against what the seat may know."""

    def __init__(self, player: object, game: str) -> None:
        self.player, self.game, self.name = player, game, "checked"
        self.searched = 0

    def choose(self, view: dict, events: list, legal: list) -> dict:
        if view.get("phase") == "play" and view.get("turn") == view.get("seat"):
            if self.game == "golf4" and len(legal) > 1:
                self._golf4(view, events)
            if self.game == "seven_diamonds":
                self._seven(view, events)
        choice = self.player.choose(view, events, legal)  # type: ignore[attr-defined]
        assert choice in legal
        return choice

    def _golf4(self, view: dict, events: list) -> None:
        drawn = self.player.basic.drawn  # type: ignore[attr-defined]
        try:
            k = Golf4Knowledge(view, events, drawn)
        except PlayerError:
            return
        w = Golf4Model(k).determinize(random.Random(self.searched))
        cards = [c for h in w.hands for c in h] + w.stock + w.pile + ([w.held] if w.held >= 0 else [])
        assert sorted(cards) == list(range(52))  # every card once
        assert len(w.stock) == view["stock_left"] and w.pile[-1:] == k.pile[-1:]
        for seat, hand in enumerate(k.known):
            for slot, c in enumerate(hand):
                if c >= 0:
                    assert w.hands[seat][slot] == c
        self.searched += 1

    def _seven(self, view: dict, events: list) -> None:
        memory = Memory(int(view["seat"]))
        for e in events:
            memory.on_event(e)
        memory.on_view(view)
        model = SevenDiamondsModel(view, memory)
        w = model.determinize(random.Random(self.searched))
        assert [len(h) for h in w.hands] == view["hand_sizes"]
        assert sorted(w.hands[view["seat"]]) == sorted(model.hand)
        assert sorted(c for h in w.hands for c in h) == sorted(model.unseen + model.hand)
        self.searched += 1


@pytest.mark.timeout(300)
def test_golf4_search_plays_whole_matches_from_its_view() -> None:
    players = [_Checked(make_player("medium", 3, timed=False, game="golf4"), "golf4"),
               make_player("basic", 4, game="golf4")]
    match, times = play_match("golf4", {"seats": 2, "rounds": 9}, players, 0, _decks("golf4", 1))
    assert match.over and players[0].searched > 20 and times[0]


@pytest.mark.timeout(300)
def test_seven_diamonds_search_plays_a_whole_match_from_its_view() -> None:
    players = [_Checked(make_player("medium", s, timed=False, game="seven_diamonds"), "seven_diamonds")
               if s % 2 == 0 else make_player("basic", s, game="seven_diamonds") for s in range(4)]
    match, _ = play_match("seven_diamonds", {"seats": 4, "target": 500}, players, 1,
                          _decks("seven_diamonds", 2))
    assert match.over and sum(p.searched for p in players if isinstance(p, _Checked)) > 20


def test_search_refuses_what_is_not_json() -> None:
    player = make_player("hard", 1, game="seven_diamonds")
    with pytest.raises(PlayerError):
        player.choose({"seat": 0, "phase": "play", "turn": 0, "x": object()}, [], [{"type": "pass"}])


@pytest.mark.timeout(300)
def test_bots_games_benchmark_ends_with_the_result_line() -> None:
    done = subprocess.run([sys.executable, "benchmarks/bots_games.py", "--game", "seven_diamonds",
                           "--level", "medium", "--matches", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"medium vs basic: \d+/2 won \(\d+\.\d%, 95% CI \d+\.\d–\d+\.\d%\); "
                        r"move time median \d+\.\d+ s, max \d+\.\d+ s", last), last
