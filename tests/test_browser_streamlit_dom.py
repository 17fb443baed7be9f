"""Every selector our CSS uses on Streamlit's internal markup (``ui/streamlit_dom.py``) still
matches in the pinned Streamlit: a release that renames one fails here, not silently on screen.

One page holds nearly all of them: the Train page in presenter mode (a stepper with a slider, a
speed box and shortcut badges, captions, columns, and the tertiary "Leave presenter mode" button);
the others (``PROBED_ON``) are looked for on a page that draws them. The checks ride in those pages'
loads in presenter mode in tests/test_browser_a11y.py (:data:`ON_A_PROJECTOR`). What is drawn only
while a page is still arriving (``SEEN_WHILE_DRAWING``: the skeleton) is looked for by
tests/test_browser_steady_layout.py, on a page whose buttons' script it holds back.
"""

from playwright.sync_api import expect

from ui.page_css import PRESENTER_ROOT_PX
from ui.streamlit_dom import INTERNALS, PROBED_ON, SEEN_WHILE_DRAWING

TRAIN = "Train"


def selectors_drawn_on(address: str):
    """The check that every selector looked for on the page at ``address`` matches there."""
    wanted = [
        selector for selector in INTERNALS if selector not in SEEN_WHILE_DRAWING and PROBED_ON.get(selector, TRAIN) == address
    ]

    def check(page, picture) -> None:
        expect(page.locator("html")).to_have_css("font-size", f"{PRESENTER_ROOT_PX}px")  # the page's CSS is in
        missing = []
        for selector in wanted:
            try:  # auto-retrying: the stepper and the sidebar may still be drawing
                expect(page.locator(INTERNALS[selector]).first).to_be_attached(timeout=5_000)
            except AssertionError:
                missing.append(selector)
        assert missing == [], f"Streamlit no longer draws what these selectors match on /{address}: {missing}"

    return check


ON_A_PROJECTOR = {address: selectors_drawn_on(address) for address in {TRAIN, *PROBED_ON.values()}}


def test_every_selector_probed_elsewhere_is_on_the_checklist():
    """(That each page named is a page of the app: tests/test_browser_a11y.py checks its registries.)"""
    assert PROBED_ON.keys() <= INTERNALS.keys()
    assert SEEN_WHILE_DRAWING <= INTERNALS.keys()
