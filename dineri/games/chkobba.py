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
from typing import Any

from dineri import engine
from dineri.engine import CODE, VALUE, MatchState, Options, RecordError, RuleError
from dineri.engine.views import turn_of
from dineri.fairness import commit, secure_deck
from dineri.games.base import Game, GameError, GameMatch, Json

_CLIENT_KEYS = {"type", "at", "accept", "card", "capture"}


def _check_form(action: Json) -> None:
    """A client action must be exactly one of ``chkobba_actions``' models: only its own keys,
    strict JSON types (no ``"5"`` for 5, no ``1`` for true). Raises :class:`GameError` ``malformed``."""
    from pydantic import ValidationError

    from dineri.games.chkobba_actions import ACTION_MODELS

    kind = action.get("type")
    model = ACTION_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise GameError("malformed", f"unknown action type {str(action.get('type'))[:32]!r}")
    try:
        model.model_validate(action, strict=True)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise GameError("malformed", f"{where}: {first['msg']}") from None


def _deck_codes(deck: tuple[int, ...]) -> list[str]:
    return [CODE[c] for c in deck]


@dataclass(frozen=True, slots=True)
class ChkobbaMatch(GameMatch):
    """An immutable Chkobba match: the engine ``state`` and the ``record`` that rebuilds it."""

    state: MatchState
    record_: engine.MatchRecord

    @property
    def seats(self) -> int:
        """Number of seats (R4)."""
        return self.state.options.seats

    @property
    def phase(self) -> str:
        """The engine phase: shuffle, cut, cut_choice, play, redeal_vote or over."""
        return self.state.phase

    @property
    def over(self) -> bool:
        """True once the match is won or forfeited (R32, R33)."""
        return self.state.phase == "over"

    def needs_deck(self) -> bool:
        """True in phase ``shuffle``: the next round (or an accepted redeal) needs a deck (R7)."""
        return self.state.phase == "shuffle"

    def add_deck(self, deck: list[str] | None = None) -> tuple[ChkobbaMatch, list[Json]]:
        """Supply the next shuffle (R7): a secure one unless ``deck`` (card codes) is given.

        Returns the new match and a ``commitment`` event ``{"type", "deck", "commitment"}``
        (``deck`` is the 0-based index of the shuffle). Raises :class:`GameError` ``malformed``.
        """
        rec = self.record_
        pending = list(rec.extra.get("pending_decks", []))
        if deck is None and pending:
            deck = pending.pop(0)  # testing: a stacked order supplied at the start
        cards = secure_deck() if deck is None else _parse_deck(deck)
        fair = commit(cards)
        extra = {**rec.extra, "pending_decks": pending} if pending else _without_pending(rec.extra)
        new_rec = replace(rec, decks=(*rec.decks, cards), fairness=(*(rec.fairness or ()), fair),
                          extra=extra)
        state = engine.add_deck(self.state, cards)
        event = {"type": "commitment", "deck": len(rec.decks), "commitment": fair.commitment}
        return ChkobbaMatch(state, new_rec), [event]

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
        raw: dict[str, Any] = {**action, "seat": seat}
        if raw.get("type") == "cut" and raw.get("at") is None:
            raw["at"] = secrets.randbelow(40)
        if auto:
            raw["auto"] = True
        try:
            act = engine.action_from_json(raw, self.seats)
            state, events = engine.apply(self.state, act)
        except RuleError as e:
            raise GameError(e.code, e.message) from None
        rec = self.record_.with_action(act)
        if state.phase == "over":
            rec = replace(rec, result=engine.replay(rec).to_json(), extra=_without_pending(rec.extra))
        return ChkobbaMatch(state, rec), events

    def last_action(self) -> Json:
        """The last record action (``match-record.md`` form, with ``seat``); raises ``IndexError``."""
        return dict(self.record_.actions[-1])

    def actions_count(self) -> int:
        """How many actions the record holds."""
        return len(self.record_.actions)

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
        for act in engine.legal_actions(self.state, seat):
            doc = engine.action_to_json(act)
            doc.pop("seat")
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

    def forfeit_action(self) -> Json:
        """R33: ``{"type": "forfeit"}``."""
        return {"type": "forfeit"}

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

    def rounds(self) -> list[Json]:
        """Every finished round (``match-record.md``, A finished round)."""
        return [r.to_json() for r in self.state.rounds]

    def record(self) -> Json:
        """The full ``dineri-match/1`` document, decks and salts included."""
        return self.record_.to_json()

    def reveal(self) -> Json:
        """Once over: ``{"type": "reveal", "decks": [...], "fairness": [...]}`` (R7)."""
        if not self.over:
            raise ValueError("decks are revealed only when the match is over")
        doc = self.record_.to_json()
        return {"type": "reveal", "decks": doc["decks"], "fairness": doc.get("fairness", [])}


def _without_pending(extra: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in extra.items() if k != "pending_decks"}


def _parse_deck(deck: object) -> tuple[int, ...]:
    try:
        return engine.record.parse_deck(deck, 0)
    except RecordError as e:
        raise GameError("malformed", str(e)) from None


class ChkobbaGame(Game):
    """Chkobba (``docs/rules/chkobba.md``)."""

    name = "chkobba"

    def check_options(self, options: Json) -> Json:
        """``{"seats": 2|4, "target": 11|21|31, "best_of": 1|3|5}``; raises :class:`GameError`."""
        try:
            return Options.from_json(options).to_json()
        except RuleError as e:
            raise GameError(e.code, e.message) from None

    def seats(self, options: Json) -> int:
        """2 or 4 (R4)."""
        return int(options["seats"])

    def teams(self, options: Json) -> bool:
        """2v2: players choose a side (R5)."""
        return int(options["seats"]) == 4

    def replay_steps(self, record: Json) -> list[Json]:
        """Step a record in one pass (see :meth:`Game.replay_steps`): the engine's events and
        :func:`dineri.engine.summary` after each accepted action. Raises :class:`GameError`."""
        try:
            rec = engine.load_record(record)
        except RecordError as e:
            raise GameError("malformed", str(e)) from None
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
        extra = {"pending_decks": [_deck_codes(d) for d in parsed]} if parsed else {}
        rec = engine.MatchRecord(options=opts, first_dealer=first_dealer, decks=(), actions=(),
                                 players=tuple(players), fairness=(), extra=extra)
        return ChkobbaMatch(engine.new_match(opts, first_dealer), rec).add_deck()

    def action_models(self) -> dict[str, type[Any]]:
        """The models of :mod:`dineri.games.chkobba_actions`."""
        from dineri.games.chkobba_actions import ACTION_MODELS

        return dict(ACTION_MODELS)

    def event_models(self) -> dict[str, type[Any]]:
        """The models of :mod:`dineri.games.chkobba_events`."""
        from dineri.games.chkobba_events import EVENT_MODELS

        return dict(EVENT_MODELS)

    def load(self, record: Json) -> ChkobbaMatch:
        """Replay a stored record (all its decks are already in it). Raises :class:`GameError`."""
        try:
            rec = engine.load_record(record)
        except RecordError as e:
            raise GameError("malformed", str(e)) from None
        rep = engine.replay(rec)
        if rep.error is not None:
            raise GameError(rep.error["code"], f"stored record refused at action {rep.error['index']}")
        return ChkobbaMatch(rep.state, rec)
