"""What one Chkobba seat knows, read from its view and the public events (R7–R25).

:func:`seat_info` turns the seat's JSON (``seat_view`` and the public events since the match
started, or at least since the current deal's cut) into a :class:`SeatInfo`: its hand, the
table, every card captured or played in this deal by side, the cards it knows another seat
holds (the drawn card the cutter kept, R9, until played), the open missed-capture window (R19,
which every seat can work out: nobody is told), the redeal flags (R10), the scores. Nothing in
it comes from anywhere but that JSON. :func:`legal_actions` lists the seat's action objects
from it, as the server would.

If the events do not cover the current deal (a bot started mid-deal), the captured cards are
unknown beyond their count (the view's ``captured``): the determinizer then draws them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dineri.players.base import Json, PlayerError, check_json
from dineri.players.chkobba.captures import captures
from dineri.players.chkobba.cards import BY_CODE, CODE, KEY, cards_of
from dineri.players.chkobba.sim import CLAIM, KEEP, PROPOSE, TABLE

_VIEW_KEYS = {"phase", "options", "game", "round", "dealer", "turn", "table", "hand_sizes", "deck_left",
              "drawn", "captured", "chkobbas", "chkobba_cards", "pending_redeal", "scores", "games_won",
              "rounds", "winner", "seat", "side", "hand"}


def _card(code: object) -> int:
    if not isinstance(code, str) or code.upper() not in BY_CODE:
        raise PlayerError(f"not a card code: {str(code)[:8]!r}")
    return BY_CODE[code.upper()]


def _cards(codes: object) -> list[int]:
    if not isinstance(codes, list):
        raise PlayerError("expected a list of card codes")
    return [_card(c) for c in codes]


@dataclass
class SeatInfo:
    """One seat's knowledge (simulator cards, :mod:`dineri.players.chkobba.cards`)."""

    seat: int
    seats: int
    target: int
    best_of: int
    phase: str
    game: int
    round: int
    dealer: int
    turn: int | None
    hand: list[int]
    table: list[int]
    hand_sizes: list[int]
    deck_left: int
    drawn: int | None
    captured_count: list[int]
    chkobbas: list[int]
    pending: int | None
    scores: list[int]
    games_won: list[int]
    #: cards known captured in this deal, per side (complete when ``history`` is True)
    captured: list[list[int]] = field(default_factory=lambda: [[], []])
    #: cards another seat is known to hold: {seat: [cards]} (the kept drawn card, R9)
    known: dict[int, list[int]] = field(default_factory=dict)
    last_capturer: int = -1
    window: int = -1
    started: bool = False
    first_deal: bool = True
    refused: list[bool] = field(default_factory=lambda: [False, False])
    #: True when the events cover the current deal from its cut
    history: bool = False
    #: the table in the view's order (captures are named in it)
    table_order: list[int] = field(default_factory=list)
    #: per seat, the table keys on which it laid a card without capturing since the cards it
    #: holds now were dealt (it then held no card that could capture there, if it always captures)
    laid_on: dict[int, list[int]] = field(default_factory=dict)

    @property
    def side(self) -> int:
        """The seat's side (R5)."""
        return self.seat % 2

    def unseen(self) -> list[int]:
        """Cards this seat has not seen in this deal and does not know the place of: they are in
        other hands, the pack, or (without history) unknown captures."""
        seen = set(self.hand) | set(self.table) | set(self.captured[0]) | set(self.captured[1])
        for cards in self.known.values():
            seen |= set(cards)
        return [c for c in range(40) if c not in seen]


