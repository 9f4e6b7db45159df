"""The Spanish-suited deck style of ``make_cards.py`` (issue 13, item 9): the pack Tunisian
players know. Coins (oros) stand for diamonds, so the dinari are coins as their name says; cups
(copas) for hearts, swords (espadas) for spades, batons (bastos) for clubs. The queen is a lady,
the jack a rider on his horse, the king seated on his throne, each holding the suit's mark.
Our own drawing; the same bytes on every run."""

# SVG path data and attributes read best one shape a line, whatever its length.
# ruff: noqa: E501

from __future__ import annotations

from pathlib import Path

W, H = 100, 140
INK, GOLD, PAPER, SKIN = "#1a1a1a", "#d9a520", "#fffaf0", "#f6d7bd"
COLOR = {"D": "#b8860b", "H": "#c62828", "S": "#1e4fa0", "C": "#2e7d32"}
LABEL = {"T": "10"}
# Pip centres; the Spanish marks stand upright on every card.
PIPS: dict[str, list[tuple[float, float]]] = {
    "A": [(50, 70)],
    "2": [(50, 38), (50, 102)],
    "3": [(50, 34), (50, 70), (50, 106)],
    "4": [(33, 40), (67, 40), (33, 100), (67, 100)],
    "5": [(33, 38), (67, 38), (50, 70), (33, 102), (67, 102)],
    "6": [(33, 36), (67, 36), (33, 70), (67, 70), (33, 104), (67, 104)],
    "7": [(33, 32), (67, 32), (50, 52), (33, 72), (67, 72), (33, 108), (67, 108)],
    "8": [(33, 32), (67, 32), (33, 57), (67, 57), (33, 83), (67, 83), (33, 108), (67, 108)],
    "9": [(30, 34), (50, 34), (70, 34), (30, 70), (50, 70), (70, 70), (30, 106), (50, 106), (70, 106)],
    "T": [(30, 32), (50, 32), (70, 32), (40, 56), (60, 56), (40, 84), (60, 84), (30, 108), (50, 108),
          (70, 108)],
}


def coin(x: float, y: float, s: float) -> str:
    """Oros: a gold coin with a rim and a rosette, *s* wide, centred on (x, y)."""
    r = s / 2
    petals = "".join(
        f'<ellipse cx="{x:g}" cy="{y - r * 0.42:g}" rx="{r * 0.16:g}" ry="{r * 0.34:g}" fill="#c0392b" '
        f'transform="rotate({a} {x:g} {y:g})"/>' for a in range(0, 360, 60))
    return (f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{GOLD}" stroke="#8a6d0b" stroke-width="{s / 18:g}"/>'
            f'<circle cx="{x:g}" cy="{y:g}" r="{r * 0.78:g}" fill="none" stroke="#8a6d0b" stroke-width="{s / 30:g}"/>'
            + petals + f'<circle cx="{x:g}" cy="{y:g}" r="{r * 0.16:g}" fill="#1e4fa0"/>')


def cup(x: float, y: float, s: float) -> str:
    """Copas: a gold goblet with a red band, *s* wide (1.3 s tall), centred on (x, y)."""
    h = s * 1.3
    top, w = y - h / 2, s / 2
    return (f'<path d="M{x - w:g} {top:g}H{x + w:g}Q{x + w * 0.95:g} {top + h * 0.45:g} {x + w * 0.18:g} '
            f'{top + h * 0.55:g}V{top + h * 0.8:g}Q{x + w * 0.7:g} {top + h * 0.86:g} {x + w * 0.75:g} {top + h:g}'
            f'H{x - w * 0.75:g}Q{x - w * 0.7:g} {top + h * 0.86:g} {x - w * 0.18:g} {top + h * 0.8:g}V'
            f'{top + h * 0.55:g}Q{x - w * 0.95:g} {top + h * 0.45:g} {x - w:g} {top:g}Z" fill="{GOLD}" '
            f'stroke="#8a6d0b" stroke-width="{s / 20:g}"/>'
            f'<path d="M{x - w * 0.93:g} {top + h * 0.14:g}H{x + w * 0.93:g}" stroke="{COLOR["H"]}" '
            f'stroke-width="{s / 7:g}"/>')


