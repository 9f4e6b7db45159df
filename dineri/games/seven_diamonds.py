"""Seven Diamonds behind the games interface v2, adapting :mod:`dineri.seven_diamonds` (S1–S16).

The match keeps the engine state and the record (``match-record-seven-diamonds.md``) side by
side; every accepted action is appended to the record exactly as the engine writes it. Decks are
shuffled securely (:func:`dineri.fairness.shuffled`) and committed to (a ``commitment`` event)
before they are dealt; decks and salts are revealed only when the match is over.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from dineri import seven_diamonds as sd
from dineri.fairness import commit_codes, shuffled
from dineri.games import common
from dineri.games.base import GameError, Json

_FULL_CODES = [sd.CODE[c] for c in sd.FULL_DECK]


def _check_form(action: object) -> None:
    """A client action must be exactly one of ``seven_diamonds_actions``' models (see
    :func:`~dineri.games.common.check_form`; an unknown type's message lists the known ones).
    Raises :class:`GameError` ``malformed``."""
    from dineri.games.seven_diamonds_actions import ACTION_MODELS

    common.check_form(action, ACTION_MODELS, list_types=True)


def _parse_deck(deck: object) -> tuple[int, ...]:
    """A deck of 32 card codes (S1) as engine cards; :class:`GameError` ``malformed``."""
    return common.malformed_on(sd.RecordError, sd.parse_deck, deck, 0)


@dataclass(frozen=True, slots=True)
class SevenDiamondsMatch(common.RecordedMatch):
    """An immutable Seven Diamonds match: the engine ``state`` and the ``record_`` that rebuilds it.

    Phases: shuffle (the next round needs its deck, S4), bidding, play, over (the match won,
    S16, or forfeited)."""

    state: sd.MatchState
    record_: sd.MatchRecord

    @property
    def seats(self) -> int:
        """4 (S2)."""
        return self.state.seats

    def add_deck(self, deck: list[str] | None = None) -> tuple[SevenDiamondsMatch, list[Json]]:
        """Supply the next deck (a secure shuffle unless ``deck``, 32 card codes, is given) and
        deal it (S4). Returns the new match and the events ``commitment`` (``deck``: the 0-based
        index) then ``deal``. Raises :class:`GameError` ``malformed`` for a bad deck."""
        rec = self.record_
        deck, extra = common.next_deck(rec.extra, deck)
        cards = _parse_deck(shuffled(_FULL_CODES) if deck is None else deck)
        fair = commit_codes([sd.CODE[c] for c in cards])
        new_rec = replace(rec, decks=(*rec.decks, cards),
                          fairness=(*(rec.fairness or ()), sd.Fairness(fair.salt, fair.commitment)),
                          extra=extra)
        try:
            state = sd.add_deck(self.state, cards)
        except ValueError as e:
            raise GameError("malformed", str(e)) from None
        events = [common.commitment_event(len(rec.decks), fair.commitment)]
        if state.phase == "bidding" and self.state.phase == "shuffle":
            events.append(sd.deal_event(state))
        return SevenDiamondsMatch(state, new_rec), events

    def apply(self, seat: int, action: Json, *, auto: bool = False) -> tuple[SevenDiamondsMatch, list[Json]]:
        """Apply a client action object (``bid``/``play``/``pass``/``forfeit`` without ``seat`` and
        ``auto``) for ``seat``. Raises :class:`GameError` with the record page's codes, in its
        check order (``malformed`` first, then phase, seat and rules); nothing changes then."""
        _check_form(action)
        raw = common.record_form(action, seat, auto)
        act = common.refused_on(sd.RuleError, sd.action_from_json, raw)
        state, events = common.refused_on(sd.RuleError, sd.apply, self.state, act)
        rec = self.record_.with_action(act)
        if state.phase == "over":
            rec = replace(rec, result=sd.Replay(state, None, len(rec.actions)).to_json(),
                          extra=common.without_pending(rec.extra))
        return SevenDiamondsMatch(state, rec), events

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
        return common.action_docs(sd.legal_actions(self.state, seat), sd.action_to_json)

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

    def result(self) -> Json | None:
        """Once over: ``reason`` (won/forfeit), ``winner`` (side), ``ranks`` (1 for the winning
        side's seats, 2 for the others), ``scores`` per side, ``forfeited`` (a seat or null)."""
        st = self.state
        if st.phase != "over" or st.winner is None:
            return None
        return {"reason": "forfeit" if st.forfeited is not None else "won", "winner": st.winner,
                "ranks": [1 if seat % 2 == st.winner else 2 for seat in range(4)],
                "scores": list(st.scores), "forfeited": st.forfeited}


class SevenDiamondsGame(common.RecordedGame):
    """Seven Diamonds (``docs/rules/seven-diamonds.md``): four players, two sides, to 500."""

    name = "seven_diamonds"
    actions_module = "dineri.games.seven_diamonds_actions"
    events_module = "dineri.games.seven_diamonds_events"

    def check_options(self, options: Json) -> Json:
        """``{"seats": 4, "target": 500}`` (S2, S16): an absent key takes that value; any other
        value, type (``4.0``, ``true``) or key is :class:`GameError` ``malformed``."""
        if not isinstance(options, dict):
            raise GameError("malformed", "options must be an object")
        given = {"seats": 4, "target": 500, **options}
        return common.refused_on(sd.RuleError, sd.Options.from_json, given).to_json()

    def options_schema(self) -> Json:
        """``seats`` 4 and ``target`` 500 (S2, S16), each optional, no other key."""
        from dineri.seven_diamonds.state import SEATS, TARGET

        return {"type": "object", "additionalProperties": False,
                "properties": {"seats": {"type": "integer", "enum": [SEATS]},
                               "target": {"type": "integer", "enum": [TARGET]}}}

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
        rec = sd.MatchRecord(options=opts, first_dealer=first_dealer, decks=(), actions=(),
                             players=tuple(players), fairness=(),
                             extra=common.pending_extra([sd.CODE[c] for c in d] for d in parsed))
        return SevenDiamondsMatch(sd.new_match(opts, first_dealer), rec).add_deck()

    def load(self, record: Json) -> SevenDiamondsMatch:
        """Replay a stored record (its decks are in it). Raises :class:`GameError`."""
        rec = self._record(record)
        rep = sd.replay(rec)
        common.check_replay(rep.error)
        return SevenDiamondsMatch(rep.state, rec)

    def replay_steps(self, record: Json) -> list[Json]:
        """Step a record in one pass (:meth:`Game.replay_steps`): the engine's events and summary
        after each accepted action. Raises :class:`GameError` ``malformed``."""
        return sd.replay_steps(self._record(record))

    @staticmethod
    def _record(record: Json) -> sd.MatchRecord:
        return common.malformed_on(sd.RecordError, sd.load_record, record)