def seat_info(view: Json, events: Sequence[Json]) -> SeatInfo:
    """Read a seat's knowledge from its ``seat_view`` JSON and the public events it saw.

    Raises :class:`PlayerError` for anything that is not JSON or not a Chkobba seat view
    (e.g. a ``summary`` holding every hand is refused: a player never sees other hands).
    """
    check_json(view, "view")
    evs = list(events)
    check_json(evs, "events")
    if not isinstance(view, dict) or "hand" not in view or "seat" not in view:
        raise PlayerError("the view must be a seat view (with 'seat' and 'hand')")
    extra = set(view) - _VIEW_KEYS
    if extra:
        raise PlayerError(f"not a seat view: unexpected key(s) {sorted(extra)[:3]}")
    try:
        opts = view["options"]
        seats = int(opts["seats"])
        pending = view.get("pending_redeal")
        dealer = int(view.get("dealer", seats - 1))
        table_order = _cards(view["table"])
        info = SeatInfo(
            seat=int(view["seat"]), seats=seats, target=int(opts["target"]), best_of=int(opts["best_of"]),
            phase=str(view["phase"]), game=int(view.get("game", 1)), round=int(view.get("round", 1)),
            dealer=dealer, turn=view.get("turn"), hand=sorted(_cards(view["hand"])),
            table=sorted(table_order), hand_sizes=[int(x) for x in view["hand_sizes"]],
            deck_left=int(view["deck_left"]),
            drawn=_card(view["drawn"]) if view.get("drawn") else None,
            captured_count=[int(x) for x in view.get("captured", [0, 0])],
            chkobbas=[int(x) for x in view.get("chkobbas", [0, 0])],
            pending=int(pending["proposer"]) if pending else None,
            scores=[int(x) for x in view.get("scores", [0, 0])],
            games_won=[int(x) for x in view.get("games_won", [0, 0])],
            table_order=table_order,
        )
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, PlayerError):
            raise
        raise PlayerError(f"not a Chkobba seat view: {e!r}") from None
    if seats not in (2, 4) or not 0 <= info.seat < seats:
        raise PlayerError("bad seat or seat count")
    _follow_deal(info, evs)
    return info


def _follow_deal(info: SeatInfo, events: list[Json]) -> None:
    """Replay the public events of the current deal (from its last ``cut``) into ``info``."""
    start = None
    for i in range(len(events) - 1, -1, -1):
        kind = events[i].get("type")
        if kind == "cut":
            start = i
            break
        if kind in ("round_over", "match_over"):
            break
    if start is None or info.phase in ("shuffle", "cut", "over"):
        return
    n = info.seats
    table: list[int] = []
    captured: list[list[int]] = [[], []]
    known: dict[int, list[int]] = {}
    last, window, started, first_deal = -1, -1, False, True
    refused = [False, False]
    proposer = None
    drawn = None
    laid_on: dict[int, list[int]] = {}
    try:
        for ev in events[start:]:
            kind = ev.get("type")
            if kind == "cut":
                drawn = _card(ev["drawn"])
            elif kind == "deal":
                table = sorted(_cards(ev["table"]))
                laid_on = {}
                if ev.get("choice") == "keep" and drawn is not None:
                    known[(info.dealer + 1) % n] = [drawn]
            elif kind == "play":
                seat, card = int(ev["seat"]), _card(ev["card"])
                started = True
                if card in known.get(seat, []):
                    known[seat].remove(card)
                take = _cards(ev.get("capture") or [])
                key = sum(KEY[c] for c in table)
                if take:
                    for c in take:
                        table.remove(c)
                    captured[seat % 2] += [card, *take]
                    last, window = seat % 2, -1
                else:
                    window = card if captures(key)[card >> 2] else -1  # R19
                    laid_on.setdefault(seat, []).append(key)
                    table = sorted([*table, card])
            elif kind == "claim":
                seat, card = int(ev["seat"]), _card(ev["card"])
                take = [card, *_cards(ev.get("capture") or [])]
                for c in take:
                    table.remove(c)
                captured[seat % 2] += take
                last, window = seat % 2, -1
            elif kind == "deal_more":
                first_deal = False
                laid_on = {}
            elif kind == "redeal_proposed":
                proposer = int(ev["seat"])
            elif kind == "redeal_answered" and not ev.get("accept") and proposer is not None:
                refused[proposer % 2] = True
    except (KeyError, TypeError, ValueError):
        return  # events we cannot follow: no history (the determinizer draws what is unknown)
    if sorted(table) != info.table or [len(captured[0]), len(captured[1])] != info.captured_count:
        return  # the events miss part of the deal
    info.captured, info.known, info.last_capturer = captured, {s: c for s, c in known.items() if c}, last
    info.window = window if info.phase == "play" else -1
    info.started, info.first_deal, info.refused, info.history = started, first_deal, refused, True
    info.laid_on = {seat: keys for seat, keys in laid_on.items() if seat != info.seat}


