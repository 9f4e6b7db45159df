"""Fast playouts: the rest of a round with random legal plays (R11, R13–R25).

:func:`random_round_plays` is the simulator's inner loop, written for speed: it plays every
remaining card of the round (claims included) with each action drawn uniformly among the legal
ones of the seat to play (the same choice as the engine benchmark), touching the
:class:`~dineri.players.chkobba.sim.Sim` fields directly. It agrees with :meth:`Sim.legal` and
:meth:`Sim.apply` (``tests/players/test_playout.py`` replays its actions through both, and
through the engine). :func:`greedy_round_plays` is the search's default rollout: mostly the
capture worth most, sometimes a random legal action.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from itertools import islice

from dineri.players.chkobba.captures import CAPTURES, build
from dineri.players.chkobba.cards import BIT, KEY, STAT
from dineri.players.chkobba.sim import (
    ACCEPT,
    CHOICE,
    CLAIM,
    CUT_PHASE,
    KEEP,
    PLAY,
    REFUSE,
    SHUFFLE,
    VOTE,
    Sim,
)
from dineri.players.chkobba.sim import TABLE as TABLE_CHOICE

Random = Callable[[], float]
#: NEXT[n][seat]: the seat after ``seat`` at an ``n``-seat table (R4).
NEXT = {2: (1, 0), 4: (1, 2, 3, 0)}
#: COUNT_AT[card]: where a capture entry holds the count of that card's actions (10 + rank).
COUNT_AT: tuple[int, ...] = tuple(10 + (c >> 2) for c in range(40))


def random_round_plays(s: Sim, rnd: Random, log: list[int] | None = None) -> None:
    """Play ``s`` (phase play, no vote pending, a card played or no redeal wanted) to the end of
    the round: uniform random legal actions. ``rnd`` is a ``random.random``; ``log``, when given,
    receives each action int (the seat is always the one to play).

    One draw per action: ``rnd() * count`` over the seat's actions in :meth:`Sim.legal`'s order
    (claims, then per hand card its lay and its captures), the counts read from the capture
    memo's entry (``entry[10 + rank]``), so nothing is listed."""
    assert s.phase == PLAY
    hands, table, stats, chk = s.hands, s.table, s.stats, s.chkobbas
    n, pack, pos, turn, key, win, last = s.n, s.pack, s.pos, s.turn, s.key, s.window, s.last
    end = len(pack)
    in_hands = s.in_hands
    get = CAPTURES.get
    nxt = NEXT[n]
    cnt = COUNT_AT
    d = -1
    while True:
        hand = hands[turn]
        entry = get(key) or build(key)
        size = len(hand)
        # na, nb, total: the actions of the first card, of the first two, of the whole hand.
        if size == 3:
            a, b, d = hand
            na = entry[cnt[a]]
            nb = na + entry[cnt[b]]
            total = nb + entry[cnt[d]]
        elif size == 2:
            a, b = hand
            na = entry[cnt[a]]
            nb = total = na + entry[cnt[b]]
        else:
            a = b = hand[0]
            na = nb = total = entry[cnt[a]]
        if win >= 0:
            # R20: the claims come first among the legal actions; drawn with the plays, uniformly.
            kb = key - KEY[win]
            claims = (get(kb) or build(kb))[win >> 2]
            nc = len(claims)
            k = rnd() * (nc + total)
            if k < nc:
                # Positions are on the table before the lay: shift those at or past the laid card.
                win_at = table.index(win)
                taken = BIT[win]
                for i in claims[int(k)]:
                    taken |= BIT[table[i + (i >= win_at)]]
                if log is not None:
                    log.append(CLAIM | win | (taken ^ BIT[win]) << 6)
                side = turn & 1
                st = 0
                kept = []
                for x in table:
                    if BIT[x] & taken:
                        st += STAT[x]
                        key -= KEY[x]
                    else:
                        kept.append(x)
                table = kept
                stats[side] += st
                last = side
                win = -1
                if not table:
                    chk[side] += 1  # R23: a claim is never the round's last card
                continue
            k -= nc
        else:
            k = rnd() * total
        # k in [0, total): the card, then k in [0, its actions): 0 lays it, j >= 1 its j-th capture.
        # m: the chosen card's actions (m > 1: it could capture, so laying it opens a window, R19).
        if k < na:
            c, m = a, na
            del hand[0]
        elif k < nb:
            c, m = b, nb - na
            k -= na
            del hand[1]
        else:
            c, m = d, total - nb
            k -= nb
            del hand[2]
        in_hands -= 1
        if k >= 1:
            side = turn & 1
            st = STAT[c]
            if log is None:
                for i in entry[c >> 2][int(k) - 1]:  # positions, descending
                    x = table.pop(i)
                    st += STAT[x]
                    key -= KEY[x]
            else:
                taken = 0
                for i in entry[c >> 2][int(k) - 1]:
                    x = table.pop(i)
                    st += STAT[x]
                    key -= KEY[x]
                    taken |= BIT[x]
                log.append(c | taken << 6)
            stats[side] += st
            last = side
            win = -1
            if not table and (in_hands or pos < end):
                chk[side] += 1  # R23, R24
        else:
            if log is not None:
                log.append(c)
            win = c if m > 1 else -1  # R19
            insort(table, c)
            key += KEY[c]
        turn = nxt[turn]
        if not in_hands:
            if pos == end:
                break
            cutter = (s.dealer + 1) % n
            for i in range(n):
                hands[(cutter + i) % n] = pack[pos:pos + 3]
                pos += 3
            in_hands = 3 * n
            s.first_deal = False
    s.table, s.key, s.window, s.turn, s.last, s.pos, s.in_hands = table, key, win, turn, last, pos, 0
    s.started = True
    s.end_round()


