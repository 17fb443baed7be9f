"""Pages a learner can trust, in a real browser: the address bar keeps up with the step.

Waits are on content (Playwright's ``expect``). The address-bar test records, in the page, when the
query string changes and when the narration changes, and compares the order of the two.
"""

import re

import pytest
from playwright.sync_api import expect


pytestmark = pytest.mark.browser

# Wraps history.pushState/replaceState (how Streamlit's frontend writes the query string) and
# watches the narration, recording the time of each change.
RECORDER = """() => {
  window.__seen = [];
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name].bind(history);
    history[name] = (...args) => { const out = original(...args);
      window.__seen.push(['url', performance.now(), location.search]); return out; };
  }
  new MutationObserver(() => {
    const text = document.querySelector('.bpe-narration')?.innerText || '';
    window.__seen.push(['narration', performance.now(), text.slice(0, 40)]);
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def test_the_address_bar_names_the_new_step_before_the_step_is_drawn(page, app_url):
    page.goto(f"{app_url}/Train?preset=python-docs&step=5")
    narration = page.locator(".bpe-narration")
    expect(narration).to_contain_text("Merge 5 of")
    page.evaluate(RECORDER)
    page.get_by_role("button", name="Previous").click()
    expect(narration).to_contain_text("Merge 4 of")
    expect(page).to_have_url(re.compile(r"step=4"))
    seen = page.evaluate("() => window.__seen")
    url_at = next(t for kind, t, value in seen if kind == "url" and "step=4" in value)
    drawn_at = next(t for kind, t, value in seen if kind == "narration" and "Merge 4 of" in value)
    assert url_at <= drawn_at, seen


FOCUSED = """() => { const el = document.activeElement;
  return (el.getAttribute('aria-label') || el.innerText || el.getAttribute('role') || el.tagName).trim().slice(0, 60); }"""


def test_the_keyboard_reaches_every_control_of_a_step(page, app_url):
    page.goto(f"{app_url}/Train?preset=sennrich&step=2")
    expect(page.locator(".bpe-narration")).to_contain_text("Merge 2 of 10")
    # Settled first: a rerun still in flight redraws the controls and drops the focus to the page top.
    expect(page.locator('[data-testid="stApp"]')).to_have_attribute("data-test-script-state", "notRunning")
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0)
    reached = []
    for _ in range(120):
        page.keyboard.press("Tab")
        reached.append(page.evaluate(FOCUSED))
    wanted = ["Presenter mode", "First", "Previous", "Next", "Last", "Play", "Merges so far"]
    missing = [name for name in wanted if not any(name in seen for seen in reached)]
    assert not missing, (missing, reached)
    page.get_by_role("tab", name="Merges so far").focus()  # a tab list: arrows move between its tabs
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Vocabulary so far")).to_be_focused()  # each move lands before the next
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Compression")).to_be_focused()
    page.get_by_role("button", name="Next").focus()  # and the stepper works from the keyboard
    page.keyboard.press("Enter")
    expect(page.locator(".bpe-narration")).to_contain_text("Merge 3 of 10")
