"""Seven Diamonds behind the games interface v2, adapting :mod:`dineri.seven_diamonds` (S1–S16).

The match keeps the engine state and the record (``match-record-seven-diamonds.md``) side by
side; every accepted action is appended to the record exactly as the engine writes it. Decks are
shuffled securely (:func:`dineri.fairness.shuffled`) and committed to (a ``commitment`` event)
before they are dealt; decks and salts are revealed only when the match is over.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from dineri import seven_diamonds as sd
from dineri.fairness import commit_codes, shuffled
from dineri.games.base import Game, GameError, GameMatch, Json

_FULL_CODES = [sd.CODE[c] for c in sd.FULL_DECK]


def _check_form(action: object) -> None:
    """A client action must be exactly one of ``seven_diamonds_actions``' models: only its own
    keys, strict JSON types. Raises :class:`GameError` ``malformed``."""
    from pydantic import ValidationError

    from dineri.games.seven_diamonds_actions import ACTION_MODELS

    if not isinstance(action, dict):
        raise GameError("malformed", "an action must be a JSON object")
    kind = action.get("type")
    model = ACTION_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise GameError("malformed", f"unknown action type {str(kind)[:32]!r}; expected one of "
                                     f"{', '.join(ACTION_MODELS)}")
    try:
        model.model_validate(action, strict=True)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise GameError("malformed", f"{where}: {first['msg']}") from None


def _parse_deck(deck: object) -> tuple[int, ...]:
    try:
        return sd.parse_deck(deck, 0)
    except sd.RecordError as e:
        raise GameError("malformed", str(e)) from None


def _without_pending(extra: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in extra.items() if k != "pending_decks"}


@dataclass(frozen=True, slots=True)
class SevenDiamondsMatch(GameMatch):
    """An immutable Seven Diamonds match: the engine ``state`` and the ``record_`` that rebuilds it."""

    state: sd.MatchState
    record_: sd.MatchRecord

    @property
    def seats(self) -> int:
        """4 (S2)."""
        return self.state.seats

    @property
    def phase(self) -> str:
        """The engine phase: shuffle, bidding, play or over."""
        return self.state.phase

    @property
    def over(self) -> bool:
        """True once the match is won (S16) or forfeited."""
        return self.state.phase == "over"

    def needs_deck(self) -> bool:
        """True in phase ``shuffle``: the next round needs its deck (S4)."""
        return self.state.phase == "shuffle"

    def add_deck(self, deck: list[str] | None = None) -> tuple[SevenDiamondsMatch, list[Json]]:
        """Supply the next deck (a secure shuffle unless ``deck``, 32 card codes, is given) and
        deal it (S4). Returns the new match and the events ``commitment`` (``deck``: the 0-based
        index) then ``deal``. Raises :class:`GameError` ``malformed`` for a bad deck."""
        rec = self.record_
        pending = list(rec.extra.get("pending_decks", []))
        if deck is None and pending:
            deck = pending.pop(0)  # testing: a stacked order supplied at the start
        cards = _parse_deck(shuffled(_FULL_CODES) if deck is None else deck)
        fair = commit_codes([sd.CODE[c] for c in cards])
        extra = {**rec.extra, "pending_decks": pending} if pending else _without_pending(rec.extra)
        new_rec = replace(rec, decks=(*rec.decks, cards),
                          fairness=(*(rec.fairness or ()), sd.Fairness(fair.salt, fair.commitment)),
                          extra=extra)
        try:
            state = sd.add_deck(self.state, cards)
        except ValueError as e:
            raise GameError("malformed", str(e)) from None
        events: list[Json] = [{"type": "commitment", "deck": len(rec.decks), "commitment": fair.commitment}]
        if state.phase == "bidding" and self.state.phase == "shuffle":
            events.append(sd.deal_event(state))
        return SevenDiamondsMatch(state, new_rec), events

    def apply(self, seat: int, action: Json, *, auto: bool = False) -> tuple[SevenDiamondsMatch, list[Json]]:
        """Apply a client action object (``bid``/``play``/``pass``/``forfeit`` without ``seat`` and
        ``auto``) for ``seat``. Raises :class:`GameError` with the record page's codes, in its
        check order (``malformed`` first, then phase, seat and rules); nothing changes then."""
        _check_form(action)
        raw: dict[str, Any] = {**action, "seat": seat}
        if auto:
            raw["auto"] = True
        try:
            act = sd.action_from_json(raw)
            state, events = sd.apply(self.state, act)
        except sd.RuleError as e:
            raise GameError(e.code, e.message) from None
        rec = self.record_.with_action(act)
        if state.phase == "over":
            rec = replace(rec, result=sd.Replay(state, None, len(rec.actions)).to_json(),
                          extra=_without_pending(rec.extra))
        return SevenDiamondsMatch(state, rec), events

    def last_action(self) -> Json:
        """The last record action (record form, with ``seat``); raises ``IndexError`` when none."""
        return dict(self.record_.actions[-1])

    def actions_count(self) -> int:
        """How many actions the record holds."""
        return len(self.record_.actions)

    def public_view(self) -> Json:
        """The engine's public view (record page, Views): no hand at all."""
        return sd.public_view(self.state)

    def private_view(self, seat: int) -> Json:
        """``{"seat", "side", "hand"}``: the seat's own cards only. Raises ``ValueError``."""
        return sd.private_view(self.state, seat)

    def summary(self) -> Json:
        """The replay output's state (record page), every hand included: never for a player."""
        return sd.summary(self.state)

    def legal_actions(self, seat: int) -> list[Json]:
        """Every action object ``seat`` may send now (the forfeit last)."""
        out = []
        for act in sd.legal_actions(self.state, seat):
            doc = sd.action_to_json(act)
            doc.pop("seat")
            out.append(doc)
        return out

    def to_act(self) -> int | None:
        """The seat to call or to play; ``None`` when over or waiting for a deck."""
        return self.state.turn if self.state.phase in ("bidding", "play") else None

    def immediate_action(self) -> tuple[int, Json] | None:
        """S10: a seat to play that holds no card that fits has one move, the pass; the server
        makes it at once (``auto``), announcing *jella*, rather than running the clock down."""
        st = self.state
        if st.phase == "play" and st.turn is not None and not sd.legal_cards(st, st.turn):
            return st.turn, {"type": "pass"}
        return None

    def auto_action(self, seat: int) -> Json | None:
        """The turn clock's action: in the bidding ``pass`` (S5–S6); in play the lowest card that
        fits (7 lowest … ace, then ♦ ♥ ♠ ♣), else the pass (S10). ``None`` if not ``seat``'s move."""
        st = self.state
        if self.to_act() != seat:
            return None
        if st.phase == "bidding":
            return {"type": "bid", "call": "pass"}
        cards = sd.legal_cards(st, seat)
        if not cards:
            return {"type": "pass"}
        return {"type": "play", "card": sd.CODE[min(cards, key=lambda c: (sd.RANK[c], c))]}

    def forfeit_action(self) -> Json:
        """``{"type": "forfeit"}``."""
        return {"type": "forfeit"}

    def result(self) -> Json | None:
        """Once over: ``reason`` (won/forfeit), ``winner`` (side), ``ranks`` (1 for the winning
        side's seats, 2 for the others), ``scores`` per side, ``forfeited`` (a seat or null)."""
        st = self.state
        if st.phase != "over" or st.winner is None:
            return None
        return {"reason": "forfeit" if st.forfeited is not None else "won", "winner": st.winner,
                "ranks": [1 if seat % 2 == st.winner else 2 for seat in range(4)],
                "scores": list(st.scores), "forfeited": st.forfeited}

    def rounds(self) -> list[Json]:
        """Every finished round (record page, A finished round)."""
        return [r.to_json() for r in self.state.rounds]

    def record(self) -> Json:
        """The full record document, decks and salts included."""
        return self.record_.to_json()

    def reveal(self) -> Json:
        """Once over: ``{"type": "reveal", "decks": [...], "fairness": [...]}``; ``ValueError`` before."""
        if not self.over:
            raise ValueError("decks are revealed only when the match is over")
        doc = self.record_.to_json()
        return {"type": "reveal", "decks": doc["decks"], "fairness": doc.get("fairness", [])}


