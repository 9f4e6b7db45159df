"""Chkobba behind the game interface, adapting :mod:`dineri.engine` (R1–R33).

The match keeps the engine state and the ``dineri-match/1`` record side by side;
every accepted action is appended to the record exactly as the engine writes it.
Decks come from :func:`dineri.fairness.secure_deck` with a commitment published
(as a ``commitment`` event) before the cut (R7); decks and salts are revealed only
when the match is over.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from dineri import engine
from dineri.engine import CODE, VALUE, MatchState, Options, RecordError, RuleError
from dineri.engine.views import turn_of
from dineri.fairness import commit, secure_deck
from dineri.games import common
from dineri.games.base import GameError, Json

_CLIENT_KEYS = {"type", "at", "accept", "card", "capture"}


def _check_form(action: Json) -> None:
    """A client action must be exactly one of ``chkobba_actions``' models (see
    :func:`~dineri.games.common.check_form`). Raises :class:`GameError` ``malformed``."""
    from dineri.games.chkobba_actions import ACTION_MODELS

    common.check_form(action, ACTION_MODELS)


def _deck_codes(deck: tuple[int, ...]) -> list[str]:
    return [CODE[c] for c in deck]


@dataclass(frozen=True, slots=True)
class ChkobbaMatch(common.RecordedMatch):
    """An immutable Chkobba match: the engine ``state`` and the ``record`` that rebuilds it.

    Phases: shuffle (the next round, or an accepted redeal, needs a deck: R7), cut, cut_choice,
    play, redeal_vote, over (the match won or forfeited: R32, R33)."""

    state: MatchState
    record_: engine.MatchRecord

    @property
    def seats(self) -> int:
        """Number of seats (R4)."""
        return self.state.options.seats

    def add_deck(self, deck: list[str] | None = None) -> tuple[ChkobbaMatch, list[Json]]:
        """Supply the next shuffle (R7): a secure one unless ``deck`` (card codes) is given.

        Returns the new match and a ``commitment`` event ``{"type", "deck", "commitment"}``
        (``deck`` is the 0-based index of the shuffle). Raises :class:`GameError` ``malformed``.
        """
        rec = self.record_
        deck, extra = common.next_deck(rec.extra, deck)
        cards = secure_deck() if deck is None else _parse_deck(deck)
        fair = commit(cards)
        new_rec = replace(rec, decks=(*rec.decks, cards), fairness=(*(rec.fairness or ()), fair),
                          extra=extra)
        state = engine.add_deck(self.state, cards)
        return ChkobbaMatch(state, new_rec), [common.commitment_event(len(rec.decks), fair.commitment)]

    def apply(self, seat: int, action: Json, *, auto: bool = False) -> tuple[ChkobbaMatch, list[Json]]:
        """Apply a client action object (``match-record.md`` without ``seat``/``auto``) for ``seat``.

        A ``cut`` without ``at`` cuts at a secure random position (R8). Raises :class:`GameError`
        with the record's codes (``malformed`` first, then phase, seat and rules).
        """
        if not isinstance(action, dict):
            raise GameError("malformed", "an action must be a JSON object")
        extra = set(action) - _CLIENT_KEYS
        if extra:
            raise GameError("malformed", f"unexpected key(s): {', '.join(sorted(map(str, extra)))}")
        if not auto:
            _check_form(action)
        raw = common.record_form(action, seat, auto)
        if raw.get("type") == "cut" and raw.get("at") is None:
            raw["at"] = secrets.randbelow(40)
        act = common.refused_on(RuleError, engine.action_from_json, raw, self.seats)
        state, events = common.refused_on(RuleError, engine.apply, self.state, act)
        rec = self.record_.with_action(act)
        if state.phase == "over":
            rec = replace(rec, result=engine.replay(rec).to_json(), extra=common.without_pending(rec.extra))
        return ChkobbaMatch(state, rec), events

    def seat_view(self, seat: int) -> Json:
        """The engine's seat view (its own hand only)."""
        return engine.seat_view(self.state, seat)

    def spectator_view(self) -> Json:
        """The engine's spectator view (no hand at all)."""
        return engine.spectator_view(self.state)

    def public_view(self) -> Json:
        """The engine's spectator view: what every seat and spectator sees."""
        return engine.spectator_view(self.state)

    def private_view(self, seat: int) -> Json:
        """``{"seat", "side", "hand"}``: the seat's own cards (R5). Raises ``ValueError``."""
        return engine.private_view(self.state, seat)

    def summary(self) -> Json:
        """The replay output's state (``match-record.md``), every hand included."""
        return engine.summary(self.state)

    def legal_actions(self, seat: int) -> list[Json]:
        """Every action object ``seat`` may send now (a cut is listed once, without ``at``)."""
        out: list[Json] = []
        cut = False
        for doc in common.action_docs(engine.legal_actions(self.state, seat), engine.action_to_json):
            if doc["type"] == "cut":
                if cut:
                    continue
                cut = True
                doc.pop("at")
            out.append(doc)
        return out

    def to_act(self) -> int | None:
        """The seat the game waits for: the cutter, the seat to play, or in a redeal vote the
        first opponent on the proposer's right; ``None`` when over or waiting for a deck."""
        if self.state.phase in ("over", "shuffle"):
            return None
        return turn_of(self.state)  # not the whole spectator view: this runs on every action

    def auto_action(self, seat: int) -> Json | None:
        """The turn clock's action (issue 3, item 5): in play, lay a card without capturing: the
        lowest (value, then suit order) of those that could capture nothing on the table, so the
        lay opens no missed-capture window (R19) for the next seat to claim; only when every card
        of the hand could capture, the lowest of all (a trial found the clock's lay handing the
        next seat a claim). Cut at random, keep, refuse a redeal."""
        st = self.state
        if self.to_act() != seat:
            return None
        if st.phase == "play" and st.deal is not None and st.deal.hands[seat]:
            hand, table = st.deal.hands[seat], st.deal.table
            safe = [c for c in hand if not engine.can_capture(c, table)]
            card = min(safe or hand, key=lambda c: (VALUE[c], c))
            return {"type": "play", "card": CODE[card]}
        if st.phase == "cut":
            return {"type": "cut"}
        if st.phase == "cut_choice":
            return {"type": "keep"}
        if st.phase == "redeal_vote":
            return {"type": "answer_redeal", "accept": False}
        return None

    def result(self) -> Json | None:
        """Once over: ``winner`` (side), ``reason`` (won/forfeit), ``ranks`` (1 for the winning
        side's seats, 2 for the others), ``games_won``, ``forfeited_by``, ``scores`` (R32, R33)."""
        st = self.state
        if st.phase != "over":
            return None
        ranks = [1 if seat % 2 == st.winner else 2 for seat in range(st.options.seats)]
        return {"winner": st.winner, "reason": "forfeit" if st.forfeited_by is not None else "won",
                "ranks": ranks, "games_won": list(st.games_won), "forfeited_by": st.forfeited_by,
                "scores": list(st.scores)}


