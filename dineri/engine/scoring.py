"""Round scoring (R26–R29) and the game/match outcome (R30–R32)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dineri.engine.cards import DIAMONDS, SEVEN_OF_DIAMONDS, SUIT, VALUE, Card
from dineri.engine.state import Options, RoundResult


def _all_but(keep: Callable[[Card], bool]) -> bytes:
    # For bytes.translate: delete every card but those kept, then count what is left.
    return bytes(c for c in range(256) if c >= len(VALUE) or not keep(c))


_NOT_DINARI = _all_but(lambda c: SUIT[c] == DIAMONDS)
_NOT_SEVEN = _all_but(lambda c: VALUE[c] == 7)
_NOT_SIX = _all_but(lambda c: VALUE[c] == 6)


def _more(a: int, b: int) -> int | None:
    # The side with more wins the category; a tie is baji (R27).
    if a > b:
        return 0
    if b > a:
        return 1
    return None


def score_round(game: int, round_no: int, piles: Sequence[Sequence[Card]],
                chkobbas: tuple[int, int]) -> RoundResult:
    """Score a finished round from each side's pile (leftovers already given, R25).

    Karta: more cards; Dinari: more ♦; Barmila: more 7s, else more 6s; Sab'a
    l-hayya: the 7♦; plus 1 point per chkobba (R26). Ties give nobody the point
    (R27). Returns the :class:`RoundResult` recording every count (R29).
    """
    cards = (len(piles[0]), len(piles[1]))
    raw = (bytes(piles[0]), bytes(piles[1]))
    dinari = [len(b.translate(None, _NOT_DINARI)) for b in raw]
    sevens = [len(b.translate(None, _NOT_SEVEN)) for b in raw]
    sixes = [len(b.translate(None, _NOT_SIX)) for b in raw]
    karta = _more(*cards)
    dinari_w = _more(dinari[0], dinari[1])
    barmila = _more(sevens[0], sevens[1])
    if barmila is None:
        barmila = _more(sixes[0], sixes[1])
    sabaa = 0 if SEVEN_OF_DIAMONDS in piles[0] else 1 if SEVEN_OF_DIAMONDS in piles[1] else None
    points = [chkobbas[0], chkobbas[1]]
    for w in (karta, dinari_w, barmila, sabaa):
        if w is not None:
            points[w] += 1
    return RoundResult(
        game=game,
        round=round_no,
        cards=cards,
        dinari_cards=(dinari[0], dinari[1]),
        sevens=(sevens[0], sevens[1]),
        sixes=(sixes[0], sixes[1]),
        chkobbas=chkobbas,
        karta=karta,
        dinari=dinari_w,
        barmila=barmila,
        sabaa=sabaa,
        points=(points[0], points[1]),
    )


def game_winner(scores: tuple[int, int], options: Options) -> int | None:
    """The side that wins the game after a round, or ``None`` to play on (R31).

    One side at or over the target wins; both over: the higher score; equal: play on.
    """
    a, b = scores
    if a < options.target and b < options.target:
        return None
    return _more(a, b)
