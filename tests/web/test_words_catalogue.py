"""The compiled catalogues say what the native-Arabic phone trial asked for (issue 13, second
round): one brand, one name per card, the grammar and the labels it corrected."""

from __future__ import annotations

import gettext
import re
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


def test_the_grammar_the_trial_corrected() -> None:
    """Golf's rounds agree with their numbers, «سبعة الديناري» is the card (not «السبعة
    ديناري»), the help says to press the claim button, one word for games won and for "best of",
    and the admin's statuses agree with «مباراة» (quarantined said what it means)."""
    tr, adm = _tr("ar"), _tr("ar", "admin")
    texts = _all("ar")
    assert not [t for t in texts if "السبعة ديناري" in t or "تسع (أو" in t or "لعبات" in t]
    assert any("بعد تسع جولات (أو ثماني عشرة جولة)" in t for t in texts)
    assert any("ثم اضغط «المطالبة بأكلة فائتة»" in t for t in texts)
    assert tr.gettext("Play begins at ×{m}: {name} holds the 7 of diamonds and plays first.").startswith(
        "سبعة الديناري عند {name}")
    assert tr.gettext("Games won: {n}") == "الألعاب المكسوبة: {n}"
    assert adm.gettext("Games won") == "الألعاب المكسوبة"
    assert tr.gettext("best of {n} games") == "الأفضل من {n} ألعاب"
    assert adm.gettext("best of %(n)s games") == "الأفضل من %(n)s ألعاب"
    assert [adm.gettext(s) for s in ("in progress", "over", "forfeited", "quarantined")] == [
        "جارية", "منتهية", "منتهية بانسحاب", "موقوفة (سجلّ تالف)"]
    assert _tr("fr", "admin").gettext("best of %(n)s games") == _tr("fr").gettext(
        "best of {n} games").replace("{n}", "%(n)s")


def test_a_number_keeps_its_unit_and_the_turn_clock_says_seconds_in_full() -> None:
    """«15 ث للدور» broke between the number and its unit on a 360 px phone: a no-break space
    holds them together in every language, and the lobby's «15 ثانية للدور» writes the unit in
    full (15, 30 and 60 all take «ثانية»); the running badges keep the short «ث»."""
    assert _tr("ar").gettext("{n} s per turn") == "{n}\u00a0ثانية للدور"
    assert _tr("fr").gettext("{n} s per turn") == "{n}\u00a0s par tour"
    assert _tr("en").gettext("{n} s per turn") == "{n}\u00a0s per turn"
    assert _tr("ar").gettext("{n} s left") == "بقي {n}\u00a0ث"
    for lang in ("ar", "fr", "en"):
        broken = [t for t in _all(lang) if re.search(r"(\{n\}|%\(n\)s) (ث|ثانية|ثوانٍ|s)\b", t)]
        assert not broken, (lang, broken)


def test_the_labels_the_trial_made_one() -> None:
    """One "How to play" form (passive «كيف تُلعب»), «شكبة» without a shadda, the summary's
    plural row «الشكبات», a tie after a dash (not a second colon), the replays' step words
    the admin's (الأولى/السابقة/التالية/الأخيرة), «من منظور» for the seat a replay is seen from."""
    tr = _tr("ar")
    assert [tr.gettext(f"How to play {g}") for g in ("Chkobba", "Four-card Golf", "Seven Diamonds")] == [
        "كيف تُلعب الشكبة", "كيف تُلعب الغولف بأربع أوراق", "كيف تُلعب سبعة الديمن"]
    assert not [t for t in _all("ar") + _all("ar", "admin") if "شكبّ" in t or "كيف تلعب" in t]
    assert tr.gettext("Chkobbas") == "الشكبات"
    assert tr.gettext("{category} — Baji (tie)") == "{category} — باجي (تعادل)"
    steps = ["First", "Previous", "Next", "Last"]
    assert [tr.gettext(s) for s in steps] == [_tr("ar", "admin").gettext(s) for s in steps] == [
        "الأولى", "السابقة", "التالية", "الأخيرة"]
    assert [_tr("fr").gettext(s) for s in steps] == [_tr("fr", "admin").gettext(s) for s in steps]
    assert tr.gettext("Seen from") == "من منظور"
    assert tr.gettext("Close") == "إغلاق"
