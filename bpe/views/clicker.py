"""The clicker's part of a page: where the lesson is, the script that routes PageDown / PageUp to it,
and the hint that says why a key cannot act.

A presenter's clicker sends PageDown and PageUp. Streamlit binds a key to a button (``shortcut=``),
but only while no control holds the focus the key means something to: after a click on a slider,
PageDown moves the slider (the lesson steps *backwards*); after a select, a switch or a text box,
Streamlit's shortcut ignores it and nothing happens. So every lesson page draws
:func:`clicker_html`: a marker naming the page's Next and Previous buttons (by their public
``st-key-<key>`` class) and where the lesson is, and :data:`CLICKER_JS`, installed once per browser
tab, takes PageDown / PageUp before any control does and clicks the marked button, after taking the
focus from the control (a select's list closes, a text box hands in its text). A text box keeps its
keys outside presenter mode (a learner typing may page through a long text); on a projector the
clicker's keys are the lesson's. A page without the marker (the two tools) keeps every key.

When the button is disabled (the last step, the first card) the key shows the marker's hint for a
few seconds instead of doing nothing silently: the hint is a live region, so a screen reader says
it too.

    >>> html = clicker_html(next_key="w.next.main", previous_key="w.prev.main", at=3, count=11,
    ...                     at_end="The last merge", at_start="Step 0", presenting=True)
    >>> 'data-next="st-key-w-next-main"' in html, 'data-at="3"' in html, 'data-present="1"' in html
    (True, True, True)
    >>> 'role="status"' in html
    True
    >>> "&lt;b&gt;" in clicker_html(next_key="k", previous_key="p", at=0, count=2, at_end="<b>", at_start="", label="<b>")
    True
"""

from __future__ import annotations

import html
import re

CLICKER_CSS = """
<style>
.bpe-clicker { display: flex; align-items: center; min-height: 1px; }
.bpe-clicker-at { font-size: .95rem; color: #1B1F24; }
.bpe-clicker-hint { position: fixed; left: 50%; bottom: 1.2rem; transform: translateX(-50%); z-index: 999990;
  max-width: min(40rem, 90vw); padding: .45rem .9rem; border-radius: .4rem; background: #1B1F24; color: #FFF;
  font-size: 1rem; box-shadow: 0 2px 8px rgba(0, 0, 0, .25); }
/* Empty, it stays in the page (a live region must be there before its text, or a screen reader misses it). */
.bpe-clicker-hint:empty { padding: 0; box-shadow: none; }
</style>
"""
"""The marker's label and the hint (fixed at the bottom of the screen, seen only while it has text)."""

