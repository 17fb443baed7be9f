"""Extend a tokenizer and Vocabulary health in Chromium: a clicker walks each lesson on a projector,
the before/after costs and the health groups are drawn on a laptop and a phone.

The checks ride in tests/test_browser_a11y.py's load of each page (it opens Extend as GPT-2 extended
on the Declaration in Amharic at its fifth new merge, and Vocabulary health as GPT-2's on the
Declaration), so they cost no page load of their own: :data:`ON_A_PHONE` runs on the phone held
upright, :data:`ON_A_PROJECTOR` last, in presenter mode at 1280x720. With ``--screenshots`` each
saves what a learner sees (``extend-*.png``, ``health-*.png``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import LAPTOP
from .streamlit_widgets import switch_to_presenter_mode

pytestmark = pytest.mark.browser

EXTEND_STATE = "from=gpt2&new=amh&at=5"
HEALTH_STATE = "of=gpt2&sample=udhr&part=0"


def to_the_top(page) -> None:
    """Back to the page's first screen (the audit before the check leaves it scrolled)."""
    page.locator("h1").first.scroll_into_view_if_needed()
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollTo(0, 0)")


def on_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= locator.page.viewport_size["height"] + 0.5


def leave_presenter_mode_on_a_laptop(page) -> None:
    page.get_by_role("button", name="Leave presenter mode").click()
    expect(page.get_by_role("button", name="Leave presenter mode")).to_have_count(0)
    page.set_viewport_size(LAPTOP)


def extend_on_a_phone(page, picture) -> None:
    costs = page.locator('[data-testid="stVegaLiteChart"]').last
    costs.scroll_into_view_if_needed()
    expect(costs.locator("canvas, svg").first).to_be_visible()
    picture(page, "extend-costs-phone-390x844")


def extend_with_a_clicker(page, picture) -> None:
    """Presenter mode: the fifth new merge's narration, stats and chart on the first screen; PageDown
    goes on to the sixth (the link follows); then the laptop's view of the costs before and after."""
    to_the_top(page)
    headline = page.locator(".bpe-headline")
    expect(headline).to_contain_text(re.compile(r"Merge 5 of \d+"))
    assert on_screen(headline) and on_screen(page.locator('[data-testid="stVegaLiteChart"]').first)
    picture(page, "extend-projector-1280x720")
    headline.click()  # the keyboard's focus in the page, on no widget, as with a clicker
    page.keyboard.press("PageDown")
    expect(headline).to_contain_text(re.compile(r"Merge 6 of \d+"))
    expect(page).to_have_url(re.compile(r"at=6"))
    leave_presenter_mode_on_a_laptop(page)
    expect(page.get_by_role("combobox", name=re.compile("^Extend"))).to_be_visible()
    picture(page, "extend-laptop-1366x768")
    costs = page.get_by_text(re.compile(r"^The new text: "))
    costs.scroll_into_view_if_needed()
    expect(costs).to_contain_text("The old text (")
    expect(costs).to_contain_text("unchanged")
    page.locator('[data-testid="stVegaLiteChart"]').last.scroll_into_view_if_needed()
    picture(page, "extend-costs-laptop-1366x768")
    # Presenter mode again for the checks after this one on the same load (the clicker's lesson is a
    # projector's).
    switch_to_presenter_mode(page)


def health_on_a_phone(page, picture) -> None:
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(4)
    page.locator('[data-testid="stDataFrame"]').first.scroll_into_view_if_needed()
    picture(page, "health-table-phone-390x844")


def health_with_a_clicker(page, picture) -> None:
    """Presenter mode: the groups' counts and the first group on the first screen; PageDown walks to
    the next group (the link follows); then the laptop's view with a merge tree."""
    to_the_top(page)
    heading = page.locator("h2", has_text="Never emitted")
    expect(heading).to_be_visible()
    assert on_screen(page.locator('[data-testid="stMetric"]').first)
    picture(page, "health-projector-1280x720")
    page.locator("h1").first.click()  # the keyboard's focus in the page, on no widget, as with a clicker
    page.keyboard.press("PageDown")
    expect(page.locator("h2", has_text="Unreachable: 0 tokens")).to_be_visible()
    expect(page).to_have_url(re.compile(r"part=1"))
    page.keyboard.press("PageDown")
    expect(page.locator("h2", has_text="Part of a character")).to_be_visible()
    leave_presenter_mode_on_a_laptop(page)
    page.locator("h1").first.click()
    page.keyboard.press("PageUp")
    expect(page.locator("h2", has_text="Unreachable: 0 tokens")).to_be_visible()
    page.keyboard.press("PageUp")
    expect(page.locator("h2", has_text="Never emitted")).to_be_visible()
    expect(page.locator('[data-testid="stGraphVizChart"] svg text').first).to_be_visible()
    picture(page, "health-laptop-1366x768")
    # Presenter mode again for the checks after this one on the same load (the clicker's lesson is a
    # projector's).
    switch_to_presenter_mode(page)


ON_A_PHONE = {"Extend_a_tokenizer": extend_on_a_phone, "Vocabulary_health": health_on_a_phone}
ON_A_PROJECTOR = {"Extend_a_tokenizer": extend_with_a_clicker, "Vocabulary_health": health_with_a_clicker}