def sword(x: float, y: float, s: float) -> str:
    """Espadas: an upright sword, blue-steel blade and gold hilt, *s* wide (2.2 s tall)."""
    h = s * 2.2
    top = y - h / 2
    return (f'<path d="M{x:g} {top + h * 0.78:g}L{x - s * 0.14:g} {top + h * 0.28:g}L{x:g} {top:g}L{x + s * 0.14:g} '
            f'{top + h * 0.28:g}Z" fill="#8fb3d9" stroke="{COLOR["S"]}" stroke-width="{s / 16:g}"/>'
            f'<path d="M{x - s / 2:g} {top + h * 0.78:g}H{x + s / 2:g}" stroke="{GOLD}" stroke-width="{s / 7:g}" '
            'stroke-linecap="round"/>'
            f'<path d="M{x:g} {top + h * 0.8:g}V{top + h * 0.95:g}" stroke="#7a4a1c" stroke-width="{s / 6:g}"/>'
            f'<circle cx="{x:g}" cy="{top + h * 0.97:g}" r="{s / 9:g}" fill="{GOLD}"/>')


def baton(x: float, y: float, s: float) -> str:
    """Bastos: a knotted green-brown club, thicker at the top, *s* wide (2.2 s tall)."""
    h = s * 2.2
    top = y - h / 2
    knots = "".join(f'<circle cx="{x + (s * 0.12 if k % 2 else -s * 0.12):g}" cy="{top + h * f:g}" r="{s / 10:g}" '
                    f'fill="#5d3a17"/>' for k, f in enumerate((0.2, 0.38, 0.56, 0.74)))
    return (f'<path d="M{x - s * 0.3:g} {top + h * 0.08:g}Q{x:g} {top - h * 0.04:g} {x + s * 0.3:g} {top + h * 0.08:g}'
            f'L{x + s * 0.12:g} {top + h:g}H{x - s * 0.12:g}Z" fill="#3f8f3a" stroke="#1f4d1c" '
            f'stroke-width="{s / 16:g}"/>' + knots)


MARKS = {"D": coin, "H": cup, "S": sword, "C": baton}
SIZE = {"D": 1.0, "H": 0.85, "S": 0.55, "C": 0.55}  # pip widths relative to a coin


def mark(suit: str, x: float, y: float, s: float) -> str:
    return MARKS[suit](x, y, s * SIZE[suit])


def index(rank: str, suit: str) -> str:
    label = LABEL.get(rank, rank)
    squeeze = ' textLength="17" lengthAdjust="spacingAndGlyphs"' if len(label) > 1 else ""
    one = (f'<text x="12" y="21" font-size="19"{squeeze} text-anchor="middle" fill="{COLOR[suit]}" '
           f'font-family="DejaVu Serif, Georgia, serif" font-weight="bold">{label}</text>' + mark(suit, 12, 31, 11))
    return one + f'<g transform="rotate(180 50 70)">{one}</g>'


def _head(x: float, y: float, *, beard: bool = False, hair: str = "#6d3b1f", long_hair: bool = False) -> str:
    out = []
    if long_hair:
        out.append(f'<path d="M{x - 8:g} {y - 3:g}Q{x - 10:g} {y + 12:g} {x - 13:g} {y + 17:g}H{x + 13:g}Q{x + 10:g} '
                   f'{y + 12:g} {x + 8:g} {y - 3:g}Z" fill="{hair}"/>')
    out.append(f'<ellipse cx="{x:g}" cy="{y:g}" rx="7" ry="8" fill="{SKIN}" stroke="{INK}" stroke-width="0.7"/>')
    out.append(f'<circle cx="{x - 2.6:g}" cy="{y - 1:g}" r="0.8" fill="{INK}"/>'
               f'<circle cx="{x + 2.6:g}" cy="{y - 1:g}" r="0.8" fill="{INK}"/>'
               f'<path d="M{x - 2:g} {y + 3.5:g}Q{x:g} {y + 4.8:g} {x + 2:g} {y + 3.5:g}" stroke="#c62828" '
               'stroke-width="0.8" fill="none"/>')
    if beard:
        out.append(f'<path d="M{x - 7:g} {y + 1:g}Q{x - 6:g} {y + 12:g} {x:g} {y + 14:g}Q{x + 6:g} {y + 12:g} {x + 7:g} '
                   f'{y + 1:g}Q{x + 4:g} {y + 6:g} {x:g} {y + 6:g}Q{x - 4:g} {y + 6:g} {x - 7:g} {y + 1:g}Z" '
                   f'fill="#e8e2d0" stroke="{INK}" stroke-width="0.5"/>')
    return "".join(out)


