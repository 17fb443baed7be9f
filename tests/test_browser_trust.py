"""Pages a learner can trust, in a real browser: the address bar keeps up with the step, the keyboard
reaches every control of a step, and a tab switched from the keyboard keeps the focus while the page
draws the switch.

Waits are on content (Playwright's ``expect``). The address-bar test records, in the page, when the
query string changes and when the narration changes, and compares the order of the two.
"""

import re

import pytest
from playwright.sync_api import expect

from .streamlit_widgets import TWO_FRAMES


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


def test_a_tab_switched_by_the_keyboard_keeps_the_focus_while_the_page_draws_the_switch_part_by_part(new_tab, app_url):
    """On a busy server the parts of a run come frames apart, and Streamlit disables each tab until its
    part has come: the tab that held the focus lost it to the page (``bpe/views/tab_focus.py``). Here
    the server's messages after the switch are held, then let in one every two frames."""
    tab = new_tab()
    held, stream = [], {}

    def route(socket) -> None:
        server = socket.connect_to_server()
        stream["to_page"] = socket
        server.on_message(lambda message: held.append(message) if stream.get("hold") else socket.send(message))

    tab.route_web_socket("**/_stcore/stream", route)
    tab.goto(f"{app_url}/Train?preset=sennrich&step=2")
    state = tab.locator('[data-testid="stApp"]')
    expect(tab.locator(".bpe-narration")).to_contain_text("Merge 2 of 10")
    expect(state).to_have_attribute("data-test-script-state", "notRunning")
    tab.get_by_role("tab", name="Merges so far").focus()
    stream["hold"] = True
    tab.keyboard.press("ArrowRight")
    switched = tab.get_by_role("tab", name="Vocabulary so far")
    expect(switched).to_be_focused()
    disabled_on_the_way = released = 0
    for _ in range(2_000):  # until the run is drawn and done (a run is about 40 messages)
        if held:
            stream["to_page"].send(held.pop(0))
            released += 1
        tab.evaluate(TWO_FRAMES)  # meanwhile the server's next messages reach ``held``
        disabled_on_the_way += tab.locator('[role="tab"][aria-disabled="true"]').count() > 0
        if released and not held and state.get_attribute("data-test-script-state") == "notRunning":
            break
    stream["hold"] = False
    assert disabled_on_the_way, "no tab was disabled while the run came in: this check no longer shows the case"
    expect(switched).to_be_focused()
    tab.keyboard.press("ArrowRight")  # and the next arrow moves on from it
    expect(tab.get_by_role("tab", name="Compression")).to_be_focused()
