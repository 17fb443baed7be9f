"""Every selector our CSS uses on Streamlit's internal markup (``ui/streamlit_dom.py``) still
matches in the pinned Streamlit: a release that renames one fails here, not silently on screen.

One page holds them all: the Train page in presenter mode (a stepper with a slider, a speed box and
shortcut badges, captions, columns, and the tertiary "Leave presenter mode" button).
"""

import pytest
from playwright.sync_api import expect

from ui.page_css import PRESENTER_ROOT_PX
from ui.streamlit_dom import INTERNALS, PROBED_ON

from .conftest import FIRST_LOAD_MS

pytestmark = pytest.mark.browser


def test_every_selector_on_streamlits_markup_matches_on_the_train_page(page, app_url):
    page.goto(f"{app_url}/Train?preset=wikipedia&step=1&present=1")
    expect(page.locator(".bpe-narration").first).to_contain_text("Merge 1 of 3", timeout=FIRST_LOAD_MS)
    expect(page.locator("html")).to_have_css("font-size", f"{PRESENTER_ROOT_PX}px")  # the page's CSS is in
    missing = []
    for selector, probe in INTERNALS.items():
        if selector in PROBED_ON:
            continue
        try:  # auto-retrying: the stepper and the sidebar may still be drawing
            expect(page.locator(probe).first).to_be_attached(timeout=5_000)
        except AssertionError:
            missing.append(selector)
    assert missing == [], f"Streamlit no longer draws what these selectors match: {missing}"


@pytest.mark.parametrize("selector", list(PROBED_ON))
def test_every_selector_of_an_element_the_train_page_lacks_matches_on_its_own_page(page, app_url, selector):
    page.goto(f"{app_url}/{PROBED_ON[selector]}")
    expect(page.locator(INTERNALS[selector]).first).to_be_attached(timeout=FIRST_LOAD_MS)
