"""The browser client's languages (issue 4, Quality): complete catalogues, no string
used in a template or a script without a translation, language negotiation, and the
rules' own vocabulary (chkobba.md, Vocabulary) in each language."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from dineri.web import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "dineri" / "translations"
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def _key(msgid: str | tuple[str, ...]) -> str:
    """A message's key: its msgid, or a plural message's singular msgid."""
    return msgid if isinstance(msgid, str) else msgid[0]


def _texts(value: str | tuple[str, ...]) -> tuple[str, ...]:
    """A translation's texts: one, or every plural form."""
    return (value,) if isinstance(value, str) else tuple(value)


def _pot_ids() -> set[str]:
    with open(TRANSLATIONS / "messages.pot", "rb") as f:
        return {_key(m.id) for m in read_po(f) if m.id}


def _po(lang: str):  # type: ignore[no-untyped-def]
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def _source_ids() -> set[str]:
    """Every msgid the templates, scripts and web modules use, extracted as ``babel.cfg`` says."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    ids = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(str(ROOT), method_map, options_map):
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def test_every_used_string_is_in_the_template() -> None:
    pot_ids = _pot_ids()
    used = _source_ids()
    assert len(used) > 150
    assert used - pot_ids == set(), "run pybabel extract (see README): messages.pot is stale"
    assert pot_ids - used == set(), "messages.pot holds strings no longer used"


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_catalogue_is_complete_and_compiled(lang: str) -> None:
    pot_ids = _pot_ids()
    po = _po(lang)
    translated = {m.id: m.string for m in po if m.id and all(_texts(m.string)) and not m.fuzzy}
    assert {_key(i) for i in translated} == pot_ids
    for msgid, value in translated.items():
        # Same placeholders in the translation (each plural form) as in the English text; only
        # Arabic's "zero", "one" and "two" forms may leave the count out, the word says it
        # ("لا أوراق", "ورقتان").
        wanted = sorted(PLACEHOLDER.findall(_key(msgid)))
        for form, text in enumerate(_texts(value)):
            found = sorted(PLACEHOLDER.findall(text))
            if lang == "ar" and isinstance(msgid, tuple) and form in (0, 1, 2):
                assert set(found) <= set(wanted), (lang, msgid, form)
            else:
                assert found == wanted, (lang, msgid)
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as f:
        mo = read_mo(f)
    def same(pairs: Any) -> dict[Any, tuple[str, ...]]:  # the .mo gives plurals as lists
        return {(k if isinstance(k, str) else tuple(k)): _texts(v) for k, v in pairs}
    compiled = same((m.id, m.string) for m in mo if m.id)
    assert compiled == same(translated.items()), "run pybabel compile: the .mo is stale"


def test_scripts_get_the_whole_catalogue() -> None:
    pot_ids = _pot_ids()
    for lang in i18n.LANGUAGES:
        assert set(i18n.js_catalogue(lang)) == pot_ids


@pytest.mark.parametrize(
    ("english", "french", "arabic"),
    [
        ("Chkobba", "Chkobba", "شكبة"),
        ("Karta", "Karta", "كارطة"),
        ("Dinari", "Dinari", "ديناري"),
        ("Barmila", "Barmila", "برميلة"),
        ("Sab'a l-hayya", "Sab'a l-hayya", "سبعة الحية"),
        ("Dealer", "Donneur", "التوزيع"),
        ("Claim a missed capture", "Réclamer une prise ratée", "المطالبة بأكلة فائتة"),
        ("Cut", "Couper", "قطع"),
        ("Game {game} · Round {round}", "Partie {game} · Manche {round}", "اللعبة {game} · الجولة {round}"),
        ("7 of diamonds", "7 de carreau", "سبعة ديناري"),
    ],
)
def test_rules_vocabulary(english: str, french: str, arabic: str) -> None:
    assert i18n.js_catalogue("fr")[english] == french
    assert i18n.js_catalogue("ar")[english] == arabic
    assert i18n.js_catalogue("en")[english] == english


def test_baji_and_match_terms() -> None:
    assert "باجي" in i18n.js_catalogue("ar")["Baji (tie): nobody"]
    assert "Baji" in i18n.js_catalogue("fr")["Baji (tie): nobody"]
    assert "match" in i18n.js_catalogue("fr")["Start the match"]
    assert "مباراة" in i18n.js_catalogue("ar")["Start the match"]


@pytest.mark.parametrize(
    ("cookie", "header", "expected"),
    [
        ("fr", "ar", "fr"),
        (None, "ar-TN,fr;q=0.8,en;q=0.5", "ar"),
        (None, "de-DE,fr-FR;q=0.9", "fr"),
        (None, "en;q=0.2,fr;q=0.9", "fr"),
        ("xx", "de, it", "en"),
        (None, None, "en"),
        (None, ";;,q=,*", "en"),
        (None, "fr;q=abc,ar;q=0.1", "ar"),
    ],
)
def test_negotiate(cookie: str | None, header: str | None, expected: str) -> None:
    assert i18n.negotiate(cookie, header) == expected


def test_direction() -> None:
    assert i18n.direction("ar") == "rtl"
    assert i18n.direction("fr") == "ltr"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(KeyError):
        i18n.translations("de")


def test_template_text_is_translated() -> None:
    html = i18n.environment("fr").get_template("home.html").render(
        lang="fr", dir="ltr", languages=i18n.LANGUAGES, catalogue={}, config={}, static="/static/", next="/")
    assert "Créer une table" in html and "Create a table" not in html
    buf = io.StringIO(html)
    assert '<html lang="fr" dir="ltr">' in buf.getvalue()


def _js_error_codes() -> set[str]:
    text = (ROOT / "dineri" / "static" / "js" / "common.js").read_text(encoding="utf-8")
    block = text[text.index("var ERRORS = {"):]
    block = block[:block.index("};")]
    return set(re.findall(r"^\s+(\w+):", block, re.M))


def test_every_error_code_is_explained() -> None:
    """Every code a player can receive (rule codes of match-record.md, the protocol's service
    and REST codes) has its own message, so an illegal move is explained in the player's
    language (issue 4: "An illegal selection is explained")."""
    from dineri.engine import CODES

    codes = set(CODES)
    try:
        from dineri.server.protocol import SERVICE_CODES
    except ImportError:  # the server package is optional for the page tests
        SERVICE_CODES = frozenset()
    codes |= set(SERVICE_CODES)
    protocol = ROOT / "docs" / "protocol.md"
    if protocol.exists():
        doc = protocol.read_text(encoding="utf-8")
        rest = doc[doc.index("Error codes:"):].split("\n\n")[0] if "Error codes:" in doc else ""
        codes |= set(re.findall(r"`([a-z_]+)`", rest))
    assert {"illegal_capture", "no_missed_capture", "not_your_turn"} <= codes
    missing = codes - _js_error_codes()
    assert missing == set()


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_round_summary_rows_are_words(lang: str) -> None:
    """The summary's rows name the 7s, 6s and diamonds in words, never a bare digit (R29)."""
    cat = i18n.js_catalogue(lang)
    for msgid in ("Sevens", "Sixes", "♦ Diamonds"):
        assert re.search(r"[^\W\d_]{3}", cat[msgid]), (lang, msgid, cat[msgid])
    # The legend explains each category in the rules' own term (chkobba.md, Vocabulary).
    terms = {"en": ["Karta", "Dinari", "Barmila", "Sab'a l-hayya", "Baji"],
             "fr": ["Karta", "Dinari", "Barmila", "Sab'a l-hayya", "Baji"],
             "ar": ["كارطة", "ديناري", "برميلة", "سبعة الحية", "باجي"]}[lang]
    legend = ["Karta: 1 point to the side with more cards.",
              "Dinari: 1 point to the side with more ♦ diamonds.",
              "Barmila: 1 point to the side with more 7s; if tied, more 6s.",
              "Sab'a l-hayya: 1 point to the side holding the 7 of diamonds.",
              "Baji: a tie; the point goes to nobody."]
    for term, msgid in zip(terms, legend, strict=True):
        assert cat[msgid].startswith(term), (lang, msgid)


