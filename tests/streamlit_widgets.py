"""Driving Streamlit's widgets from Playwright as a learner does, for the browser tests."""

from __future__ import annotations

from playwright.sync_api import expect

TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Wait two frames: what a run or a key changed is on the page (Streamlit applies a finished run, and drops
its stale elements, in the frame after the message)."""


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label``, from the keyboard.

    The option's name is typed first, as a learner filters a long list (Streamlit draws only the
    options that fit in the open list), then the arrow keys move to it and Enter picks it. Not a
    click: a box near the bottom of the screen opens its list below the screen's edge, where
    Chromium cannot click it (Playwright waits 30 s on "element is outside of the viewport").
    """
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    page.keyboard.type(option)
    # The list is read only once it is filtered by the whole name: the options' ids are their places
    # in the list drawn, so a list read while the last keys were still arriving (a busy machine) gave
    # the place and id of the unfiltered list, and the arrow keys stopped on the wrong option.
    expect(box).to_have_value(option)
    page.evaluate(TWO_FRAMES)
    wanted = page.get_by_role("option", name=option, exact=True)
    expect(wanted).to_have_count(1)
    shown = page.get_by_role("option").all_inner_texts()  # the filtered list, the first one highlighted
    for _ in range(shown.index(option)):
        page.keyboard.press("ArrowDown")
    expect(box).to_have_attribute("aria-activedescendant", wanted.get_attribute("id"))
    page.keyboard.press("Enter")


def seen_texts(elements) -> list[str]:
    """The text of each element the locator ``elements`` matches, as drawn, once each one is seen.

    Not as soon as it is in the page: what follows a widget whose code is still arriving waits unseen
    (``ui/page_css.py``) with its text already there, and an unseen element's ``innerText`` is ""
    (``tests/test_browser_why.py`` holds a menu's code back to show it).
    """
    for index in range(elements.count()):
        expect(elements.nth(index)).to_be_visible()
    return elements.all_inner_texts()
