"""Driving Streamlit's widgets from Playwright as a learner does, for the browser tests."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PROJECTOR

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


SIDEBAR_FOLDED = """() => { const sidebar = document.querySelector('[data-testid="stSidebar"]');
  return !sidebar || (sidebar.getBoundingClientRect().right <= 0 && sidebar.getAnimations().length === 0); }"""
"""The sidebar is folded away and done moving (its own transitions: transform, min- and max-width)."""


def switch_to_presenter_mode(page) -> None:
    """A projector's screen, then presenter mode switched on in the sidebar, as a teacher does it
    (the same session, redrawn in large type)."""
    page.set_viewport_size(PROJECTOR)
    page.get_by_test_id("stSidebar").get_by_text("Presenter mode").click()
    expect(page.get_by_role("button", name="Leave presenter mode")).to_be_visible()
    expect(page.locator("html")).to_have_css("font-size", "22px")
    # Then the sidebar folds away, and the page slides left as it goes: it stays put for about 180 ms
    # after the large type, then moves 300 px in 180 ms. A click in that window pressed a pill that had
    # moved away before the button was let go, and the press was dropped (fresh-clone run 21).
    page.wait_for_function(SIDEBAR_FOLDED)