def test_french_punctuation_spacing() -> None:
    """French puts a narrow no-break space (U+202F) before : ; ! ? (never a plain space, never none)."""
    for m in _po("fr"):
        if not m.id:
            continue
        for text in _texts(m.string):
            for bad in re.finditer(r"(?:[^\u202f]|^)[:;!?](?=\s|$)", text):
                raise AssertionError(f"{m.id!r}: {text!r} at {bad.start()}")


def test_arabic_names_take_no_gendered_verb() -> None:
    """Arabic lines about a player are worded without a verb agreeing with the name's gender:
    no present-tense verb (يـ) and no away/back adjective or verb right after the name."""
    for m in _po("ar"):
        if m.id and "{name}" in str(m.id):  # each form of a plural message too
            for text in _texts(m.string):
                assert not re.search(r"\{name\} (ي|عاد|غائب)", text), (m.id, text)


def test_french_colon_after_a_joined_category() -> None:
    """A round category and its winner are one entry, so French spaces its colon (U+202F) too."""
    assert {m.id: m.string for m in _po("fr")}["{category}: {winner}"] == "{category}\u202f: {winner}"


def test_arabic_card_words_match_the_rules() -> None:
    """The rules panel names the king as the card names do (شايب), and the 2 takes the form
    that reads right after a verb ("تأكل اثنين ديناري")."""
    ar = {m.id: m.string for m in _po("ar") if m.id}
    values = next(s for i, s in ar.items() if isinstance(i, str) and i.startswith("Card values:"))
    assert ar["king of diamonds"].startswith("شايب") and "الشايب (K)" in values and "الملك" not in values
    for suit in ("diamonds", "hearts", "spades", "clubs"):
        assert ar[f"2 of {suit}"].startswith("اثنين ")


