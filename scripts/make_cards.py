"""Draw the 40 Chkobba card faces and a back as SVG into ``dineri/static/cards/``.

Run ``python scripts/make_cards.py``; the output is committed so nothing is
built before running. Codes follow R3 (rank ``A 2-7 Q J K`` + suit ``D H S C``);
the files are ``7D.svg`` … and ``back.svg``. Our own drawing, no external art.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "dineri" / "static" / "cards"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"]
SUITS = {"D": ("♦", "#c62828"), "H": ("♥", "#c62828"), "S": ("♠", "#1a1a1a"), "C": ("♣", "#1a1a1a")}
W, H = 100, 140
# Pip positions (x, y) for the number cards, on a 100x140 face.
PIPS: dict[str, list[tuple[int, int]]] = {
    "A": [(50, 70)],
    "2": [(50, 38), (50, 102)],
    "3": [(50, 34), (50, 70), (50, 106)],
    "4": [(32, 40), (68, 40), (32, 100), (68, 100)],
    "5": [(32, 40), (68, 40), (50, 70), (32, 100), (68, 100)],
    "6": [(32, 38), (68, 38), (32, 70), (68, 70), (32, 102), (68, 102)],
    "7": [(32, 36), (68, 36), (50, 53), (32, 72), (68, 72), (32, 106), (68, 106)],
}
FACE_LETTER = {"Q": "♛", "J": "♞", "K": "♚"}


def face(rank: str, suit: str) -> str:
    """The SVG text of one face; *rank* in ``RANKS``, *suit* in ``SUITS``."""
    sym, color = SUITS[suit]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">',
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="#fffdf6"'
        ' stroke="#555" stroke-width="2"/>',
        f'<g fill="{color}" font-family="sans-serif" font-weight="bold" text-anchor="middle">',
        f'<text x="13" y="22" font-size="21">{rank}</text><text x="13" y="38" font-size="15">{sym}</text>',
        f'<g transform="rotate(180 {W / 2} {H / 2})"><text x="13" y="22" font-size="21">{rank}</text>'
        f'<text x="13" y="38" font-size="15">{sym}</text></g>',
    ]
    if rank in PIPS:
        size = 44 if rank == "A" else 22
        for x, y in PIPS[rank]:
            parts.append(f'<text x="{x}" y="{y + size // 3}" font-size="{size}">{sym}</text>')
        if rank == "7" and suit == "D":
            # Sab'a l-hayya, the most precious card: a gold ring marks it.
            parts.append('<circle cx="50" cy="70" r="44" fill="none" stroke="#d4a017" stroke-width="3"/>')
    else:
        parts.append(f'<rect x="24" y="30" width="52" height="80" rx="6" fill="none" stroke="{color}"/>')
        parts.append(f'<text x="50" y="72" font-size="34">{FACE_LETTER[rank]}</text>')
        parts.append(f'<text x="50" y="100" font-size="22">{sym}</text>')
    parts.append("</g></svg>\n")
    return "".join(parts)


def back() -> str:
    """The SVG text of the card back: a plain geometric pattern."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        '<defs><pattern id="p" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<path d="M6 0L12 6L6 12L0 6Z" fill="#2e5d8a"/></pattern></defs>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="#1d3f61"'
        ' stroke="#555" stroke-width="2"/>'
        f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="5" fill="url(#p)" stroke="#d4a017"/>'
        '<circle cx="50" cy="70" r="16" fill="#1d3f61" stroke="#d4a017" stroke-width="2"/>'
        '<text x="50" y="77" font-size="20" fill="#d4a017" text-anchor="middle" font-family="serif">D</text>'
        "</svg>\n"
    )


def main() -> None:
    """Write every face and the back into ``OUT``."""
    OUT.mkdir(parents=True, exist_ok=True)
    for suit in SUITS:
        for rank in RANKS:
            (OUT / f"{rank}{suit}.svg").write_text(face(rank, suit), encoding="utf-8")
    (OUT / "back.svg").write_text(back(), encoding="utf-8")


if __name__ == "__main__":
    main()