#: The simulator's 40 cards, in order.
CARDS: tuple[int, ...] = tuple(range(40))


def shuffled(rnd: Random, cards: Sequence[int] = CARDS) -> list[int]:
    """A uniformly random order of ``cards`` (at most 40; sorting by independent random keys,
    drawn in C by ``islice(iter(rnd, 2.0), 40)``: ``rnd`` never returns 2.0; a tie has
    probability below 2**-40): several times cheaper than ``random.shuffle``."""
    keys = list(islice(iter(rnd, 2.0), 40))
    return sorted(cards, key=keys.__getitem__)


def random_round(s: Sim, rnd: Random) -> None:
    """From a cut phase, play the round with random legal actions of the seat to act (the cut,
    keep or table, redeal proposals and answers, then :func:`random_round_plays`); a redeal
    accepted takes a new random shuffle. Ends at the round's end (phase shuffle or over)."""

    rounds = len(s.results)
    while len(s.results) == rounds:
        phase = s.phase
        if phase == SHUFFLE:
            s.add_deck(shuffled(rnd))
        elif phase == CUT_PHASE:
            s.cut(int(rnd() * 40))
        elif phase == CHOICE:
            s.choose(rnd() < 0.5)
        elif phase == VOTE:
            s.apply(s.to_act(), ACCEPT if rnd() < 0.5 else REFUSE)
        elif not s.started and s.redeal_possible():
            legal = s.legal(s.turn)
            s.apply(s.turn, legal[int(rnd() * len(legal))])
        else:
            random_round_plays(s, rnd)


#: WEIGHT[card]: greedy's worth of a card (R26): 7♦ ≫ sevens > sixes > diamonds > any card.
WEIGHT: tuple[float, ...] = tuple(
    1.0 + 20.0 * (c == 24) + 6.0 * (c >> 2 == 6) + 3.0 * (c >> 2 == 5) + 2.5 * (c & 3 == 0) for c in range(40)
)
#: LAY_COST[card]: greedy lays the card of least (worth, value).
LAY_COST: tuple[float, ...] = tuple(WEIGHT[c] * 16 + (c >> 2) for c in range(40))