# --- the seat's legal action objects ------------------------------------------------------------


def redeal_possible(info: SeatInfo) -> bool:
    """R10: the first deal, no card played, and 3+ table cards of one value."""
    if info.phase != "play" or info.started or not info.first_deal:
        return False
    key = sum(KEY[c] for c in info.table)
    return any((key >> (3 * r) & 7) >= 3 for r in range(10))


def sim_actions(info: SeatInfo) -> list[int]:
    """The seat's actions now as simulator action ints (:mod:`dineri.players.chkobba.sim`)."""
    out: list[int] = []
    if info.phase == "play":
        if info.turn == info.seat:
            table = info.table
            if info.window >= 0 and info.window in table:
                before = [c for c in table if c != info.window]
                for pos in captures(sum(KEY[c] for c in before))[info.window >> 2]:
                    m = 0
                    for i in pos:
                        m |= 1 << before[i]
                    out.append(CLAIM | info.window | m << 6)
            entry = captures(sum(KEY[c] for c in table))
            for c in info.hand:
                out.append(c)
                for pos in entry[c >> 2]:
                    m = 0
                    for i in pos:
                        m |= 1 << table[i]
                    out.append(c | m << 6)
        if redeal_possible(info) and not info.refused[info.side]:
            out.append(PROPOSE)
    elif info.phase == "cut_choice" and info.turn == info.seat:
        out += [KEEP, TABLE]
    return out


def action_json(action: int, order: Sequence[int] = ()) -> Json:
    """The action object (``docs/protocol.md``) of a simulator action (no cut, no answer);
    captured cards are named in the order of ``order`` (the view's table), else by value."""
    if action == KEEP:
        return {"type": "keep"}
    if action == TABLE:
        return {"type": "table"}
    if action == PROPOSE:
        return {"type": "propose_redeal"}
    card = CODE[action & 63]
    cards = cards_of((action & (CLAIM - 1)) >> 6)
    if order:
        rank = {c: i for i, c in enumerate(order)}
        cards.sort(key=lambda c: rank.get(c, 99))
    taken = [CODE[c] for c in cards]
    if action >= CLAIM:
        return {"type": "claim", "card": card, "capture": taken}
    return {"type": "play", "card": card, "capture": taken}


def action_key(doc: Json) -> tuple[object, ...]:
    """A comparable form of an action object: type, card, captured cards as a set, accept."""
    cap = doc.get("capture") or []
    return (doc.get("type"), str(doc.get("card", "")).upper(), frozenset(str(c).upper() for c in cap),
            doc.get("accept"))


def legal_actions(info: SeatInfo) -> list[Json]:
    """Every action object the seat may send now, from its knowledge alone (R8–R22): a cut;
    keep or table; claims, plays and a redeal proposal; redeal answers."""
    if info.phase == "cut":
        return [{"type": "cut"}] if info.turn == info.seat else []
    if info.phase == "redeal_vote":
        if info.pending is not None and info.pending % 2 != info.side:
            return [{"type": "answer_redeal", "accept": True}, {"type": "answer_redeal", "accept": False}]
        return []
    return [action_json(a, info.table_order) for a in sim_actions(info)]
