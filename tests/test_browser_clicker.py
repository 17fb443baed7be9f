"""A whole lesson on a clicker, in Chromium, in presenter mode at 1280x720: on every lesson page,
PageDown moves the lesson on, after a mouse click on any kind of control the page has.

A clicker sends PageDown and PageUp. A slider took PageDown for itself (the lesson stepped back), a
select, a switch or a text box swallowed it (nothing happened); ``ui/clicker.py`` routes the keys
to the page's lesson whatever holds the focus. Each lesson page draws a marker with where its lesson
is (``data-at`` of ``data-count``) and a hint for the key that cannot act, which the checks read.

The checks ride in each page's presenter-mode load in tests/test_browser_a11y.py (:data:`ON_A_PROJECTOR`):
first a PageDown with nothing focused (the lesson moves exactly one place, the link keeps it; the
picture ``clicker-<page>.png``), then for each kind of control on the page (:data:`KINDS`), in
turn: a mouse click on one (a select's list left open, a slider's thumb grabbed, a text box
entered), then PageDown: the lesson moves on, or, at its last place, the hint says why it cannot.
Waits are on content: after a click, until every run the page asked the server for is drawn (a
probe reads Streamlit's messages) and the clicker holds no press.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError, expect

from bpe.app import pages
from bpe.teaching.why_tokenization import PHENOMENA

from .streamlit_widgets import TWO_FRAMES

pytestmark = pytest.mark.browser

TOOL_PAGES = (pages.IMPORT_EXPORT, pages.CHECK, pages.CHECK_ENCODER)
TOOLS = tuple(page.url_name for page in TOOL_PAGES)
"""The tools keep every key: a text box there may page through a long text."""
LESSON_PAGES = tuple(page.url_name for page in pages.PAGES if page not in (pages.HOME, *TOOL_PAGES))
"""Every other page but Home is a lesson the clicker drives (a new page joins this test by its entry in ``PAGES``)."""

PROBE = """() => {
  if (window.bpeProbe) return;
  const probe = window.bpeProbe = {pending: false};
  const fields = (bytes) => {  // the top fields of a protobuf message: number -> value (a varint) or true
    const found = new Map(); let i = 0;
    const varint = () => { let value = 0, shift = 0, byte; do { byte = bytes[i++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80); return value; };
    while (i < bytes.length) {
      const tag = varint(), wire = tag & 7, field = Math.floor(tag / 8);
      if (wire === 0) found.set(field, varint()); else { found.set(field, true);
        if (wire === 2) i += varint(); else if (wire === 1) i += 8; else if (wire === 5) i += 4; else break; }
    }
    return found;
  };
  const heard = new WeakSet();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    // subtle: the bytes of this message only: protobufjs encodes small messages into slices of one shared
    // 8 KB pool, so the slice's whole buffer holds earlier messages too (read whole, it found or missed
    // a rerun at random)
    const sent = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (fields(sent).has(11)) probe.pending = true;  // BackMsg.rerun_script
    if (!heard.has(this)) {
      heard.add(this);
      this.addEventListener('message', (event) => {
        if (!(event.data instanceof ArrayBuffer)) return;
        const finished = fields(new Uint8Array(event.data)).get(6);  // ForwardMsg.script_finished
        if (finished !== undefined && finished !== 2) probe.pending = false;  // 2: stopped early for a newer run
      });
    }
    return send.call(this, data);
  };
}"""
"""Marks while the page has asked the server for a run that it has not finished: Streamlit's own
script state skips a quick run (React draws "running" and "notRunning" as one), and the page's
heartbeats are requests too, so the probe reads Streamlit's messages: a ``BackMsg`` with
``rerun_script`` (field 11) asks for a run, a ``ForwardMsg`` with ``script_finished`` (field 6) ends
one, unless it says the run stopped early for a newer one (``FINISHED_EARLY_FOR_RERUN``, 2)."""
ANSWERED = """() => !window.bpeProbe.pending && !document.querySelector('[data-stale="true"]')
  && document.querySelector('[data-testid="stApp"]').dataset.testScriptState === 'notRunning'
  && !window.bpeClicker?.busy()"""
"""No run asked for and not drawn, and no press of the clicker's still on its way (a press waiting for
the run before it has asked the server for nothing yet)."""
TIMERS_DUE = "() => new Promise((done) => setTimeout(done, 0))"
"""Every timer the page had set to run now has run: Streamlit sends a click's run from a timer
(``WidgetStateManager.scheduleFlush``: ``setTimeout(..., 0)``, so that the clicks of one moment go
as one run), and a page runs timers of the same delay in the order they were set (the HTML
standard's timer steps). Checked at once after a click, the page had asked for nothing yet; on a
busy machine the timer ran even after two frames, and the check's next click went into the same
run as the click before it (Byte inspector: "Inspect its bytes" and Next as one run, which shows
the first example, so the lesson did not move on)."""

CONTROLS = r"""() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const seen = (el) => el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
    && !(el.closest('details:not([open])') && el.tagName !== 'SUMMARY');
  main.querySelectorAll('[data-bpe-control]').forEach((el) => { delete el.dataset.bpeControl; });
  const found = [];
  const add = (kind, el) => {
    if (!seen(el)) return;
    el.dataset.bpeControl = String(found.length);
    found.push([kind, (el.innerText || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 40)]);
  };
  main.querySelectorAll('button:not([disabled]):not([aria-haspopup])').forEach((el) => { if (!el.closest('a')) add('button', el); });
  main.querySelectorAll('[role="tab"]').forEach((el) => add('tab', el));
  main.querySelectorAll('summary').forEach((el) => add('expander', el));
  main.querySelectorAll('input[type="range"]').forEach((el) => add('slider', el.closest('[data-testid="stSlider"]')));
  main.querySelectorAll('[role="combobox"]').forEach((el) => add('select', el));
  main.querySelectorAll('label:has(input[type="checkbox"])').forEach((el) => add('switch', el));
  main.querySelectorAll('input[type="radio"]').forEach((el) => { if (el.labels.length) add('radio', el.labels[0]); });
  main.querySelectorAll('textarea, input[type="text"]:not([role="combobox"]), input[type="number"]').forEach((el) => add('text box', el));
  main.querySelectorAll('[data-testid="stDataFrame"]').forEach((el) => add('table', el));
  return found;
}"""
"""Every control drawn in the main area, each marked ``data-bpe-control=<n>``: ``[kind, label]``."""
LEFT_ALONE = re.compile(r"Leave presenter mode|Start a class room|Copy|Download|Fullscreen|Show data|Search|Close")
"""Not part of a lesson: leaving presenter mode, opening a class room (another page's test), and the
toolbars Streamlit puts on tables and charts."""
KINDS = ("slider", "select", "switch", "radio", "text box", "table", "tab", "expander", "button")
"""The kinds of control, those that hold the focus and the keys first (a button gives both back):
each page's last control of each kind is clicked (one of a kind takes the keys as the others do,
and a click on each of twenty buttons would cost the suite more than it tells)."""
MARKER = ".bpe-clicker"


def where(page) -> tuple[int, int]:
    """``(place, places)`` of the page's lesson, from its marker."""
    marker = page.locator(MARKER)
    return int(marker.get_attribute("data-at")), int(marker.get_attribute("data-count"))