def greedy_round_plays(s: Sim, rnd: Random, eps: float = 0.1, log: list[int] | None = None) -> None:
    """Play ``s`` (phase play) to the end of the round like the greedy player, with a uniformly
    random card and option instead one time in ``1 / eps``: claim the best missed capture
    (R20), else take the capture worth most (a chkobba first, R23, R24), else lay the card worth
    least. The search's default rollout: opponents that capture what they see. ``log`` as for
    :func:`random_round_plays`."""
    assert s.phase == PLAY
    hands, stats, chk = s.hands, s.stats, s.chkobbas
    n, pack, pos, turn, key, win, last = s.n, s.pack, s.pos, s.turn, s.key, s.window, s.last
    table = s.table
    in_hands = s.in_hands
    get = CAPTURES.get
    nxt = NEXT[n]
    W = WEIGHT
    while True:
        hand = hands[turn]
        if win >= 0:
            kb = key - KEY[win]
            claims = (get(kb) or build(kb))[win >> 2]
            win_at = table.index(win)
            best_w, best_o = -1.0, claims[0]
            for o in claims:
                w = 0.0
                for i in o:
                    w += W[table[i + (i >= win_at)]]
                if w > best_w:
                    best_w, best_o = w, o
            taken = BIT[win]
            for i in best_o:
                taken |= BIT[table[i + (i >= win_at)]]
            if log is not None:
                log.append(CLAIM | win | (taken ^ BIT[win]) << 6)
            side = turn & 1
            st = 0
            kept = []
            for x in table:
                if BIT[x] & taken:
                    st += STAT[x]
                    key -= KEY[x]
                else:
                    kept.append(x)
            table = kept
            stats[side] += st
            last = side
            win = -1
            if not table:
                chk[side] += 1
        entry = get(key) or build(key)
        options: tuple[tuple[int, ...], ...] = ()
        option: tuple[int, ...] | None = None
        if eps and rnd() < eps:
            c = hand[int(rnd() * len(hand))]
            options = entry[c >> 2]
            k = int(rnd() * (len(options) + 1))
            option = options[k - 1] if k else None
        else:
            best = -1.0
            c = -1
            size = len(table)
            final = in_hands == 1 and pos == len(pack)
            for h in hand:
                opts = entry[h >> 2]
                if opts:
                    wh = W[h]
                    for o in opts:
                        w = wh
                        for i in o:
                            w += W[table[i]]
                        if len(o) == size and not final:
                            w += 100.0
                        if w > best:
                            best, c, option = w, h, o
            if c < 0:
                c = min(hand, key=LAY_COST.__getitem__)
                options = entry[c >> 2]
        hand.remove(c)
        in_hands -= 1
        if option is not None:
            side = turn & 1
            st = STAT[c]
            taken = 0
            for i in option:
                x = table.pop(i)
                st += STAT[x]
                key -= KEY[x]
                taken |= BIT[x]
            if log is not None:
                log.append(c | taken << 6)
            stats[side] += st
            last = side
            win = -1
            if not table and (in_hands or pos < len(pack)):
                chk[side] += 1
        else:
            if log is not None:
                log.append(c)
            win = c if options else -1
            insort(table, c)
            key += KEY[c]
        turn = nxt[turn]
        if not in_hands:
            if pos == len(pack):
                break
            cutter = (s.dealer + 1) % n
            for i in range(n):
                hands[(cutter + i) % n] = pack[pos:pos + 3]
                pos += 3
            in_hands = 3 * n
            s.first_deal = False
    s.table, s.key, s.window, s.turn, s.last, s.pos, s.in_hands = table, key, win, turn, last, pos, 0
    s.started = True
    s.end_round()


def greedy_action(s: Sim, seat: int) -> int:
    """The greedy player's action for ``seat`` now, as an action int (the opponent model of the
    search): the best claim (R20), else the capture worth most with a chkobba first (R23, R24),
    else the lay worth least; keep a drawn card worth more than a plain card (R9); refuse a
    redeal (R10). ``seat`` must have a legal action."""
    legal = s.legal(seat)
    if s.phase == CHOICE:
        return KEEP if WEIGHT[s.drawn] > 1.0 else TABLE_CHOICE
    if s.phase == VOTE:
        return REFUSE
    best, best_w = -1, -1.0
    final = s.in_hands == 1 and s.pos == len(s.pack)
    size = len(s.table)
    lay, lay_cost = -1, 1e9
    for a in legal:
        if a < 0:
            continue
        c = a & 63
        taken = (a & (CLAIM - 1)) >> 6
        if a >= CLAIM:
            w = 1000.0 + W_OF(taken | BIT[c])  # always claim
        elif taken:
            w = W_OF(taken | BIT[c])
            if taken.bit_count() == size and not final:
                w += 100.0
        else:
            if LAY_COST[c] < lay_cost:
                lay, lay_cost = a, LAY_COST[c]
            continue
        if w > best_w:
            best, best_w = a, w
    return best if best >= 0 else lay


def W_OF(mask: int) -> float:
    """The summed :data:`WEIGHT` of a card set."""
    w = 0.0
    while mask:
        low = mask & -mask
        w += WEIGHT[low.bit_length() - 1]
        mask ^= low
    return w