def _crown(x: float, y: float, w: float) -> str:
    return (f'<path d="M{x - w:g} {y:g}V{y - 9:g}L{x - w / 2:g} {y - 4:g}L{x:g} {y - 11:g}L{x + w / 2:g} {y - 4:g}'
            f'L{x + w:g} {y - 9:g}V{y:g}Z" fill="{GOLD}" stroke="{INK}" stroke-width="0.7"/>'
            f'<circle cx="{x:g}" cy="{y - 3:g}" r="1.5" fill="#c62828"/>')


def court(rank: str, suit: str) -> str:
    """A full-length figure in a frame: the lady (Q), the rider (J), the seated king (K)."""
    c = COLOR[suit]
    robe = {"D": "#1e4fa0", "H": "#c62828", "S": "#1e4fa0", "C": "#2e7d32"}[suit]
    other = {"D": "#c62828", "H": "#1e4fa0", "S": "#c62828", "C": "#c62828"}[suit]
    out = [f'<rect x="22" y="12" width="56" height="116" rx="3" fill="#fbf3dc" stroke="{c}" stroke-width="1.5"/>',
           '<g transform="translate(50 0) scale(0.88 1) translate(-50 0)">']
    if rank == "Q":
        # The lady: a long gown, a short cape, the suit's mark held up before her.
        out.append(f'<path d="M41 50Q36 56 34 80L28 122H72L66 80Q64 56 59 50Z" fill="{robe}" stroke="{INK}" '
                   'stroke-width="0.8"/>')
        out.append(f'<path d="M36 84H64M33 100H67" stroke="{GOLD}" stroke-width="1.5"/>')
        out.append(f'<path d="M41 50Q50 58 59 50L62 64Q50 70 38 64Z" fill="{other}" stroke="{INK}" stroke-width="0.6"/>')
        out.append(_head(50, 40, long_hair=True))
        out.append(f'<path d="M43 33Q43 27 46 27Q48 30 50 26Q52 30 54 27Q57 27 57 33Z" fill="{GOLD}" stroke="{INK}" '
                   'stroke-width="0.6"/>')
        out.append(f'<path d="M44 66Q50 70 57 62" stroke="{SKIN}" stroke-width="3" fill="none" stroke-linecap="round"/>')
        out.append(mark(suit, 62, 62, 16))
    elif rank == "J":
        # The rider: a horse walking to the left, the rider holding the mark high.
        out.append('<path d="M34 86Q34 74 48 74H66Q76 74 76 86Q76 96 66 96H44Q34 96 34 86Z" fill="#8d6e63" '
                   f'stroke="{INK}" stroke-width="0.8"/>')
        out.append(f'<path d="M38 80L30 64L24 66L22 72L28 74L34 88Z" fill="#8d6e63" stroke="{INK}" stroke-width="0.8"/>'
                   f'<circle cx="25.5" cy="67.5" r="0.9" fill="{INK}"/><path d="M31 64Q34 60 38 66" stroke="#4e342e" '
                   'stroke-width="2" fill="none"/>')
        out.append(''.join(f'<path d="M{x} 94L{x + dx} 120" stroke="#6d4c41" stroke-width="3" stroke-linecap="round"/>'
                           for x, dx in ((40, -3), (46, 2), (64, -2), (70, 3))))
        out.append('<path d="M76 82Q84 90 80 104" stroke="#4e342e" stroke-width="2.5" fill="none"/>')
        out.append(f'<path d="M44 74Q50 70 62 74L60 82H46Z" fill="{other}" stroke="{INK}" stroke-width="0.6"/>')
        out.append(f'<path d="M47 48Q44 60 46 74H60Q62 60 59 48Z" fill="{robe}" stroke="{INK}" stroke-width="0.8"/>')
        out.append(f'<path d="M51 80V92" stroke="{robe}" stroke-width="5" stroke-linecap="round"/>')
        out.append(_head(53, 39))
        out.append(f'<path d="M45 34Q46 27 53 27Q60 27 61 34Z" fill="{other}" stroke="{INK}" stroke-width="0.6"/>')
        out.append(f'<path d="M58 52Q64 46 66 38" stroke="{SKIN}" stroke-width="3" fill="none" stroke-linecap="round"/>')
        out.append(mark(suit, 68, 30, 13))
    else:
        # The king on his throne, crowned, bearded, the mark in his hand.
        out.append(f'<path d="M28 40H72V122H28Z" fill="#a1887f" stroke="{INK}" stroke-width="0.8"/>'
                   f'<path d="M28 40Q50 30 72 40" fill="#a1887f" stroke="{INK}" stroke-width="0.8"/>'
                   f'<circle cx="30" cy="40" r="3" fill="{GOLD}"/><circle cx="70" cy="40" r="3" fill="{GOLD}"/>')
        out.append(f'<path d="M38 54Q34 70 36 92H64Q66 70 62 54Z" fill="{robe}" stroke="{INK}" stroke-width="0.8"/>')
        out.append(f'<path d="M36 92H64V104H36Z" fill="{robe}" stroke="{INK}" stroke-width="0.8"/>'
                   f'<path d="M40 104V120M60 104V120" stroke="{robe}" stroke-width="6"/>'
                   f'<path d="M36 120H46M56 120H66" stroke="{INK}" stroke-width="3" stroke-linecap="round"/>')
        out.append(f'<path d="M38 54Q50 62 62 54L60 70Q50 74 40 70Z" fill="{other}" stroke="{GOLD}" stroke-width="1"/>')
        out.append(_head(50, 44, beard=True, hair="#e8e2d0"))
        out.append(_crown(50, 37, 8))
        out.append(f'<path d="M60 70Q66 76 64 84" stroke="{SKIN}" stroke-width="3" fill="none" stroke-linecap="round"/>')
        out.append(mark(suit, 66, 86, 14))
    out.append("</g>")
    return "".join(out)