class SevenDiamondsGame(Game):
    """Seven Diamonds (``docs/rules/seven-diamonds.md``): four players, two sides, to 500."""

    name = "seven_diamonds"

    def check_options(self, options: Json) -> Json:
        """``{"seats": 4, "target": 500}`` (S2, S16): an absent key takes that value; any other
        value, type (``4.0``, ``true``) or key is :class:`GameError` ``malformed``."""
        if not isinstance(options, dict):
            raise GameError("malformed", "options must be an object")
        try:
            return sd.Options.from_json({"seats": 4, "target": 500, **options}).to_json()
        except sd.RuleError as e:
            raise GameError(e.code, e.message) from None

    def seats(self, options: Json) -> int:
        """4 (S2)."""
        return 4

    def side_of(self, options: Json, seat: int) -> int:
        """``seat % 2``: partners sit opposite (S2)."""
        return seat % 2

    def teams(self, options: Json) -> bool:
        """True: players choose a side when they sit (S2)."""
        return True

    def new_match(self, options: Json, players: list[str], first_dealer: int | None = None,
                  decks: list[list[str]] | None = None) -> tuple[SevenDiamondsMatch, list[Json]]:
        """Start a match: the first dealer at random unless given (S4); the first deck supplied
        at once (from ``decks`` in testing, else a secure shuffle). Returns the match and its
        ``commitment`` and ``deal`` events. Raises :class:`GameError` ``malformed``."""
        opts = sd.Options.from_json(self.check_options(options))
        if first_dealer is None:
            first_dealer = secrets.randbelow(4)
        if type(first_dealer) is not int or not 0 <= first_dealer < 4:
            raise GameError("malformed", "first_dealer must be a seat from 0 to 3")
        if len(players) != 4 or not all(isinstance(p, str) for p in players):
            raise GameError("malformed", "4 player names are needed")
        parsed = [_parse_deck(d) for d in (decks or [])]
        # Testing: supplied orders wait server-side (record key ``pending_decks``, dropped at the
        # end) until each is needed, so a restarted server deals the same stacked decks.
        extra = {"pending_decks": [[sd.CODE[c] for c in d] for d in parsed]} if parsed else {}
        rec = sd.MatchRecord(options=opts, first_dealer=first_dealer, decks=(), actions=(),
                             players=tuple(players), fairness=(), extra=extra)
        return SevenDiamondsMatch(sd.new_match(opts, first_dealer), rec).add_deck()

    def action_models(self) -> dict[str, type[Any]]:
        """The models of :mod:`dineri.games.seven_diamonds_actions`."""
        from dineri.games.seven_diamonds_actions import ACTION_MODELS

        return dict(ACTION_MODELS)

    def event_models(self) -> dict[str, type[Any]]:
        """The models of :mod:`dineri.games.seven_diamonds_events`."""
        from dineri.games.seven_diamonds_events import EVENT_MODELS

        return dict(EVENT_MODELS)

    def load(self, record: Json) -> SevenDiamondsMatch:
        """Replay a stored record (its decks are in it). Raises :class:`GameError`."""
        rec = self._record(record)
        rep = sd.replay(rec)
        if rep.error is not None:
            raise GameError(rep.error["code"], f"stored record refused at action {rep.error['index']}")
        return SevenDiamondsMatch(rep.state, rec)

    def replay_steps(self, record: Json) -> list[Json]:
        """Step a record in one pass (:meth:`Game.replay_steps`): the engine's events and summary
        after each accepted action. Raises :class:`GameError` ``malformed``."""
        return sd.replay_steps(self._record(record))

    @staticmethod
    def _record(record: Json) -> sd.MatchRecord:
        try:
            return sd.load_record(record)
        except sd.RecordError as e:
            raise GameError("malformed", str(e)) from None
