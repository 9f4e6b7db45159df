"""Draw every card face and the backs as SVG into ``dineri/static/cards/`` (issue 13, item 9).

Run ``python scripts/make_cards.py``; the output is committed so nothing is built before
running. Our own drawing, no external art, deterministic (the same bytes on every run).

Two deck styles, 52 faces each (ranks ``A 2-9 T J Q K``, suits ``D H S C``: Chkobba uses the
40 of R3 with ``Q J K`` worth 8, 9, 10; golf4 all 52 with the ten as ``T``; Seven Diamonds
``7``–``A``) and a back:

- ``cards/<code>.svg``, ``cards/back.svg``: the classic French-suited pack, with court cards
  of our own (double-headed king, queen and jack figures);
- ``cards/spanish/<code>.svg``, ``cards/spanish/back.svg``: the Spanish-suited pack Tunisian
  players know (coins for diamonds, cups for hearts, swords for spades, batons for clubs; the
  queen a lady, the jack a rider, the king seated), drawn by :mod:`spanish_cards`.

The 7 of diamonds (sab'a l-hayya, R26) wears a gold frame and a star in its margin, clear of
its seven pips.
"""

# SVG path data and attributes read best one shape a line, whatever its length.
# ruff: noqa: E501

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spanish_cards

OUT = Path(__file__).resolve().parent.parent / "dineri" / "static" / "cards"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
SUITS = {"D": "#c62828", "H": "#c62828", "S": "#1a1a1a", "C": "#1a1a1a"}
W, H = 100, 140
INK, GOLD, BLUE, RED, SKIN, PAPER = "#1a1a1a", "#d4a017", "#1e4fa0", "#c62828", "#f6d7bd", "#fffdf6"

# The suit marks as paths in a 100×100 box (drawn, not font glyphs: the same on every system).
SUIT_PATHS = {
    "H": "M50 90C22 68 4 48 12 28C19 11 42 9 50 29C58 9 81 11 88 28C96 48 78 68 50 90Z",
    "D": "M50 3Q64 30 86 50Q64 70 50 97Q36 70 14 50Q36 30 50 3Z",
    "S": "M50 6C40 27 8 40 10 62C12 80 36 84 45 71C44 83 39 90 30 95H70C61 90 56 83 55 71"
         "C64 84 88 80 90 62C92 40 60 27 50 6Z",
    "C": "M50 12A17 17 0 0 0 37 40A17 17 0 1 0 45 67C44 81 39 89 30 95H70C61 89 56 81 55 67"
         "A17 17 0 1 0 63 40A17 17 0 0 0 50 12Z",
}

# Pip centres on the 100×140 face; pips below the middle are drawn upside down, as on real cards.
PIPS: dict[str, list[tuple[float, float]]] = {
    "A": [(50, 70)],
    "2": [(50, 34), (50, 106)],
    "3": [(50, 34), (50, 70), (50, 106)],
    "4": [(32, 36), (68, 36), (32, 104), (68, 104)],
    "5": [(32, 36), (68, 36), (50, 70), (32, 104), (68, 104)],
    "6": [(32, 36), (68, 36), (32, 70), (68, 70), (32, 104), (68, 104)],
    "7": [(32, 36), (68, 36), (50, 53), (32, 70), (68, 70), (32, 104), (68, 104)],
    "8": [(32, 36), (68, 36), (50, 53), (32, 70), (68, 70), (50, 87), (32, 104), (68, 104)],
    "9": [(30, 33), (70, 33), (30, 57), (70, 57), (50, 70), (30, 83), (70, 83), (30, 107), (70, 107)],
    "T": [(30, 33), (70, 33), (50, 45), (30, 57), (70, 57), (30, 83), (70, 83), (50, 95), (30, 107),
          (70, 107)],
}
LABEL = {"T": "10"}


def mark(suit: str, x: float, y: float, size: float, *, flip: bool = False, color: str | None = None) -> str:
    """One suit mark of width *size* centred on (*x*, *y*), upside down when *flip*."""
    s = size / 100
    rot = " rotate(180 50 50)" if flip else ""
    fill = color or SUITS[suit]
    return (f'<path transform="translate({x - size / 2:g} {y - size / 2:g}) scale({s:g}){rot}" '
            f'd="{SUIT_PATHS[suit]}" fill="{fill}"/>')