def face(rank: str, suit: str) -> str:
    """The SVG text of one Spanish-suited face."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">',
             f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="{PAPER}" stroke="#555" stroke-width="2"/>']
    if rank == "7" and suit == "D":
        # Sab'a l-hayya: a gold frame and a star in the margin, clear of the coins.
        parts.append(f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="6" fill="none" stroke="{GOLD}" '
                     'stroke-width="2.5"/><path d="M50 8L52.2 13H57.5L53.2 16.2L54.8 21.3L50 18.2L45.2 21.3L46.8 16.2'
                     f'L42.5 13H47.8Z" fill="{GOLD}"/>')
    parts.append(index(rank, suit))
    if rank in PIPS:
        size = {"A": 40, "7": 19, "8": 21 if suit in "DH" else 17, "9": 17, "T": 17}.get(rank, 24)
        for x, y in PIPS[rank]:
            parts.append(mark(suit, x, y, size))
    else:
        parts.append(court(rank, suit))
    parts.append("</svg>\n")
    return "".join(parts)


def back() -> str:
    """The Spanish-style back: a red lattice with a gold star in a medallion."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        '<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse">'
        '<path d="M0 5H10M5 0V10" stroke="#e57373" stroke-width="1"/><circle cx="5" cy="5" r="1.5" fill="#d9a520"/>'
        '</pattern></defs>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="#8e1b1b" stroke="#555" stroke-width="2"/>'
        f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="5" fill="url(#p)" stroke="#d9a520"/>'
        '<circle cx="50" cy="70" r="17" fill="#8e1b1b" stroke="#d9a520" stroke-width="2"/>'
        '<path d="M50 57L53.5 66H63L55.5 71.5L58.5 81L50 75.5L41.5 81L44.5 71.5L37 66H46.5Z" fill="#d9a520"/>'
        "</svg>\n"
    )


def write_all(out: Path, ranks: list[str], suits: list[str]) -> None:
    """Write every face of *ranks* × *suits* and the back into *out*."""
    out.mkdir(parents=True, exist_ok=True)
    for suit in suits:
        for rank in ranks:
            (out / f"{rank}{suit}.svg").write_text(face(rank, suit), encoding="utf-8")
    (out / "back.svg").write_text(back(), encoding="utf-8")