def answered(page) -> None:
    """Every run the page asked for is drawn (asked for by the last click too: :data:`TIMERS_DUE`)."""
    page.evaluate(TIMERS_DUE)
    page.wait_for_function(ANSWERED)
    page.evaluate(TWO_FRAMES)
    page.wait_for_function(ANSWERED)


def touch(page, kind: str, control) -> None:
    """A learner's mouse on ``control``."""
    if kind == "slider":  # on the thumb: the step stays, the slider has the focus
        thumb = control.locator('input[type="range"]').bounding_box()
        track = control.bounding_box()
        value = control.locator('input[type="range"]')
        fraction = (float(value.get_attribute("value")) - float(value.get_attribute("min"))) / max(
            float(value.get_attribute("max")) - float(value.get_attribute("min")), 1)
        page.mouse.click(track["x"] + 8 + fraction * (track["width"] - 16), thumb["y"] + thumb["height"] / 2)
    else:  # a select's list stays open, as a hand on a mouse leaves it
        control.click()


def step_on(page, what: str, *, exactly: bool = False) -> None:
    """PageDown moves the lesson on (``exactly``: one place), or at its last place says why it cannot."""
    at, count = where(page)
    page.keyboard.press("PageDown")
    hint = page.locator(f"{MARKER} .bpe-clicker-hint")
    if at >= count - 1:
        expect(hint, f"{what}: PageDown at the last place ({at} of {count}) says nothing").not_to_be_empty()
        assert where(page)[0] == at, f"{what}: PageDown at the last place moved the lesson"
        return
    if exactly:
        expect(page.locator(MARKER), f"{what}: PageDown did not take the lesson from {at} to {at + 1}").to_have_attribute(
            "data-at", str(at + 1))
        return
    try:
        page.wait_for_function(f"() => +document.querySelector('{MARKER}').dataset.at > {at}")  # the lesson moved on
    except TimeoutError as error:
        raise AssertionError(f"{what}: PageDown did not move the lesson on from {at} of {count}") from error


