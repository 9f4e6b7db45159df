"""Determinization: full Chkobba worlds consistent with one seat's knowledge (R7–R25).

:func:`determinize` draws the cards the seat has not seen (:meth:`SeatInfo.unseen`) uniformly
into the other seats' hands (beside the cards it knows they hold), the captured piles it does
not know (only without history) and the pack, in a random order that the later deals follow
(R11). Everything else (table, its own hand, every captured card it saw, scores, window, redeal
flags) is copied from the :class:`~dineri.players.chkobba.info.SeatInfo`, which is built from
the seat's JSON alone: a world never holds anything the seat could not know except these draws.
"""

from __future__ import annotations

from collections.abc import Callable

from dineri.players.chkobba.captures import captures
from dineri.players.chkobba.cards import KEY, STAT
from dineri.players.chkobba.info import SeatInfo
from dineri.players.chkobba.sim import CHOICE, PHASE_NAMES, Sim

Random = Callable[[], float]


class Inconsistent(ValueError):
    """The seat's knowledge does not add up (counts disagree): no world can be drawn."""


def _could_capture(hand: list[int], keys: list[int]) -> bool:
    # Would a seat holding ``hand`` have had a capture on one of the tables it laid on?
    for key in keys:
        entry = captures(key)
        for c in hand:
            if entry[c >> 2]:
                return True
    return False


def determinize(info: SeatInfo, rnd: Random, infer: int = 0) -> Sim:
    """A :class:`Sim` in phase play, redeal vote or cut choice, drawn consistently with ``info``.

    ``infer`` > 0 also reads the other seats' play, assuming they capture whenever they can: a
    seat that laid a card without capturing held no card that could capture there
    (:attr:`SeatInfo.laid_on`); up to ``infer`` draws are tried for hands that agree, else the
    last draw is kept (a player may lay on purpose). Only public events feed it.

    Raises :class:`Inconsistent` when the counts of hidden cards do not match the unseen cards
    (a view and events that contradict each other), ``ValueError`` for another phase.
    """
    phase = PHASE_NAMES.index(info.phase)
    n = info.seats
    s = Sim(n, info.target, info.best_of, info.dealer)
    s.game, s.round, s.scores, s.games_won = info.game, info.round, list(info.scores), list(info.games_won)
    unseen = info.unseen()
    keys = [rnd() for _ in range(40)]
    unseen.sort(key=keys.__getitem__)
    if phase == CHOICE:
        # R8: the drawn card is on top of the cut pack; the rest is unknown to everyone.
        if info.drawn is None:
            raise Inconsistent("a cut choice without a drawn card")
        s.pack = [info.drawn, *(c for c in unseen if c != info.drawn)]
        s.pos, s.drawn, s.phase, s.turn = 1, info.drawn, CHOICE, s.cutter
        return s
    if info.phase not in ("play", "redeal_vote"):
        raise ValueError(f"no world to draw in phase {info.phase!r}")
    tries = max(1, infer) if info.laid_on else 1
    for attempt in range(tries):
        if attempt:
            keys = [rnd() for _ in range(40)]
            unseen.sort(key=keys.__getitem__)
        hands: list[list[int]] = []
        at = 0
        agrees = True
        for seat in range(n):
            if seat == info.seat:
                hands.append(list(info.hand))
                continue
            mine = list(info.known.get(seat, []))
            need = info.hand_sizes[seat] - len(mine)
            if need < 0:
                raise Inconsistent(f"seat {seat} holds fewer cards than it is known to hold")
            hand = mine + unseen[at:at + need]
            if infer and agrees and seat in info.laid_on and _could_capture(hand, info.laid_on[seat]):
                agrees = False
            hands.append(hand)
            at += need
        if agrees:
            break
    stats = [0, 0]
    for side in (0, 1):
        for c in info.captured[side]:
            stats[side] += STAT[c]
        missing = info.captured_count[side] - len(info.captured[side])
        for c in unseen[at:at + missing]:
            stats[side] += STAT[c]
        at += max(missing, 0)
    pack = unseen[at:]
    if len(pack) != info.deck_left or len(info.hand) != info.hand_sizes[info.seat]:
        raise Inconsistent(f"{len(pack)} unseen cards left for a pack of {info.deck_left}")
    s.hands, s.pack, s.pos = hands, pack, 0
    s.table = sorted(info.table)
    s.key = sum(KEY[c] for c in s.table)
    s.stats, s.chkobbas, s.last = stats, list(info.chkobbas), info.last_capturer
    s.window = info.window if info.window in s.table else -1
    s.started, s.first_deal, s.refused = info.started, info.first_deal, list(info.refused)
    s.in_hands = sum(len(h) for h in hands)
    s.turn = info.turn if info.turn is not None else s.cutter
    s.phase = phase
    if info.phase == "redeal_vote":
        s.pending = info.pending if info.pending is not None else -1
        # The view's turn in a vote is the answering opponent; the seat to play is the cutter (R12).
        s.turn = s.cutter
    return s
