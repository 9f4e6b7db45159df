"""Four-card Golf behind the games interface v2, adapting :mod:`dineri.golf4` (G1–G15).

The match keeps the engine state and the golf4 record side by side; every accepted action is
appended to the record as the engine writes it. Decks come from :func:`dineri.fairness.shuffled`
with a commitment published (a ``commitment`` event) before the deck is used: at each round's
deal and at each reshuffle (G11), which the engine asks for mid-round (``needs_deck()``). Decks
and salts are revealed only when the match is over. The peek's two cards (G6) leave only through
:meth:`Golf4Match.private_events`, once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from dineri import golf4 as engine
from dineri.fairness import commit_codes, shuffled
from dineri.games import common
from dineri.games.base import GameError, Json
from dineri.golf4 import CODE, MatchState, Options, RecordError, RuleError

_CLIENT_KEYS = {"type", "slot"}


def _check_form(action: Json) -> None:
    """A client action must be exactly one of ``golf4_actions``' models (see
    :func:`~dineri.games.common.check_form`). Raises :class:`GameError` ``malformed``."""
    from dineri.games.golf4_actions import ACTION_MODELS

    common.check_form(action, ACTION_MODELS)


def _parse_deck(deck: object) -> tuple[int, ...]:
    """A deck of 52 card codes (G3) as engine cards; :class:`GameError` ``malformed``."""
    return common.malformed_on(RecordError, engine.parse_deck, deck, 0)


def _timeout_action(state: MatchState, seat: int) -> Json | None:
    """The rule page's timeouts: skip the peek; at the start of a turn draw (then discard, see
    :meth:`Golf4Match.immediate_action`); holding a drawn card, discard it; holding a taken
    discard, swap it into slot 0. Never a knock."""
    deal = state.deal
    if deal is None:
        return None
    if state.phase == "peek":
        return {"type": "skip_peek"} if deal.peeks[seat] is None else None
    if state.phase != "play" or state.turn != seat:
        return None
    if deal.held is None:
        return {"type": "draw"} if deal.stock else {"type": "take"}
    if deal.held.source == "stock":
        return {"type": "discard"}
    return {"type": "swap", "slot": 0}


@dataclass(frozen=True, slots=True)
class Golf4Match(common.RecordedMatch):
    """An immutable golf4 match: the engine ``state``, the ``record_`` that rebuilds it, and the
    private events of the last :meth:`apply` (``secret``; never stored).

    Phases: shuffle (a round's deal, G5, or a reshuffle, G11, needs a deck), peek, play, over
    (the last round scored, G15, or one seat only left in)."""

    state: MatchState
    record_: engine.MatchRecord
    secret: dict[int, list[Json]] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        """Number of seats (2–8, G1)."""
        return self.state.seats

    def add_deck(self, deck: list[str] | None = None) -> tuple[Golf4Match, list[Json]]:
        """Supply the next deck: a secure shuffle unless ``deck`` (52 codes) is given. Returns the
        new match and its events: ``commitment`` first, then the engine's (``deal`` or
        ``reshuffle``). Raises :class:`GameError` ``malformed`` for a bad deck."""
        rec = self.record_
        deck, extra = common.next_deck(rec.extra, deck)
        codes = shuffled(list(CODE)) if deck is None else deck
        cards = _parse_deck(codes)
        fair = commit_codes([CODE[c] for c in cards])
        new_rec = replace(rec, decks=(*rec.decks, cards), extra=extra,
                          fairness=(*(rec.fairness or ()), engine.Fairness(fair.salt, fair.commitment)))
        state, events = engine.add_deck(self.state, cards)
        return Golf4Match(state, new_rec), [common.commitment_event(len(rec.decks), fair.commitment), *events]

    def apply(self, seat: int, action: Json, *, auto: bool = False) -> tuple[Golf4Match, list[Json]]:
        """Apply a client action object (``match-record-golf4.md`` without ``seat``/``auto``).

        Raises :class:`GameError` with the record page's codes, in its check order. A ``peek``
        leaves the seat's slots 2 and 3 in :meth:`private_events` (G6)."""
        if not isinstance(action, dict):
            raise GameError("malformed", "an action must be a JSON object")
        unknown = set(action) - _CLIENT_KEYS
        if unknown:
            raise GameError("malformed", f"unexpected key(s): {', '.join(sorted(map(str, unknown)))[:80]}")
        _check_form(action)
        raw = common.record_form(action, seat, auto)
        act = common.refused_on(RuleError, engine.action_from_json, raw, self.seats)
        state, events = common.refused_on(RuleError, engine.apply, self.state, act)
        rec = self.record_.with_action(act)
        for ev in events:
            if ev["type"] == "forfeit":
                ev["side"] = ev["seat"]
        secret: dict[int, list[Json]] = {}
        if isinstance(act, engine.Peek):
            assert self.state.deal is not None
            a, b = engine.peek_slots(self.state.deal, seat)
            secret = {seat: [{"type": "peek_cards", "slots": {"2": CODE[a], "3": CODE[b]}}]}
        if state.phase == "over":
            rec = replace(rec, extra=common.without_pending(rec.extra))
            rec = replace(rec, result=engine.replay(rec).to_json())
        return Golf4Match(state, rec, secret), events

    def public_view(self) -> Json:
        """The engine's public view: no face-down card (G7), the drawn card of nobody (G8)."""
        return engine.public_view(self.state)

    def private_view(self, seat: int) -> Json:
        """``{"seat", "held"}``: the card the seat drew from the stock while it holds it (G8)."""
        return engine.private_view(self.state, seat)

    def private_events(self) -> dict[int, list[Json]]:
        """The peek's two cards to the peeking seat, from the last :meth:`apply` only (G6)."""
        return {s: [dict(e) for e in evs] for s, evs in self.secret.items()}

    def summary(self) -> Json:
        """The replay output's state (``match-record-golf4.md``), every hand included."""
        return engine.summary(self.state)

    def legal_actions(self, seat: int) -> list[Json]:
        """Every action object ``seat`` may send now (record form without ``seat``)."""
        return common.action_docs(engine.legal_actions(self.state, seat), engine.action_to_json)

    def waiting_for(self) -> tuple[int, ...]:
        """In ``peek``: every seat still in that has not answered (G6); in ``play``: the seat to
        play unless it is out (the service plays it at once: :meth:`immediate_action`)."""
        st = self.state
        if st.phase == "peek" and st.deal is not None:
            return tuple(s for s, p in enumerate(st.deal.peeks) if p is None and s not in st.forfeited)
        if st.phase == "play" and st.turn is not None and st.turn not in st.forfeited:
            return (st.turn,)
        return ()

    def to_act(self) -> int | None:
        """The first seat of :meth:`waiting_for`, or ``None``."""
        waiting = self.waiting_for()
        return waiting[0] if waiting else None

    def auto_action(self, seat: int) -> Json | None:
        """The turn clock's action for ``seat`` (rule page, Timeouts): skip the peek; draw (the
        discard follows at once through :meth:`immediate_action`); discard a drawn card; swap a
        taken discard into slot 0. Never a knock. ``None`` when the game does not wait on it."""
        if seat not in self.waiting_for():
            return None
        return _timeout_action(self.state, seat)

    def immediate_action(self) -> tuple[int, Json] | None:
        """What the service must do at once, with ``auto``: an out seat's peek answer and turns
        (by the timeout rule), and the discard that completes a timed-out turn's automatic draw."""
        st = self.state
        if st.phase == "peek" and st.deal is not None:
            for s in st.forfeited:
                if st.deal.peeks[s] is None:
                    return s, {"type": "skip_peek"}
            return None
        if st.phase != "play" or st.turn is None:
            return None
        seat = st.turn
        if seat in st.forfeited:
            act = _timeout_action(st, seat)
            return (seat, act) if act is not None else None
        last = self.record_.actions[-1] if self.record_.actions else None
        if (isinstance(last, dict) and last.get("auto") and last.get("type") == "draw"
                and last.get("seat") == seat and st.deal is not None and st.deal.held is not None):
            return seat, {"type": "discard"}
        return None

    def result(self) -> Json | None:
        """Once over: ``reason`` (``forfeit`` when a forfeit ended it, else ``won``), ``winner``
        (the seat when one alone wins, else null), ``winners`` (G15: shared wins), ``ranks``
        (equal totals share a rank; out seats last), ``totals``, ``forfeited``."""
        st = self.state
        if st.phase != "over":
            return None
        won = list(st.winners or ())
        last = self.record_.actions[-1] if self.record_.actions else {}
        reason = "forfeit" if isinstance(last, dict) and last.get("type") == "forfeit" else "won"
        return {"reason": reason, "winner": won[0] if len(won) == 1 else None, "winners": won,
                "ranks": engine.ranks(st.totals, st.forfeited), "totals": list(st.totals),
                "forfeited": list(st.forfeited)}