def clicker_lesson(page, picture) -> None:
    """The page's lesson by clicker, whatever was clicked last (see the module's docstring)."""
    name = page.url.split("?")[0].rsplit("/", 1)[-1]
    page.evaluate(PROBE)
    expect(page.locator(MARKER)).to_have_count(1)
    # In presenter mode, where a text box hands the keys to the lesson too (an earlier check on the same
    # load that leaves presenter mode for a laptop's view must switch it on again).
    expect(page.locator(MARKER)).to_have_attribute("data-present", "1")
    page.locator("h1").click()  # the focus in the page, on no control
    before = page.url
    step_on(page, f"{name}: the first PageDown", exactly=True)
    answered(page)
    assert page.url != before, f"{name}: the link does not keep the lesson's place ({before})"
    picture(page, f"clicker-{name}")
    for kind in KINDS:
        if where(page)[0] >= where(page)[1] - 1:  # room to move on: one place back, by clicker
            page.locator("h1").click()
            page.keyboard.press("PageUp")
            answered(page)
        drawn = page.evaluate(CONTROLS)
        of_kind = [(index, label) for index, (found, label) in enumerate(drawn) if found == kind and not LEFT_ALONE.search(label)]
        if not of_kind:
            continue
        index, label = of_kind[-1]  # the last: a control low on the page belongs to the place shown
        touch(page, kind, page.locator(f'[data-bpe-control="{index}"]'))
        answered(page)
        step_on(page, f"{name}: PageDown after a click on the {kind} {label!r}")
        answered(page)


def says_why_at_either_end(page, picture) -> None:
    """Train at its last merge: PageDown says training stopped there; at step 0, PageUp says so."""
    hint = page.locator(f"{MARKER} .bpe-clicker-hint")
    for button, key, said in (("Last", "PageDown", "training stopped here"), ("First", "PageUp", "before any merge")):
        if page.get_by_role("button", name=button, exact=True).is_enabled():  # the lesson may have got there
            page.get_by_role("button", name=button, exact=True).click()
            answered(page)
        page.keyboard.press(key)
        expect(hint).to_contain_text(said)
        expect(hint).to_be_visible()
    picture(page, "clicker-Train-at-step-0")


def card_names_beside_the_walk_on_a_phone(page, picture) -> None:
    """The Why page's row of card pills and the clicker's Previous / Next: on a phone the buttons are
    icons, and every pill keeps its card's name, inside the screen (the row's labels were all hidden
    once, then the row ran past the screen's edge)."""
    names = page.locator('[class*="st-key-bpe-walk-row"] [data-testid="stButtonGroup"] button p')
    expect(names.first).to_be_visible()
    drawn = names.evaluate_all("ps => ps.map((p) => [p.innerText, p.getBoundingClientRect().width, p.getBoundingClientRect().right])")
    assert len(drawn) == len(PHENOMENA) and all(width > 20 for _, width, _ in drawn), drawn  # every name drawn
    assert all(right <= page.viewport_size["width"] for _, _, right in drawn), drawn  # inside the phone's width


