"""Languages of the admin pages: English, French, Arabic (issue 4 item 4).

The admin's strings have their own Babel domain, ``admin``
(``dineri/translations/<lang>/LC_MESSAGES/admin.po``, compiled to ``admin.mo`` and committed),
so they never collide with the player pages' ``messages`` catalogue. The language is the
player pages' choice (the ``dineri_lang`` cookie), else the browser's ``Accept-Language``,
else English. Templates autoescape every value.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from babel.support import Translations
from jinja2 import Environment, FileSystemLoader, select_autoescape

PACKAGE_DIR = Path(__file__).resolve().parent.parent
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
TEMPLATES_DIR = PACKAGE_DIR / "templates"
LANGUAGES = {"en": "English", "fr": "Français", "ar": "العربية"}
LANG_COOKIE = "dineri_lang"
DOMAIN = "admin"


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The page language: the cookie when it names a known language, else the first known
    language of ``Accept-Language`` by quality (``fr-TN`` -> ``fr``), else ``en``."""
    if cookie in LANGUAGES:
        return cookie
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, *params = part.strip().split(";")
        q = 1.0
        for p in params:
            key, _, val = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(val)
                except ValueError:
                    q = 0.0
        lang = tag.strip().lower().replace("_", "-").split("-")[0]
        if lang in LANGUAGES and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else "en"


def direction(lang: str) -> str:
    """``rtl`` for Arabic, else ``ltr``."""
    return "rtl" if lang == "ar" else "ltr"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled ``admin`` catalogue of ``lang`` (English, or a missing one: the msgids)."""
    if lang == "en":
        return gettext.NullTranslations()
    return Translations.load(str(TRANSLATIONS_DIR), [lang], domain=DOMAIN)


@cache
def environment(lang: str) -> Environment:
    """A Jinja2 environment for ``lang``: autoescaping on, ``_()`` / ``ngettext`` installed."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES_DIR)),
                      autoescape=select_autoescape(["html", "xml"], default_for_string=True),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env
