"""The compiled catalogues say what the native-Arabic phone trial asked for (issue 13, second
round): one brand, one name per card, the grammar and the labels it corrected."""

from __future__ import annotations

import gettext
from pathlib import Path

TRANSLATIONS = Path(__file__).resolve().parents[2] / "dineri" / "translations"


def _tr(lang: str, domain: str = "messages") -> gettext.GNUTranslations:
    """The compiled (.mo) catalogue the site serves."""
    return gettext.translation(domain, TRANSLATIONS, languages=[lang])


def _all(lang: str, domain: str = "messages") -> list[str]:
    """Every translated text of the compiled catalogue (plural forms too)."""
    return [s for s in _tr(lang, domain)._catalog.values() if s]  # type: ignore[attr-defined]


def test_the_brand_is_dineri_in_latin_letters_in_the_admin_and_the_player_pages() -> None:
    """«إدارة ديناري» read as the diamonds suit: the brand is «Dineri» everywhere."""
    assert _tr("ar", "admin").gettext("Dineri admin") == "إدارة Dineri"
    assert "سجلّ مباراة من Dineri" in _tr("ar").gettext("That file is not a Dineri match record.")


def test_one_arabic_name_per_card_in_every_game() -> None:
    """The ace is «آس» in every game's help and count (golf said «الآص», Seven Diamonds «الإكة»),
    the king «الشايب» (golf's help said «الملك»), as on the cards' own names («آس كور»)."""
    texts = _all("ar") + _all("ar", "admin")
    for word in ("الآص", "آص", "الإكة", "إكة", "الملك"):
        assert not [t for t in texts if word in t], word
    tr = _tr("ar")
    assert tr.gettext("ace of hearts") == "آس كور" and tr.gettext("king of hearts") == "شايب كور"
    assert [tr.gettext(r) for r in "JQKA"] == ["ولد", "بنت", "شايب", "آس"]
    assert [_tr("fr").gettext(r) for r in "JQKA"] == ["V", "D", "R", "A"]