CLICKER_JS = """<script>
(() => {
  document.currentScript?.remove();  // run, it leaves no script in the page (a page's scripts are suspect: tests/test_browser_hostile.py)
  if (window.bpeClicker) return;  // once per tab: Streamlit keeps the document across pages and reruns
  // what it holds, for a test that must know a press is still on its way (a waiting press sends nothing to the server)
  window.bpeClicker = {busy: () => sent !== null || waiting.length > 0};
  const KEEP_KEYS = /^(checkbox|radio|range|button|submit|reset|file|color)$/;
  const typing = (el) => !!el && (el.isContentEditable || el.tagName === "TEXTAREA"
    || (el.tagName === "INPUT" && !KEEP_KEYS.test(el.type) && el.getAttribute("role") !== "combobox"));
  const marker = () => document.querySelector(".bpe-clicker");
  let quiet = null;
  const say = (where, text, stay) => {
    const hint = where.querySelector(".bpe-clicker-hint");
    hint.textContent = text;
    clearTimeout(quiet);
    if (!stay) quiet = setTimeout(() => { hint.textContent = ""; }, 4000);
  };
  // A press acts on the page as drawn by the run before it: while the run a press asked for is not
  // drawn yet (a busy machine, a slow step), the next presses wait, in order, and the hint says so.
  let sent = null;  // {run, at}: the marker's run when the last press was acted on
  const waiting = [];
  const STALLED_MS = 20000;  // a press whose run never came (the page went elsewhere) holds none back
  const act = (forward) => {
    const here = marker();
    if (!here) { waiting.length = 0; return; }
    const lesson = document.querySelector(`.${forward ? here.dataset.next : here.dataset.previous} button`);
    const onward = here.dataset[forward ? "onward" : "backward"];
    const button = lesson && !lesson.disabled ? lesson : (onward && document.querySelector(`.${onward} button`)) || lesson;
    if (!button || button.disabled) {  // the lesson's end (or start): this press, and those after it the same way, say so once
      while (waiting.length && waiting[0] === forward) waiting.shift();
      say(here, forward ? here.dataset.end : here.dataset.start);
      // a press the other way still counts: PageDown past the end, then PageUp, goes back (all waiting were dropped once)
      if (waiting.length) act(waiting.shift());
      return;
    }
    const box = button.getBoundingClientRect();
    if (box.bottom < 0 || box.top > innerHeight) button.scrollIntoView({block: "start"});  // the lesson's part of a long page
    sent = {run: here.dataset.run, at: performance.now()};
    button.click();
  };
  // Streamlit's app element says whether a script runs (its data-test-script-state); no test id is named here
  const running = () => /^(running|rerunRequested)$/.test(document.querySelector("[data-test-script-state]")?.dataset.testScriptState);
  let settling = false;
  const busy = (where) => say(where, `Working on it: ${waiting.length} more press${waiting.length > 1 ? "es" : ""} to come`, true);
  const drawn = () => {  // the run a press asked for is drawn and done: act on the next press waiting
    const here = marker();
    // a run that redraws the marker while presses wait draws its hint empty: say it again there
    if (here && waiting.length && !here.querySelector(".bpe-clicker-hint").textContent) busy(here);
    if (!sent || settling) return;
    const stalled = performance.now() - sent.at > STALLED_MS;
    if (!stalled && ((here && here.dataset.run === sent.run) || running())) return;
    // subtle: a frame and a task more, so that the page's controls hold the values the run gave them
    // (React hands a widget its new value after the DOM shows it; a click before then sent the old one,
    // and a bound control's old value undid the press)
    settling = true;
    requestAnimationFrame(() => setTimeout(() => {
      settling = false;
      if (!stalled && running()) return;  // another run began meanwhile: wait for it too
      sent = null;
      const now = marker();
      if (waiting.length) act(waiting.shift());
      else if (now) say(now, "");
    }, 0));
  };
  new MutationObserver(drawn).observe(document.body, {subtree: true, childList: true, attributes: true,
    attributeFilter: ["data-run", "data-test-script-state"]});
  addEventListener("keydown", (event) => {
    if ((event.key !== "PageDown" && event.key !== "PageUp") || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    const here = marker();
    if (!here) return;  // a page without a lesson keeps its keys
    const focused = document.activeElement;
    if (typing(focused) && here.dataset.present !== "1") return;
    // First, before any control: a slider would step backwards, a select or a switch swallow the key.
    event.preventDefault();
    event.stopImmediatePropagation();
    if (focused && focused !== document.body && focused.blur) focused.blur();
    drawn();
    if (sent) {
      waiting.push(event.key === "PageDown");
      busy(here);
      return;
    }
    act(event.key === "PageDown");
  }, true);
})();
</script>"""
"""The router (see the module's docstring). ``stopImmediatePropagation`` in the capture phase on
the window: no control, and not Streamlit's own shortcut handler, sees the key after it. A press is
acted on only once the run the one before asked for has drawn the marker (``data-run`` is new on
every run) and finished, a frame later: two presses inside one busy run were one click then
(Streamlit folds the clicks of one button that wait for the same run into one), and a press on the
page before its controls took the run's values sent their old ones (a card's pills, Train's step
slider), which undid the press as if the learner had moved them back (``benchmarks/clicker_presses.py``
traced both); now presses wait, in order, and the hint says how many. ``window.bpeClicker.busy()`` says whether a
press is still on its way (acted on and not yet drawn, or waiting): a test waits on it, since a press
that waits has asked the server for nothing yet."""


def css_class(key: str) -> str:
    """The public class Streamlit gives an element with ``key=`` (every other character a ``-``).

    >>> css_class("w.next.main")
    'st-key-w-next-main'
    """
    return "st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip())


def clicker_html(
    *, next_key: str, previous_key: str, at: int, count: int, at_end: str, at_start: str, presenting: bool = False,
    label: str = "", run: int = 0, onward_key: str | None = None, backward_key: str | None = None,
) -> str:
    """The marker: the keys of the page's Next and Previous buttons, the lesson's place ``at`` of
    ``count`` (read by tests), the hints for the last and the first place, an optional visible
    ``label`` ("Card 3 of 7: Numbers"), the run that drew it (``run``: a new number every run, so
    the router knows a press's run is drawn), the keys of the buttons that go on to the lesson's
    next page and back to its previous one when the page's own lesson is at its end (``onward_key``,
    ``backward_key``), and the hint's live region. Every text is escaped."""
    attributes = {
        "class": "bpe-clicker", "data-next": css_class(next_key), "data-previous": css_class(previous_key),
        "data-at": str(at), "data-count": str(count), "data-end": at_end, "data-start": at_start,
        "data-present": "1" if presenting else "0", "data-run": str(run),
        **({"data-onward": css_class(onward_key)} if onward_key else {}),
        **({"data-backward": css_class(backward_key)} if backward_key else {}),
    }
    opening = " ".join(f'{name}="{html.escape(value)}"' for name, value in attributes.items())
    shown = f'<span class="bpe-clicker-at">{html.escape(label)}</span>' if label else ""
    return f'<div {opening}>{shown}<div class="bpe-clicker-hint" role="status" aria-live="polite"></div></div>'