def index(rank: str, suit: str) -> str:
    """The rank and a small mark in the top-left corner, and again upside down bottom-right."""
    label = LABEL.get(rank, rank)
    squeeze = ' textLength="17" lengthAdjust="spacingAndGlyphs"' if len(label) > 1 else ""
    one = (f'<text x="12" y="21" font-size="19"{squeeze} text-anchor="middle" fill="{SUITS[suit]}" '
           f'font-family="DejaVu Serif, Georgia, serif" font-weight="bold">{label}</text>'
           + mark(suit, 12, 31, 12))
    return one + f'<g transform="rotate(180 50 70)">{one}</g>'


def frame() -> str:
    return (f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="{PAPER}" '
            'stroke="#555" stroke-width="2"/>')


def court_half(rank: str, suit: str) -> str:
    """The upper half of a double-headed court card (the lower half is the same turned round):
    a king with crown, beard and sword; a queen with tiara, long hair and a flower; a jack with a
    feathered cap and a halberd. Robes take the suit's colour scheme."""
    robe, collar = {"H": (RED, BLUE), "D": (BLUE, RED), "S": (BLUE, INK), "C": (RED, INK)}[suit]
    parts = []
    # Robe: shoulders and chest, with a gold trim and the suit's mark on the chest.
    parts.append(f'<path d="M22 70V60Q24 50 38 47L50 52L62 47Q76 50 78 60V70Z" fill="{robe}" stroke="{INK}" '
                 'stroke-width="0.8"/>')
    parts.append(f'<path d="M38 47L50 52L62 47L58 56L50 60L42 56Z" fill="{collar}" stroke="{GOLD}" stroke-width="1"/>')
    parts.append(f'<path d="M24 66H76" stroke="{GOLD}" stroke-width="2"/>')
    parts.append(mark(suit, 50, 63.5, 7, color=GOLD if SUITS[suit] == INK else PAPER))
    # The held thing, on the figure's side.
    if rank == "K":
        parts.append(f'<path d="M70 18V58" stroke="#9aa3ad" stroke-width="3"/><path d="M64 28H76" stroke="{GOLD}" '
                     'stroke-width="3" stroke-linecap="round"/><circle cx="70" cy="17" r="2.5" fill="#d4a017"/>')
    elif rank == "Q":
        parts.append('<path d="M68 58Q70 40 66 30" stroke="#2e7d32" stroke-width="1.6" fill="none"/>'
                     '<path d="M66 40Q72 38 73 33Q67 34 66 40Z" fill="#2e7d32"/>'
                     f'<circle cx="66" cy="28" r="4.5" fill="{RED}"/><circle cx="66" cy="28" r="1.8" fill="{GOLD}"/>')
    else:
        parts.append('<path d="M30 18V62" stroke="#8d5a2b" stroke-width="2.2"/><path d="M30 18L25 26L30 30L35 26Z" '
                     'fill="#9aa3ad" stroke="#555" stroke-width="0.6"/>')
    # Hair behind the head.
    if rank == "Q":
        parts.append('<path d="M40 34Q38 48 33 54Q44 52 45 44L55 44Q56 52 67 54Q62 48 60 34Z" fill="#6d3b1f"/>')
    else:
        parts.append(f'<path d="M41 34Q40 42 43 45H57Q60 42 59 34Z" fill="{"#e8e2d0" if rank == "K" else "#6d3b1f"}"/>')
    # Face, eyes, mouth.
    parts.append(f'<ellipse cx="50" cy="37" rx="8" ry="9" fill="{SKIN}" stroke="{INK}" stroke-width="0.8"/>')
    parts.append(f'<circle cx="47" cy="36" r="0.9" fill="{INK}"/><circle cx="53" cy="36" r="0.9" fill="{INK}"/>')
    parts.append(f'<path d="M47.5 41Q50 42.5 52.5 41" stroke="{RED}" stroke-width="0.9" fill="none"/>')
    if rank == "K":
        # Beard, then the crown with three points and jewels.
        parts.append('<path d="M42 39Q43 50 50 52Q57 50 58 39Q55 44 50 44Q45 44 42 39Z" fill="#e8e2d0" '
                     f'stroke="{INK}" stroke-width="0.6"/>')
        parts.append(f'<path d="M40 29L40 18L45 24L50 15L55 24L60 18L60 29Z" fill="{GOLD}" stroke="{INK}" '
                     f'stroke-width="0.8"/><circle cx="50" cy="25" r="1.8" fill="{RED}"/>'
                     f'<circle cx="44" cy="26.5" r="1.3" fill="{BLUE}"/><circle cx="56" cy="26.5" r="1.3" fill="{BLUE}"/>')
    elif rank == "Q":
        parts.append(f'<path d="M42 29Q42 22 45 22Q47 25 50 20Q53 25 55 22Q58 22 58 29Z" fill="{GOLD}" '
                     f'stroke="{INK}" stroke-width="0.8"/><circle cx="50" cy="23" r="1.6" fill="{RED}"/>')
        parts.append(f'<path d="M43 52Q50 56 57 52" stroke="{GOLD}" stroke-width="1.4" fill="none"/>')
    else:
        # A soft cap with a feather.
        parts.append(f'<path d="M40 31Q41 22 50 22Q60 22 61 31Z" fill="{collar if collar != INK else RED}" '
                     f'stroke="{INK}" stroke-width="0.8"/><path d="M40 31H61" stroke="{GOLD}" stroke-width="1.5"/>')
        parts.append('<path d="M58 24Q66 16 72 18Q65 20 60 27Z" fill="#f5f5f5" stroke="#777" stroke-width="0.5"/>')
    return "".join(parts)


