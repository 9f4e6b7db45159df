"""A compact, mutable Chkobba simulator for playouts (R4–R32).

:class:`Sim` plays exactly the rules of :mod:`dineri.engine` (a differential test,
``tests/players/test_differential.py``, checks every action of 100,000 random rounds against
it), but it is built for speed rather than for records: cards are small ints sorted by value
(:mod:`dineri.players.chkobba.cards`), hands and the table are mutable lists, the captured piles
are packed counters, and actions are ints:

- a play: ``card | captured << 6`` (``captured``: the 40-bit set of table cards taken; 0 lays, R13);
- a claim: ``CLAIM | card | captured << 6`` (R20; ``card`` is the laid card claimed);
- :data:`KEEP`, :data:`TABLE` (R9), :data:`PROPOSE`, :data:`ACCEPT`, :data:`REFUSE` (R10),
  and ``CUT - k`` for a cut at ``k`` (R8).

It is not a referee: :meth:`Sim.apply` trusts that the action is one of :meth:`Sim.legal`.
A round's end leaves the match waiting for a deck (:data:`SHUFFLE`) or over (:data:`OVER`);
:meth:`Sim.add_deck` goes on. :mod:`dineri.players.chkobba.playout` plays random rounds fast.
"""

from __future__ import annotations

from bisect import insort

from dineri.players.chkobba.captures import captures
from dineri.players.chkobba.cards import (
    BIT,
    CARDS_SHIFT,
    DINARI_SHIFT,
    KEY,
    SABAA_SHIFT,
    SEVENS_SHIFT,
    SIXES_SHIFT,
    STAT,
    cards_of,
)

SHUFFLE, CUT_PHASE, CHOICE, PLAY, VOTE, OVER = range(6)
PHASE_NAMES = ("shuffle", "cut", "cut_choice", "play", "redeal_vote", "over")

KEEP, TABLE, PROPOSE, ACCEPT, REFUSE = -1, -2, -3, -4, -5
CUT = -100  # CUT - k: cut at k (0-39)
CLAIM = 1 << 50
CARD_MASK = 63
_COUNT_LOW = sum(1 << (3 * r) for r in range(10))  # the low bit of each rank's count in a key
_COUNT_HIGH = _COUNT_LOW << 2


def _more(a: int, b: int) -> int:
    # R27: the side with more takes the category; a tie (baji) gives it to nobody (-1).
    return 0 if a > b else 1 if b > a else -1


def score(stats: list[int], chkobbas: list[int]) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
    """Round points from the two sides' counters (R26, R27): the category winners
    (karta, dinari, barmila, sabaa; -1 for baji: a tie gives it to nobody) and each side's points,
    chkobbas included."""
    s0, s1 = stats
    a, b = s0 & 255, s1 & 255
    karta = 0 if a > b else 1 if b > a else -1
    a, b = s0 >> DINARI_SHIFT & 255, s1 >> DINARI_SHIFT & 255
    dinari = 0 if a > b else 1 if b > a else -1
    a, b = s0 >> SEVENS_SHIFT & 255, s1 >> SEVENS_SHIFT & 255
    if a == b:
        a, b = s0 >> SIXES_SHIFT & 255, s1 >> SIXES_SHIFT & 255
    barmila = 0 if a > b else 1 if b > a else -1
    sabaa = 0 if s0 >> SABAA_SHIFT & 1 else 1 if s1 >> SABAA_SHIFT & 1 else -1
    p0 = chkobbas[0] + (karta == 0) + (dinari == 0) + (barmila == 0) + (sabaa == 0)
    p1 = chkobbas[1] + (karta == 1) + (dinari == 1) + (barmila == 1) + (sabaa == 1)
    return (karta, dinari, barmila, sabaa), (p0, p1)


