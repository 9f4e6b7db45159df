"""Languages of the browser client: negotiation, Babel catalogues, Jinja2 environments.

Three languages (issue 4): English ``en``, French ``fr``, Arabic ``ar`` (right to
left). The choice is the ``dineri_lang`` cookie when it names one of them, else
the best match of the browser's ``Accept-Language``, else English. Every string
of the templates and of the JavaScript comes from the catalogues in
``dineri/translations/<lang>/LC_MESSAGES/messages.mo`` (compiled from the ``.po``
files and committed, so a fresh install needs no build step).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.support import Translations
from jinja2 import Environment, FileSystemLoader, select_autoescape

PACKAGE_DIR = Path(__file__).resolve().parent.parent
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
TEMPLATES_DIR = PACKAGE_DIR / "templates"

#: Language code -> its own name, in the order of the language switch.
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "ar": "العربية"}
RTL = frozenset({"ar"})
DEFAULT = "en"
COOKIE = "dineri_lang"
#: The cookie keeps the choice for a year (seconds).
COOKIE_MAX_AGE = 365 * 24 * 3600


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """Pick the page language: *cookie* if it is a known code, else the best
    ``Accept-Language`` match (quality values honoured, ``fr-TN`` -> ``fr``),
    else ``"en"``. Never raises: malformed headers fall back to the default."""
    if cookie in LANGUAGES:
        return cookie
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        for param in fields[1:]:
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            wanted.append((-q, i, tag))
    for _q, _i, tag in sorted(wanted):
        try:
            lang = Locale.parse(tag.replace("-", "_")).language
        except (ValueError, UnknownLocaleError):
            continue
        if lang in LANGUAGES:
            return lang
    return DEFAULT


def direction(lang: str) -> str:
    """``"rtl"`` for Arabic, else ``"ltr"``."""
    return "rtl" if lang in RTL else "ltr"


@cache
def translations(lang: str) -> Translations:
    """The compiled catalogue of *lang* (a key of ``LANGUAGES``; ``KeyError`` otherwise)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    loaded = Translations.load(str(TRANSLATIONS_DIR), [lang], domain="messages")
    if not isinstance(loaded, Translations):
        raise FileNotFoundError(f"no compiled catalogue for {lang} under {TRANSLATIONS_DIR}")
    return loaded


@cache
def js_catalogue(lang: str) -> dict[str, str | list[str]]:
    """Every message of *lang*'s catalogue for the JavaScript (rendered into each page as JSON;
    the scripts look strings up in it): msgid -> translation, and for a plural message its
    singular msgid -> the list of its forms, in the order of the catalogue's Plural-Forms."""
    catalog: dict[Any, str] = translations(lang)._catalog  # babel keeps the parsed .mo here
    out: dict[str, str | list[str]] = {k: v for k, v in catalog.items() if isinstance(k, str) and k and v}
    plurals: dict[str, dict[int, str]] = {}
    for k, v in catalog.items():
        if isinstance(k, tuple) and k[0]:
            plurals.setdefault(k[0], {})[k[1]] = v
    for msgid, forms in plurals.items():
        out[msgid] = [forms[i] for i in sorted(forms)]
    return out


#: A computer player's stored name ("Bot 2 (greedy)", dineri/bot/inprocess.py).
_BOT_NAME = re.compile(r"^Bot (\d+) \((greedy|random|easy|medium|hard)\)$")


def display_name(name: str | None, lang: str) -> str:
    """The name a player reads for a stored player name in a list of players (a profile's match
    history): a computer's "Bot 2 (greedy)" as "Computer 2 · easy" («الحاسوب 2 · سهل»), the level
    in the players' words (random and greedy, the non-searching strategies, read as easy: the same
    rule as ``Dineri.fullName`` in static/js/common.js); any other name as it is (``""`` for none)."""
    m = _BOT_NAME.match(name or "")
    if not m:
        return name or ""
    t = translations(lang)
    level = {"random": "easy", "greedy": "easy"}.get(m.group(2), m.group(2))
    words = {"easy": t.gettext("easy"), "medium": t.gettext("medium"), "hard": t.gettext("hard")}
    return t.gettext("Computer {n} · {level}").format(n=m.group(1), level=words[level])


@cache
def environment(lang: str) -> Environment:
    """A Jinja2 environment with *lang*'s translations installed (``{{ _("…") }}``,
    new-style placeholders ``_("Hello %(name)s", name=…)``), autoescaping on."""
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=select_autoescape(["html", "xml"], default_for_string=True),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["shown_name"] = lambda name: display_name(name, lang)
    return env