def test_computer_players_are_named_as_the_home_page_names_them() -> None:
    """A computer player is "Computer 2" («الحاسوب 2»), in a list of seats "Computer 2 · easy":
    the home page's name and its levels, never a strategy's id (the Arabic phone trial read
    «لاعب آلي 2 (طمّاع)»)."""
    for lang, computer, easy in (("fr", "Ordinateur", "facile"), ("ar", "الحاسوب", "سهل")):
        words = {m.id: m.string for m in _po(lang) if m.id}
        assert words["Computer {n} · {level}"] == f"{computer} {{n}} · {{level}}" and words["easy"] == easy
        assert words["Computer {n}"] == f"{computer} {{n}}"
        assert "greedy" not in words and "آلي" not in words["Seat a computer player"]


def test_card_counts_take_plural_forms() -> None:
    """Card counts are plural messages (ngettext): Arabic gets its six forms (0, 1, 2, 3–10,
    11–99, 100+), French its three, each with the count, except that Arabic's one and two say
    the number in the word and do not repeat it (issue 13, item 8: not "2 ورقتان") and its zero
    says none (not "0 ورقة"); the scripts get every form."""
    ar = i18n.js_catalogue("ar")
    for msgid in ("{n} card", "{n} card in hand", "Pile: {n} card"):
        forms = ar[msgid]
        assert isinstance(forms, list) and len(forms) == 6
        assert all("{n}" in f for i, f in enumerate(forms) if i not in (0, 1, 2))
        assert "لا أوراق" in forms[0]  # none: not "0 ورقة" (trial item 7)
        assert "{n}" not in forms[1] and "{n}" not in forms[2] and "ورقتان" in forms[2]
    assert ar["{n} card"][1:5] == ["ورقة واحدة", "ورقتان", "{n} أوراق", "{n} ورقة"]
    assert i18n.js_catalogue("fr")["{n} card"] == ["{n} carte", "{n} de cartes", "{n} cartes"]


def test_waiting_for_one_player_to_look_is_singular() -> None:
    """golf4's peek line is a plural message: French says 'doit … ses' for one player, 'doivent …
    leurs' for several (trial item 5); Arabic calls Seven Diamonds by the seed's name everywhere."""
    fr = i18n.js_catalogue("fr")["{names} still has to look at their cards."]
    assert fr[0] == "{names} doit encore regarder ses cartes." and "doivent" in fr[2] and "leurs" in fr[2]
    ar = {m.id: m.string for m in _po("ar") if isinstance(m.id, str)}
    assert ar["Seven Diamonds"] == "سبعة الديمن"
    # The game is «سبعة الديمن» wherever it is named; «سبعة الديناري» is only the card 7♦ (the
    # phone trial's second round: «العب سبعة الديناري», not «العب السبعة ديناري»).
    named = {k: v for k, v in ar.items() if "Seven Diamonds" in k}
    assert named and all("سبعة الديمن" in v and "سبعة الديناري" not in v for v in named.values()), named


def test_arabic_and_is_spaced_before_a_latin_key() -> None:
    """Arabic's و ('and') is written apart from a Latin key name ('Home و End'): glued ('وEnd') the
    right-to-left line shows the key torn from its word (trial item 7)."""
    for m in _po("ar"):
        if m.id:
            for text in _texts(m.string):
                assert not re.search(r"(?:^|\s)و[A-Za-z]", text), (m.id, text)


def test_french_card_lines_take_no_article() -> None:
    """French card names are feminine or masculine ('la dame', 'le roi', 'l’as'), so a line never
    puts an article before {card}: it says 'défausse : {card}' as Chkobba's 'pose : {card}'
    (the golf4 trial read 'le dame de pique')."""
    for m in _po("fr"):
        if m.id:
            for text in _texts(m.string):
                assert not re.search(r"\b(le|la|l’|du|au) \{card\}", text), (m.id, text)


