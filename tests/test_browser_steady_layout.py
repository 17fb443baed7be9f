"""What a page has drawn stays where it was drawn while the rest of it arrives.

Streamlit fetches the code of each kind of element (a button, a slider, ``st.html``) the first
time a page shows one, and draws a grey skeleton in its place meanwhile. A browser slow to draw
(a loaded laptop; Chromium with its CPU slowed 6x) drew Train's corpus and pair chart before the
stepper's buttons had arrived; the buttons' row then wrapped to two lines and pushed them 45 px
down, so a pointer resting on a bar was then on the bar two above it. That was the pair chart's
hover check failing in a full run (tests/test_browser_train_merge.py: bar 2's places marked while
bar 4 was hovered). ``ui/page_css.py`` keeps what follows a skeleton unseen until it is drawn.

The check makes the late arrival certain instead of likely: it holds back the buttons' code (its
request is answered only when the test says so), waits until the rest of the page is drawn, and
looks.
"""

import pytest
from playwright.sync_api import expect

from ui.page_css import STEPPER
from ui.streamlit_dom import SEEN_WHILE_DRAWING, SKELETON

pytestmark = pytest.mark.browser

BUTTONS_CODE = "**/static/js/Button.*.js"
"""Streamlit's script for ``st.button`` (one file, its name ending in a hash of its content)."""
DRAWN_AFTER_THE_STEPPER = {
    "the headline": ".bpe-headline",
    "the pair chart's first bar": 'svg path[aria-label="bpe-pair-1"]',
    "the corpus": ".bpe-merge-view",
}
"""What Train draws below its stepper, by what a learner calls it."""


def top(locator) -> float:
    """Where the element is laid out, seen or not (Playwright's bounding box is None for an unseen one)."""
    return locator.evaluate("e => e.getBoundingClientRect().top")


def test_what_train_drew_before_its_buttons_arrived_is_seen_only_where_it_stays(new_tab, app_url):
    tab = new_tab(1366, 900)
    held = []
    tab.route(BUTTONS_CODE, lambda route: held.append(route))  # answered below, once the rest of the page is drawn
    tab.goto(f"{app_url}/Train?preset=sennrich&step=3")
    below = {name: tab.locator(selector).first for name, selector in DRAWN_AFTER_THE_STEPPER.items()}
    for element in below.values():
        expect(element).to_be_attached()
    expect(tab.locator(f"{STEPPER} {SKELETON}").first).to_be_attached()  # the selector still matches
    assert held, f"no request matched {BUTTONS_CODE}: Streamlit's button script has another name now"
    drawn_at = {name: top(element) for name, element in below.items()}
    seen_early = [name for name, element in below.items() if element.is_visible()]

    for request in held:
        request.continue_()
    expect(tab.get_by_role("button", name="Next")).to_be_visible()
    for element in below.values():
        expect(element).to_be_visible()
    moved = {name: round(top(element) - drawn_at[name]) for name, element in below.items()}
    assert seen_early == [], f"seen before the stepper's buttons were drawn: {seen_early}; moved since (px): {moved}"
    assert any(moved.values()), f"nothing moved when the buttons arrived ({moved}): this check no longer shows the case"


def test_every_selector_seen_only_while_drawing_is_looked_for_here():
    assert SEEN_WHILE_DRAWING == {SKELETON}