def _parse_deck(deck: object) -> tuple[int, ...]:
    """A deck of 40 card codes (R1) as engine cards; :class:`GameError` ``malformed``."""
    return common.malformed_on(RecordError, engine.record.parse_deck, deck, 0)


class ChkobbaGame(common.RecordedGame):
    """Chkobba (``docs/rules/chkobba.md``)."""

    name = "chkobba"
    actions_module = "dineri.games.chkobba_actions"
    events_module = "dineri.games.chkobba_events"

    def check_options(self, options: Json) -> Json:
        """``{"seats": 2|4, "target": 11|21|31, "best_of": 1|3|5}``; raises :class:`GameError`."""
        return common.refused_on(RuleError, Options.from_json, options).to_json()

    def options_schema(self) -> Json:
        """Every key required, each one of its values (R4), no other key."""
        from dineri.engine.state import BEST_OF, SEATS, TARGETS

        return {"type": "object", "additionalProperties": False,
                "required": ["seats", "target", "best_of"],
                "properties": {"seats": {"type": "integer", "enum": list(SEATS)},
                               "target": {"type": "integer", "enum": list(TARGETS)},
                               "best_of": {"type": "integer", "enum": list(BEST_OF)}}}

    def seats(self, options: Json) -> int:
        """2 or 4 (R4)."""
        return int(options["seats"])

    def teams(self, options: Json) -> bool:
        """2v2: players choose a side (R5)."""
        return int(options["seats"]) == 4

    def replay_steps(self, record: Json) -> list[Json]:
        """Step a record in one pass (see :meth:`Game.replay_steps`): the engine's events and
        :func:`dineri.engine.summary` after each accepted action. Raises :class:`GameError`."""
        rec = common.malformed_on(RecordError, engine.load_record, record)
        state = engine.new_match(rec.options, rec.first_dealer, rec.decks)
        steps: list[Json] = [{"index": None, "action": None, "events": [], "state": engine.summary(state)}]
        for i, raw in enumerate(rec.actions):
            try:
                state, events = engine.apply(state, engine.action_from_json(raw, rec.options.seats))
            except RuleError:
                break
            steps.append({"index": i, "action": raw, "events": events, "state": engine.summary(state)})
        return steps

    def new_match(self, options: Json, players: list[str], first_dealer: int | None = None,
                  decks: list[list[str]] | None = None) -> tuple[ChkobbaMatch, list[Json]]:
        """Start a match: the first dealer drawn at random unless given (R6); the first deck
        supplied at once (from ``decks`` in testing, the rest securely). Returns the match and
        its ``commitment`` event(s). Raises :class:`GameError` ``malformed`` for bad input."""
        opts = Options.from_json(self.check_options(options))
        if first_dealer is None:
            first_dealer = secrets.randbelow(opts.seats)
        if not 0 <= first_dealer < opts.seats:
            raise GameError("malformed", f"first_dealer must be from 0 to {opts.seats - 1}")
        if len(players) != opts.seats:
            raise GameError("malformed", f"{opts.seats} players are needed")
        parsed = [_parse_deck(d) for d in (decks or [])]
        # Testing: supplied orders wait server-side (record key ``pending_decks``, dropped at the
        # end) until each is needed, so a restarted server deals the same stacked decks.
        rec = engine.MatchRecord(options=opts, first_dealer=first_dealer, decks=(), actions=(),
                                 players=tuple(players), fairness=(),
                                 extra=common.pending_extra(_deck_codes(d) for d in parsed))
        return ChkobbaMatch(engine.new_match(opts, first_dealer), rec).add_deck()

    def load(self, record: Json) -> ChkobbaMatch:
        """Replay a stored record (all its decks are already in it). Raises :class:`GameError`."""
        rec = common.malformed_on(RecordError, engine.load_record, record)
        rep = engine.replay(rec)
        common.check_replay(rep.error)
        return ChkobbaMatch(rep.state, rec)