def test_seconds_take_arabic_number_agreement() -> None:
    """The home page's seconds are plural messages (ngettext), so Arabic agrees with the number
    (the phone trial read «بعد 10 ثانية»): 3-10 take ثوانٍ, 11 and more ثانية; the catalogue's
    Plural-Forms has Arabic's six forms, and the page's options read right."""
    po = _po("ar")
    assert po.num_plurals == 6
    forms = {m.id[0]: m.string for m in po if isinstance(m.id, tuple)}
    # (a no-break space holds the number to its unit: the phone trial's second round, item 4)
    assert forms["After %(n)s second"][3] == "بعد %(n)s\u00a0ثوانٍ"
    assert forms["After %(n)s second"][4] == "بعد %(n)s\u00a0ثانية"
    assert forms["%(n)s second"][2] == "ثانيتان"
    ar = i18n.environment("ar")
    html = ar.get_template("_play_now.html").render(lang="ar", static="/static/", config={}, games=[])
    assert "بعد 10\u00a0ثوانٍ" in html and "بعد 30\u00a0ثانية" in html and "بعد 120\u00a0ثانية" in html
    assert "10\u00a0ثانية" not in html


def test_arabic_for_is_written_onto_the_name() -> None:
    """Arabic's لـ ('for') is written against its placeholder ('شكبة لـ{name}!'), so the page's fmt
    joins it to an Arabic name («للاعب آلي 2», not «لـ لاعب»); and a side's names are joined
    with و, never '&'."""
    ar = i18n.js_catalogue("ar")
    assert ar["Chkobba for {name}!"] == "شكبة لـ{name}!"
    assert ar["{a} and {b}"] == "{a} و{b}"
    assert i18n.js_catalogue("fr")["{a} and {b}"] == "{a} et {b}"
    for m in _po("ar"):
        for text in _texts(m.string) if m.id else ():
            assert "لـ {" not in text and "&" not in text, (m.id, text)


def test_one_against_one_says_you_and_your_opponent() -> None:
    """In 1v1 a side is one player: the page says 'You' / 'Your opponent' (not 'Your side' /
    'Opponents', the trial's «فريقك» / «الخصوم»), in every language."""
    for lang, you, opponent in (("en", "You", "Your opponent"), ("fr", "Vous", "Votre adversaire"),
                                ("ar", "أنت", "خصمك")):
        cat = i18n.js_catalogue(lang)
        assert (cat["You"], cat["Your opponent"]) == (you, opponent)
        assert cat["Your side"] != cat["You"]


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_admin_catalogue_is_complete_and_compiled(lang: str) -> None:
    """The admin domain (dineri/admin/i18n.py) is as complete as the player pages' catalogue:
    every string of admin.pot translated, the placeholders kept, the .mo compiled from it."""
    with open(TRANSLATIONS / "admin.pot", "rb") as f:
        pot = {_key(m.id) for m in read_po(f) if m.id}
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "admin.po", "rb") as f:
        po = read_po(f, locale=lang)
    done = {m.id: m.string for m in po if m.id and all(_texts(m.string)) and not m.fuzzy}
    assert {_key(i) for i in done} == pot
    for msgid, value in done.items():
        wanted = sorted(PLACEHOLDER.findall(_key(msgid)))
        for form, text in enumerate(_texts(value)):
            if not (lang == "ar" and isinstance(msgid, tuple) and form in (0, 1, 2)):
                assert sorted(PLACEHOLDER.findall(text)) == wanted, (lang, msgid, form)
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "admin.mo", "rb") as f:
        mo = {(m.id if isinstance(m.id, str) else tuple(m.id)): _texts(m.string) for m in read_mo(f) if m.id}
    assert mo == {k: _texts(v) for k, v in done.items()}, "run pybabel compile -D admin"


@pytest.mark.parametrize(("lang", "greedy", "hard"), [
    ("en", "Computer 2 · easy", "Computer 3 · hard"),
    ("fr", "Ordinateur 2 · facile", "Ordinateur 3 · difficile"),
    ("ar", "الحاسوب 2 · سهل", "الحاسوب 3 · صعب"),
])
def test_server_pages_name_computers_as_the_scripts_do(lang: str, greedy: str, hard: str) -> None:
    """Server-rendered pages (a profile's match history) name a computer as Dineri.displayName
    does, never by its stored "Bot 2 (greedy)"; other names are left as they are."""
    page = i18n.environment(lang).from_string("{{ shown_name(a) }}|{{ shown_name(b) }}|{{ shown_name(c) }}")
    html = page.render(a="Bot 2 (greedy)", b="Bot 3 (hard)", c="Bot 2 (greedy) x")
    assert html == f"{greedy}|{hard}|Bot 2 (greedy) x"