class Sim:
    """A match in progress, mutable (R4–R32).

    Fields (all public, read by the search and the tests): ``n`` seats, ``target`` (R30),
    ``games_to_win`` (R32), ``phase`` (:data:`PHASE_NAMES`), ``game``, ``round``, ``dealer``,
    ``turn`` (the seat to play, or the cutter), ``hands`` (lists of cards), ``pack`` and ``pos``
    (the cut pack and its next card), ``table`` (sorted), ``key`` (its value key), ``stats``
    (each side's packed counters), ``chkobbas``, ``last`` (last capturing side or -1, R25),
    ``window`` (the laid card a claim may name, or -1, R19), ``started`` (a card was played in
    this deal, R10), ``first_deal``, ``refused`` (per side, R10), ``pending`` (the proposer or
    -1), ``drawn`` (R8), ``deck`` (the shuffle before the cut), ``decks`` (shuffles waiting),
    ``scores``, ``games_won``, ``winner`` (side or -1), ``in_hands`` (cards in all hands) and
    ``results`` (per finished round: category winners and points).
    """

    __slots__ = ("chkobbas", "dealer", "deck", "decks", "drawn", "first_deal", "game", "games_to_win",
                 "games_won", "hands", "in_hands", "key", "last", "n", "pack", "pending", "phase", "pos",
                 "refused", "results", "round", "scores", "started", "stats", "table", "target", "turn",
                 "window", "winner")

    def __init__(self, seats: int = 2, target: int = 11, best_of: int = 1, dealer: int = 0) -> None:
        self.n = seats
        self.target = target
        self.games_to_win = best_of // 2 + 1
        self.phase = SHUFFLE
        self.game = 1
        self.round = 1
        self.dealer = dealer
        self.turn = (dealer + 1) % seats
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.pack: list[int] = []
        self.pos = 0
        self.table: list[int] = []
        self.key = 0
        self.stats = [0, 0]
        self.chkobbas = [0, 0]
        self.last = -1
        self.window = -1
        self.started = False
        self.first_deal = True
        self.refused = [False, False]
        self.pending = -1
        self.drawn = -1
        self.deck: list[int] | None = None
        self.decks: list[list[int]] = []
        self.scores = [0, 0]
        self.games_won = [0, 0]
        self.winner = -1
        self.in_hands = 0
        self.results: list[tuple[tuple[int, int, int, int], tuple[int, int]]] = []

    def copy(self) -> Sim:
        """An independent copy (lists copied; the shuffles waiting are shared, never changed)."""
        s = Sim.__new__(Sim)
        s.n, s.target, s.games_to_win, s.phase = self.n, self.target, self.games_to_win, self.phase
        s.game, s.round, s.dealer, s.turn = self.game, self.round, self.dealer, self.turn
        s.hands = [list(h) for h in self.hands]
        s.pack, s.pos, s.table, s.key = self.pack, self.pos, list(self.table), self.key
        s.stats, s.chkobbas, s.last, s.window = list(self.stats), list(self.chkobbas), self.last, self.window
        s.started, s.first_deal, s.refused = self.started, self.first_deal, list(self.refused)
        s.pending, s.drawn, s.deck, s.decks = self.pending, self.drawn, self.deck, list(self.decks)
        s.scores, s.games_won, s.winner = list(self.scores), list(self.games_won), self.winner
        s.in_hands, s.results = self.in_hands, list(self.results)
        return s

    # --- the deal (R7-R12) -------------------------------------------------------------------------

    @property
    def cutter(self) -> int:
        """The seat on the dealer's right (R6)."""
        return (self.dealer + 1) % self.n

    def add_deck(self, deck: list[int]) -> None:
        """Supply a shuffle (simulator cards, top first; never changed). In :data:`SHUFFLE` the deal
        starts (phase cut); else it waits for the next deal (R7)."""
        self.decks.append(deck)
        if self.phase == SHUFFLE:
            self._take_deck()

    def _take_deck(self) -> None:
        self.turn = self.cutter
        self.pending = -1
        self.drawn = -1
        if self.decks:
            self.deck = self.decks.pop(0)
            self.phase = CUT_PHASE
        else:
            self.deck = None
            self.phase = SHUFFLE

    def cut(self, k: int) -> None:
        """R8: cut the shuffle at ``k``; the top card is drawn (phase cut_choice)."""
        deck = self.deck
        assert deck is not None
        self.pack = deck[k:] + deck[:k]
        self.pos = 1
        self.drawn = self.pack[0]
        self.hands = [[] for _ in range(self.n)]
        self.table, self.key = [], 0
        self.stats, self.chkobbas, self.last, self.window = [0, 0], [0, 0], -1, -1
        self.started, self.first_deal, self.refused = False, True, [False, False]
        self.phase = CHOICE

    def choose(self, keep: bool) -> None:
        """R9: keep the drawn card (and 2 more), or put it and 3 more on the table; deal."""
        n, cutter, dealer, pack = self.n, self.cutter, self.dealer, self.pack
        hands = self.hands
        if keep:
            hands[cutter] = pack[0:3]
            pos = 3
            seat = (cutter + 1) % n
            while seat != dealer:
                hands[seat] = pack[pos:pos + 3]
                pos += 3
                seat = (seat + 1) % n
            table = pack[pos:pos + 4]
            pos += 4
            hands[dealer] = pack[pos:pos + 3]
            pos += 3
        else:
            table = pack[0:4]
            pos = 4
            for i in range(n):
                hands[(cutter + i) % n] = pack[pos:pos + 3]
                pos += 3
        table.sort()
        key = 0
        for c in table:
            key += KEY[c]
        self.table, self.key, self.pos = table, key, pos
        self.in_hands = 3 * n
        self.drawn = -1
        self.turn = cutter  # R12
        self.phase = PLAY

    def redeal_possible(self) -> bool:
        """R10: the first deal, no card played, and 3+ of the table cards share one value."""
        if self.started or not self.first_deal or self.phase != PLAY:
            return False
        key = self.key
        # A 3-bit count is 3 or 4 when its high bit is set or its two low bits both are.
        return bool(key & _COUNT_HIGH or key & (key >> 1) & _COUNT_LOW)

    # --- legal actions -----------------------------------------------------------------------------

    def legal(self, seat: int) -> list[int]:
        """Every action ``seat`` may take now, as action ints (the engine's ``legal_actions`` but
        ``Forfeit``): claims, plays with their captures, a redeal proposal; cuts; keep and
        table; accept and refuse. Order: claims, then per hand card its lay and captures."""
        phase = self.phase
        if phase == PLAY:
            out: list[int] = []
            if seat == self.turn:
                if self.window >= 0:
                    out += self.claims()
                entry = captures(self.key)
                table = self.table
                for c in self.hands[seat]:
                    out.append(c)
                    for pos in entry[c >> 2]:
                        m = 0
                        for i in pos:
                            m |= BIT[table[i]]
                        out.append(c | m << 6)
            if self.redeal_possible() and not self.refused[seat % 2]:
                out.append(PROPOSE)
            return out
        if phase == CUT_PHASE:
            return [CUT - k for k in range(40)] if seat == self.turn else []
        if phase == CHOICE:
            return [KEEP, TABLE] if seat == self.turn else []
        if phase == VOTE:
            return [ACCEPT, REFUSE] if seat % 2 != self.pending % 2 else []
        return []

    def claims(self) -> list[int]:
        """The claims open to the seat to play (R20): the laid card with each capture it could
        have made on the table before it was laid."""
        w = self.window
        if w < 0:
            return []
        before = list(self.table)
        before.remove(w)
        out = []
        for pos in captures(self.key - KEY[w])[w >> 2]:
            m = 0
            for i in pos:
                m |= BIT[before[i]]
            out.append(CLAIM | w | m << 6)
        return out

    def to_act(self) -> int:
        """The seat whose decision the game waits for: the seat to play, the cutter, or in a
        redeal vote the first opponent on the proposer's right; -1 when over or waiting for a deck."""
        if self.phase == VOTE:
            return (self.pending + 1) % self.n
        if self.phase in (SHUFFLE, OVER):
            return -1
        return self.turn

    # --- applying an action ------------------------------------------------------------------------

    def apply(self, seat: int, action: int) -> None:
        """Apply one of :meth:`legal` ``(seat)`` (not checked)."""
        if action >= 0:
            if action >= CLAIM:
                self._claim(seat, action)
            else:
                self.play(seat, action)
        elif action <= CUT:
            self.cut(CUT - action)
        elif action in (KEEP, TABLE):
            self.choose(action == KEEP)
        elif action == PROPOSE:
            self.phase = VOTE
            self.pending = seat
        elif action == ACCEPT:
            self._take_deck()  # R10: the same dealer shuffles again, the same cutter cuts
        elif action == REFUSE:
            self.refused[self.pending % 2] = True
            self.pending = -1
            self.phase = PLAY
        else:
            raise ValueError(f"not an action: {action}")

    def play(self, seat: int, action: int) -> None:
        """R13–R25: play ``action & 63`` capturing the cards of ``action >> 6`` (none: lay it)."""
        c = action & CARD_MASK
        taken = action >> 6
        self.hands[seat].remove(c)
        self.in_hands -= 1
        last_card = self.in_hands == 0 and self.pos == len(self.pack)
        table = self.table
        if taken:
            side = seat & 1
            st = STAT[c]
            key = self.key
            kept = []
            for x in table:
                if BIT[x] & taken:
                    st += STAT[x]
                    key -= KEY[x]
                else:
                    kept.append(x)
            self.table, self.key = kept, key
            self.stats[side] += st
            self.last = side
            self.window = -1
            if not kept and not last_card:
                self.chkobbas[side] += 1  # R23, R24
        else:
            # R19: a lay that could have captured opens the window for the next seat.
            self.window = c if captures(self.key)[c >> 2] else -1
            insort(table, c)
            self.key += KEY[c]
        self.started = True
        self.turn = (seat + 1) % self.n
        if self.in_hands == 0:
            if last_card:
                self.end_round()
            else:
                self.deal_more()

    def _claim(self, seat: int, action: int) -> None:
        # R20-R23: the laid card and what it could have taken go to the claimer's side.
        taken = (action >> 6) | BIT[action & CARD_MASK]
        side = seat & 1
        st, key, kept = 0, self.key, []
        for x in self.table:
            if BIT[x] & taken:
                st += STAT[x]
                key -= KEY[x]
            else:
                kept.append(x)
        self.table, self.key = kept, key
        self.stats[side] += st
        self.last = side
        self.window = -1
        if not kept:
            self.chkobbas[side] += 1

    def deal_more(self) -> None:
        """R11: 3 more cards to each seat from the cutter; an open window stays open (R21)."""
        n, cutter, pack, pos = self.n, self.cutter, self.pack, self.pos
        for i in range(n):
            self.hands[(cutter + i) % n] = pack[pos:pos + 3]
            pos += 3
        self.pos = pos
        self.in_hands = 3 * n
        self.first_deal = False

    def end_round(self) -> None:
        """R25–R32: leftovers to the last capturer, scoring, the game and match outcome, and the
        next deal (phase shuffle until :meth:`add_deck`) unless the match is over."""
        if self.table and self.last >= 0:
            st = 0
            for x in self.table:
                st += STAT[x]
            self.stats[self.last] += st
        self.table, self.key, self.window = [], 0, -1
        cats, points = score(self.stats, self.chkobbas)
        self.results.append((cats, points))
        a, b = self.scores[0] + points[0], self.scores[1] + points[1]
        self.scores = [a, b]
        nxt = (self.dealer + 1) % self.n
        won = -1 if a < self.target and b < self.target else _more(a, b)  # R31
        if won < 0:
            self.round += 1
            self.dealer = nxt
            self._take_deck()
            return
        self.games_won[won] += 1
        if self.games_won[won] >= self.games_to_win:  # R32
            self.winner = won
            self.phase = OVER
            self.turn = -1
            return
        self.game += 1
        self.round = 1
        self.scores = [0, 0]
        self.dealer = nxt
        self._take_deck()

    # --- reading ------------------------------------------------------------------------------------

    def captured(self, side: int) -> int:
        """How many cards ``side`` has captured in this round."""
        return self.stats[side] >> CARDS_SHIFT & 255

    def unplayed(self) -> int:
        """The 40-bit set of cards still in hands or in the pack."""
        m = 0
        for h in self.hands:
            for c in h:
                m |= BIT[c]
        for c in self.pack[self.pos:]:
            m |= BIT[c]
        return m


def action_cards(action: int) -> tuple[int, list[int]]:
    """The played (or claimed) card of a play or claim action and the table cards it takes."""
    return action & CARD_MASK, cards_of((action & (CLAIM - 1)) >> 6)