class Golf4Game(common.RecordedGame):
    """Four-card Golf (``docs/rules/golf4.md``): 2–8 seats, everyone alone."""

    name = "golf4"
    actions_module = "dineri.games.golf4_actions"
    events_module = "dineri.games.golf4_events"

    def check_options(self, options: Json) -> Json:
        """``{"seats": 2..8, "rounds": 9|18}`` (``rounds`` defaults to 9), strict JSON types, no
        other key. Raises :class:`GameError` ``malformed``."""
        if not isinstance(options, dict):
            raise GameError("malformed", "options must be an object")
        return common.refused_on(RuleError, Options.from_json, {"rounds": 9, **options},
                                 strict=True).to_json()

    def options_schema(self) -> Json:
        """``seats`` 2 to 8 (G1), ``rounds`` 9 or 18 (absent: 9), no other key."""
        from dineri.golf4.options import ROUNDS, SEATS

        return {"type": "object", "additionalProperties": False, "required": ["seats"],
                "properties": {"seats": {"type": "integer", "minimum": SEATS[0], "maximum": SEATS[-1]},
                               "rounds": {"type": "integer", "enum": list(ROUNDS)}}}

    def seats(self, options: Json) -> int:
        """2 to 8 (G1)."""
        return int(options["seats"])

    def side_of(self, options: Json, seat: int) -> int:
        """Everyone plays alone: the seat itself."""
        return seat

    def teams(self, options: Json) -> bool:
        """No sides to choose."""
        return False

    def new_match(self, options: Json, players: list[str], first_dealer: int | None = None,
                  decks: list[list[str]] | None = None) -> tuple[Golf4Match, list[Json]]:
        """Start a match: the first dealer at random unless given (G4); the first deck supplied at
        once (from ``decks`` in testing, kept server-side until each is needed, else secure
        shuffles). Returns the match and its events. Raises :class:`GameError` ``malformed``."""
        opts = Options.from_json(self.check_options(options))
        if first_dealer is None:
            first_dealer = secrets.randbelow(opts.seats)
        if type(first_dealer) is not int or not 0 <= first_dealer < opts.seats:
            raise GameError("malformed", f"first_dealer must be from 0 to {opts.seats - 1}")
        if len(players) != opts.seats:
            raise GameError("malformed", f"{opts.seats} players are needed")
        parsed = [_parse_deck(d) for d in (decks or [])]
        rec = engine.MatchRecord(options=opts, first_dealer=first_dealer, decks=(), actions=(),
                                 players=tuple(players), fairness=(),
                                 extra=common.pending_extra([CODE[c] for c in d] for d in parsed))
        state, _ = engine.new_match(opts, first_dealer)
        return Golf4Match(state, rec).add_deck()

    def load(self, record: Json) -> Golf4Match:
        """Replay a stored record (all its decks are in it). Raises :class:`GameError`."""
        rec = common.malformed_on(RecordError, engine.load_record, record)
        rep = engine.replay(rec)
        common.check_replay(rep.error)
        if rep.applied != len(rec.actions):
            raise GameError("malformed", "stored record lacks a deck before its last actions")
        return Golf4Match(rep.state, rec)

    def replay_steps(self, record: Json) -> list[Json]:
        """Step a record in one pass (see :meth:`Game.replay_steps`): the engine's events and
        summary after each accepted action. Raises :class:`GameError` ``malformed``."""
        rec = common.malformed_on(RecordError, engine.load_record, record)
        out: list[Json] = [{"index": None, "action": None, "events": [],
                            "state": engine.summary(engine.start(rec))}]
        for step in engine.steps(rec):
            if isinstance(step, engine.Step):
                out.append({"index": step.index, "action": step.action, "events": step.events,
                            "state": engine.summary(step.state)})
        return out
