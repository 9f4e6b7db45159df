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