def keys_left_alone(page, picture) -> None:
    """A tool draws no lesson marker: PageDown and PageUp stay the page's own."""
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator(MARKER)).to_have_count(0)


ON_A_PROJECTOR = {address: clicker_lesson for address in LESSON_PAGES} | {address: keys_left_alone for address in TOOLS}
ON_A_PROJECTOR["Train"] = lambda page, picture: (clicker_lesson(page, picture), says_why_at_either_end(page, picture))
ON_A_PHONE = {"Why_tokenization_matters": card_names_beside_the_walk_on_a_phone}
"""Run by tests/test_browser_a11y.py in each page's load on a phone held upright."""
"""Run by tests/test_browser_a11y.py in each page's presenter-mode load at 1280x720, last (it steps on)."""


TIMERS_LATE = """(late) => { const set = window.setTimeout;
  window.setTimeout = (run, delay, ...rest) => set(run, Math.max(delay || 0, late), ...rest); }"""
"""Every timer of the page runs ``late`` ms or later, in the order they were set: a busy machine's
page, whose timers wait behind its frames."""


def test_answered_waits_for_a_click_sent_late_and_for_presses_the_clicker_holds(page, app_url):
    """With the page's timers late (:data:`TIMERS_LATE`), :func:`answered` still returns only once
    a click's run is drawn, and once every clicker press waiting for the run before it is drawn.
    Without :data:`TIMERS_DUE` the click's run was not drawn yet (the lesson still at the first
    example); without the clicker's ``busy()`` the second press was not."""
    page.goto(f"{app_url}/Byte_inspector")
    expect(page.locator(MARKER)).to_have_attribute("data-at", "0", timeout=60_000)
    page.evaluate(PROBE)
    answered(page)
    page.evaluate(TIMERS_LATE, 300)
    page.get_by_role("button", name="Inspect its bytes: f0 9f").click()  # none of the examples: no place
    answered(page)
    assert where(page)[0] == -1, "answered() returned before the click's run was drawn"
    page.locator("h1").click()
    page.keyboard.press("PageDown")  # to the first example
    page.keyboard.press("PageDown")  # waits in the clicker for the first's run, then the second
    answered(page)
    assert where(page)[0] == 1, "answered() returned before the press the clicker held was drawn"


TABLET = {"width": 820, "height": 1180}
"""A tablet held upright: wide enough for the captions a phone hides, driven by a finger."""


def test_a_touch_screen_reads_tap_where_a_mouse_reads_hover_and_no_key_names(browser, app_url, picture):
    """Chromium told it has a touch screen and no mouse (``hover: none``, ``pointer: coarse``):
    Encode's caption says "Tap a token", the walk's buttons show no "PageDown" badge."""
    context = browser.new_context(viewport=TABLET, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{app_url}/Encode_and_decode?preset=sennrich&step=10")
        caption = page.get_by_text("a token to mark its id, or an id to mark its token")
        expect(caption).to_be_visible(timeout=60_000)
        expect(caption.locator(".bpe-touch-only")).to_be_visible()
        expect(caption.locator(".bpe-touch-only")).to_have_text("Tap")
        expect(caption.locator(".bpe-hover-only")).to_be_hidden()
        expect(page.get_by_role("button", name="Walk merge by merge")).to_be_visible()
        badges = page.locator("button kbd")
        assert badges.count() >= 2  # the walk's PageUp / PageDown are drawn,
        assert not any(badge.is_visible() for badge in badges.all()), "a key's name on a touch screen"  # and hidden
        picture(page, "encode-tablet-touch-820x1180")
    finally:
        context.close()