def court(rank: str, suit: str) -> str:
    """A court card's picture: a framed double-headed figure and the suit in two corners."""
    half = court_half(rank, suit)
    color = SUITS[suit]
    # The figure is drawn 64 wide and narrowed to the frame, clear of the corner indices.
    half = f'<g transform="translate(50 0) scale(0.88 1) translate(-50 0)">{half}</g>'
    return (f'<rect x="22" y="12" width="56" height="116" rx="3" fill="#fbf3dc" stroke="{color}" stroke-width="1.5"/>'
            f'<clipPath id="c"><rect x="22" y="12" width="56" height="58"/></clipPath>'
            f'<g clip-path="url(#c)">{half}</g>'
            f'<g transform="rotate(180 50 70)"><g clip-path="url(#c)">{half}</g></g>'
            f'<path d="M22 70H78" stroke="{color}" stroke-width="1"/>')


def face(rank: str, suit: str) -> str:
    """The SVG text of one classic face; *rank* in ``RANKS``, *suit* in ``SUITS``."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">', frame()]
    if rank == "7" and suit == "D":
        # Sab'a l-hayya: a gold frame and a star in the margin, clear of the pips.
        parts.append(f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="6" fill="none" stroke="{GOLD}" '
                     'stroke-width="2.5"/><path d="M50 9L52.2 14H57.5L53.2 17.2L54.8 22.3L50 19.2L45.2 22.3L46.8 17.2'
                     f'L42.5 14H47.8Z" fill="{GOLD}"/>')
    parts.append(index(rank, suit))
    if rank in PIPS:
        size = 46 if rank == "A" else (17 if rank in "9T" else 20)
        for x, y in PIPS[rank]:
            parts.append(mark(suit, x, y, size, flip=y > 70))
    else:
        parts.append(court(rank, suit))
    parts.append("</svg>\n")
    return "".join(parts)


def back() -> str:
    """The SVG text of the classic card back: a geometric lattice and a gold medallion."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        '<defs><pattern id="p" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<path d="M6 0L12 6L6 12L0 6Z" fill="#2e5d8a"/><circle cx="6" cy="6" r="1.2" fill="#d4a017"/></pattern></defs>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="#1d3f61" stroke="#555" stroke-width="2"/>'
        f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="5" fill="url(#p)" stroke="#d4a017"/>'
        '<circle cx="50" cy="70" r="17" fill="#1d3f61" stroke="#d4a017" stroke-width="2"/>'
        '<path d="M50 57L62 70L50 83L38 70Z" fill="none" stroke="#d4a017" stroke-width="1.5"/>'
        '<circle cx="50" cy="70" r="3.5" fill="#d4a017"/>'
        "</svg>\n"
    )


def main() -> None:
    """Write every face and the back of both styles."""
    OUT.mkdir(parents=True, exist_ok=True)
    for suit in SUITS:
        for rank in RANKS:
            (OUT / f"{rank}{suit}.svg").write_text(face(rank, suit), encoding="utf-8")
    (OUT / "back.svg").write_text(back(), encoding="utf-8")
    spanish_cards.write_all(OUT / "spanish", RANKS, list(SUITS))


if __name__ == "__main__":
    main()
