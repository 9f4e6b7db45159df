"""The catalogues say what the fresh Arabic phone trial of 2026-12-01 (third round) asked for:
a rematch is the same players again (never «مباراة جديدة», a new match); a 1v1's round legend
gives its points to a player, never to a side; golf4's slots are named by the number on the card
and its place (G5: slot 0 top left, numbered 1 to 4 as the keys 1-4)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

TRANSLATIONS = Path(__file__).resolve().parents[2] / "dineri" / "translations"


def _tr(lang: str, domain: str = "messages") -> gettext.GNUTranslations:
    """The compiled (.mo) catalogue the site serves."""
    return gettext.translation(domain, TRANSLATIONS, languages=[lang])


def test_a_rematch_is_the_same_players_again_in_arabic() -> None:
    tr = _tr("ar")
    rematch = tr.gettext("Rematch")
    assert rematch == "مباراة العودة"
    assert "جديدة" not in rematch
    # Every sentence about the rematch uses the same words (the button, the log, the watch link).
    for msgid in ("Join the rematch", "{name} asks for a rematch.", "Watch the rematch",
                  "The host of the rematch removed you from its table."):
        said = tr.gettext(msgid)
        assert "مباراة العودة" in said and "جديدة" not in said, (msgid, said)
    assert _tr("fr").gettext("Rematch") == "Revanche"


CATEGORIES = ("Karta: 1 point to the {who} with more cards.",
              "Dinari: 1 point to the {who} with more ♦ diamonds.",
              "Barmila: 1 point to the {who} with more 7s; if tied, more 6s.",
              "Sab'a l-hayya: 1 point to the {who} holding the 7 of diamonds.")


@pytest.mark.parametrize(("lang", "side", "player"), [
    ("en", "side", "player"), ("fr", "camp", "joueur"), ("ar", "فريق", "لمن"),
])
def test_a_lone_player_wins_a_category_never_a_side(lang: str, side: str, player: str) -> None:
    """R26-R27 in a 1v1's round summary: the point goes to a player («لمن لديه…», gender-free);
    the 2v2 legend keeps the side."""
    tr = _tr(lang)
    for text in CATEGORIES:
        alone, sides = tr.gettext(text.format(who="player")), tr.gettext(text.format(who="side"))
        assert side not in alone and player in alone, (lang, alone)
        assert side in sides, (lang, sides)


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_golf4_slots_are_named_by_their_number_and_place(lang: str) -> None:
    """G5: slots 0-3 are top left, top right, bottom left, bottom right, a physical picture shown
    unmirrored; the page numbers them 1-4 on the cards and the keys 1-4, so each slot's name says
    its number with its place (the trial read «أعلى اليسار» beside a card marked 1, on the left of
    a right-to-left page), in the same order as the keyboard help."""
    tr = _tr(lang)
    places = {"en": ["top left", "top right", "bottom left", "bottom right"],
              "fr": ["en haut à gauche", "en haut à droite", "en bas à gauche", "en bas à droite"],
              "ar": ["أعلى اليسار", "أعلى اليمين", "أسفل اليسار", "أسفل اليمين"]}[lang]
    msgids = ["slot 1 (top left)", "slot 2 (top right)", "slot 3 (bottom left)", "slot 4 (bottom right)"]
    help_text = tr.gettext("D draws from the stock, T takes the discard, K knocks, X discards the drawn "
                           "card; 1 to 4 swap the card you hold into your slot 1 (top left), 2 (top right), "
                           "3 (bottom left) or 4 (bottom right).")
    for n, (msgid, place) in enumerate(zip(msgids, places, strict=True), start=1):
        name = tr.gettext(msgid)
        assert re.search(rf"(?<!\d){n}(?!\d)", name) and place in name, (lang, msgid, name)
        assert f"{n} ({place})" in help_text, (lang, n, help_text)
    # The log and the swap button take the whole name, number and place.
    assert "{slot}" in tr.gettext("{name} puts a card into {slot}; the {card} goes on the discard pile.")
    assert "{slot}" in tr.gettext("Swap into {slot}")


def test_the_steps_page_names_computers_as_the_pages_do() -> None:
    """/matches/<id> listed its players by their stored names, "Bot 1 (easy)" on an Arabic page
    (fresh trial): a computer is «الحاسوب 1 · سهل» there too; the game's module is loaded to word
    the steps."""
    from dineri.web import i18n

    html = i18n.environment("ar").get_template("accounts/replay.html").render(
        lang="ar", dir="rtl", languages=i18n.LANGUAGES, catalogue={}, config={}, static="/static/", next="/",
        match_id=4, players=["Bot 1 (easy)", "سلمى"], module="chkobba")
    assert "<bdi>الحاسوب 1 · سهل</bdi> · <bdi>سلمى</bdi>" in html and "Bot 1" not in html
    assert '<script src="/static/js/games/chkobba.js"></script>' in html
