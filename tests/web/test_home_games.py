"""Fresh new-user trial: the home page presented the site as Chkobba's alone ("Play Chkobba
online", «العب الشكبة على الإنترنت», and only "How to play Chkobba") though three games are
offered, and "Play now" said "Golf" where "Create a table" said "Four-card Golf". The title names
card games, the page links to each game's rules (each link opens its own panel), and each game has
one name in both forms."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

WORDS = {
    "en": ("Dineri · Card games", "Play card games online",
           ["How to play Chkobba", "How to play Seven Diamonds", "How to play Four-card Golf"]),
    "fr": ("Dineri · Jeux de cartes", "Jouer aux cartes en ligne",
           ["Comment jouer à la Chkobba", "Comment jouer au Sept de carreau",
            "Comment jouer au Golf à quatre cartes"]),
    "ar": ("Dineri · ألعاب الورق", "العب الورق على الإنترنت", None),
}


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_the_home_page_offers_every_game(browser: Any, server: str, console: Any, lang: str) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
    page = console.watch(ctx.new_page())
    page.goto("/")
    title, heading, links = WORDS[lang]
    assert page.title() == title
    assert page.locator("h1").inner_text() == heading
    texts = page.locator("h1 + p .rules-link").all_inner_texts()
    assert len(texts) == 3, texts
    if links:
        assert texts == links
    for i, game in enumerate(("chkobba", "seven_diamonds", "golf4")):
        panel = page.locator(f"#rules-{game}")
        assert panel.get_attribute("open") is None
        page.locator(f'.rules-link[href="#rules-{game}"]').click()
        panel.locator("li").first.wait_for(state="visible")
        # The link's words are its panel's title.
        assert panel.locator("summary").inner_text() == texts[i]
    assert "Chkobba" not in page.title()
    # One name per game: "Play now" names Golf as "Create a table" does.
    radio = page.locator('#create-form input[name="game"][value="golf4"]')
    created = radio.locator("xpath=..").inner_text().strip()
    offered = page.locator('#play-queue option[data-game="golf4"]').inner_text().strip()
    assert offered == created, (offered, created)
    ctx.close()
    assert console.errors == []
