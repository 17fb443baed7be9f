"""The "Why tokenization matters" page in Chromium, in one session: each card's chips and ids are
tiktoken's and sit in the first screen, on a laptop (1366x768) and on a projector in presenter mode
(1280x720); the "try your own" counts follow the typing without Enter; axe finds no serious violation on the special
tokens card (the page's audit in tests/test_browser_a11y.py opens the languages card); every script
of the languages card is drawn (pictures with ``--screenshots``, to look at); the rows are read as
drawn, also when they wait unseen for the menu above them.

Expected ids come from tiktoken's own encodings built offline (``peers.tiktoken_encoding``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bpe.app.pages import WHY
from bpe.teaching.udhr import ARTICLE_1
from bpe.teaching.why_tokenization import PHENOMENA

from .conftest import ARTIFACTS, LAPTOP, TALL
from .peers import tiktoken_by_title, tiktoken_encoding
from .streamlit_widgets import seen_texts, switch_to_presenter_mode
from .test_browser_a11y import audit, url_path

pytestmark = pytest.mark.browser

LONG_TEXTS = {"languages", "cost", "code", "special-tokens"}
"""Cards whose texts are long (a sentence, a function): the first screen holds GPT-2's chips; on
every other card, all of GPT-2's, GPT-4's and GPT-4o's."""


AUDITED = {"special-tokens"}
"""Cards axe audits here: the page's own audit (tests/test_browser_a11y.py) opens the languages card,
with its chart; the special tokens card draws its rows of special tokens differently from both."""


@pytest.fixture(scope="module")
def tiktokens() -> dict:
    return tiktoken_by_title()


def open_card(page, app_url: str, key: str) -> None:
    page.goto(f"{app_url}/{url_path(WHY.file)}?card={key}")
    expect(page.get_by_role("heading", name=PHENOMENA[key].question)).to_be_visible()
    expect(page.locator(".bpe-splits").first).to_be_visible()


def split_rows(page):
    return page.locator(".bpe-splits").first.locator("tbody tr")


def check_rows(page, text: str, tiktokens: dict, *, in_first_screen: int) -> None:
    """Each OpenAI row shows tiktoken's count and ids; the chips of the first ``in_first_screen``
    rows lie inside the viewport (nothing scrolled)."""
    height = page.viewport_size["height"]
    for index, (name, encoding) in enumerate(tiktokens.items()):
        row = split_rows(page).nth(index)
        ids = encoding.encode(text, disallowed_special=())
        expect(row.locator("th")).to_contain_text(name)
        expect(row.locator(".bpe-count")).to_have_text(f"{len(ids):,} token{'s' * (len(ids) != 1)}")
        drawn = row.locator(".bpe-id")
        expect(drawn.first).to_have_text(str(ids[0]))
        shown = seen_texts(drawn)
        assert shown == [str(token_id) for token_id in ids[: len(shown)]] and len(shown) >= min(48, len(ids))
        if index < in_first_screen:
            box = row.locator(".bpe-tokens").bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{name}'s chips end at {box['y'] + box['height']:.0f} of {height}"


MENUS_CODE = "**/static/js/Selectbox.*.js"
"""Streamlit's script for ``st.selectbox``: the languages card's menu is the first the page shows."""


def test_the_rows_are_read_once_seen_when_they_follow_a_menu_whose_code_is_still_arriving(page, app_url, tiktokens):
    """The languages card is the first card with a menu (sixteen languages), so Streamlit fetches the
    menu's code when a teacher picks the card; the rows below wait unseen until it is drawn, their
    text already in the page. That was a full run's failure: every id read as "" on a loaded machine.
    Here the menu's code is held until a second after ``check_rows`` has started reading."""
    held = []

    def release(route) -> None:
        for request in held:
            request.continue_()
        route.fulfill(status=204)

    page.route(MENUS_CODE, lambda route: held.append(route))
    page.route("**/release-the-menus-code", release)
    try:
        open_card(page, app_url, "numbers")
        show_card(page, "languages")
        text = PHENOMENA["languages"].samples[0][1]
        ids_line = split_rows(page).first.locator(".bpe-ids")
        expect(ids_line).to_contain_text(str(tiktokens["GPT-2"].encode(text)[0]))  # in the page ...
        expect(ids_line).to_be_hidden()  # ... and not seen yet
        assert held, f"no request matched {MENUS_CODE}: Streamlit's menu script has another name now"
        page.evaluate("() => { setTimeout(() => fetch('/release-the-menus-code'), 1000); }")
        check_rows(page, text, tiktokens, in_first_screen=1)
    finally:
        page.unroute_all(behavior="ignoreErrors")


def show_card(page, key: str) -> None:
    """Pick a card by its pill, as a teacher does (a rerun of the same session, no new page load)."""
    pills = page.get_by_test_id("stButtonGroup").first.locator("button")
    pills.filter(has_text=re.compile(f"^{re.escape(PHENOMENA[key].title)}$")).click()
    expect(page.get_by_role("heading", name=PHENOMENA[key].question)).to_be_visible()
    expect(page.locator('[data-stale="true"]')).to_have_count(0)


def test_every_cards_chips_and_ids_are_tiktokens_on_a_laptop_and_a_projector_and_typed_text_counts_without_enter(
    page, app_url, picture, tiktokens,
):
    """Every card on a laptop, then (the same session, as a teacher switches) every card again on a
    projector in presenter mode; the special tokens card is also audited by axe, whole, on the way.
    Then "try your own" counts while the teacher types, without Enter."""
    open_card(page, app_url, next(iter(PHENOMENA)))
    for presenting in (False, True):
        if presenting:
            switch_to_presenter_mode(page)
        for key, card in PHENOMENA.items():
            show_card(page, key)
            check_rows(page, card.samples[0][1], tiktokens, in_first_screen=1 if key in LONG_TEXTS else 3)
            picture(page, f"why-{key}" + "-presenter" * presenting)
            if key in AUDITED and not presenting:
                page.set_viewport_size(TALL)
                audit(page, picture, f"why-{key}-axe")
                page.set_viewport_size(LAPTOP)

    show_card(page, "numbers")
    box = page.get_by_role("textbox", name="Try your own text")
    box.fill("")
    text = "9876543210 - 123"
    box.press_sequentially(text, delay=40)  # no Enter, no leaving the box
    counts = " · ".join(f"{name}: {len(encoding.encode(text))} tokens" for name, encoding in tiktokens.items())
    expect(page.get_by_text(counts)).to_be_visible()
    expect(box).to_be_focused()


@pytest.mark.screenshots
def test_screenshots_of_every_language_drawn(page, app_url):
    """One picture of every language's sentence as tokens (to look for empty boxes), and all of them
    side by side in ``why-every-script.png``."""
    from PIL import Image

    open_card(page, app_url, "languages")
    pictures = []
    for sentence in ARTICLE_1:
        menu = page.get_by_role("combobox").first
        menu.click()
        page.get_by_role("option", name=sentence.language, exact=True).click()
        expect(split_rows(page).first.locator(".bpe-count")).to_have_text(
            f"{len(tiktoken_encoding('gpt2').encode(sentence.text)):,} tokens"
        )
        path = ARTIFACTS / f"why-script-{sentence.code}.png"
        split_rows(page).first.screenshot(path=str(path))
        pictures.append(Image.open(path))
    width = max(picture.width for picture in pictures)
    sheet = Image.new("RGB", (width, sum(picture.height for picture in pictures)), "white")
    top = 0
    for picture in pictures:
        sheet.paste(picture, (0, top))
        top += picture.height
    sheet.save(ARTIFACTS / "why-every-script.png")
