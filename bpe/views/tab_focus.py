"""A tab list keeps the keyboard's focus across the page's runs.

Streamlit draws a tab list anew on each run of the page and disables each tab until that tab's
part of the run has arrived. On a busy server, or a slow network, those parts come a frame or more
apart, and a tab disabled while it holds the focus loses it: the browser moves the focus to the
page itself. Train's tabs rerun the page when a learner switches them (``on_change="rerun"``), so a
learner moving through them with the arrow keys had the focus dropped under them, and the next
arrow did nothing (tests/test_browser_trust.py holds the server's messages to show it).

:data:`TAB_FOCUS_JS` gives the focus back: it remembers the tab list the focus was in, and when
that list's focused tab (React Aria marks it ``data-focused``) is enabled again while the focus
is on the page or on another tab of the list, it focuses that tab. Installed once per browser tab,
with the clicker's script (``ui/clicker.py``).

    >>> TAB_FOCUS_JS.startswith("<script>") and "window.bpeTabFocus" in TAB_FOCUS_JS
    True
"""

TAB_FOCUS_JS = """<script>
(() => {
  document.currentScript?.remove();  // run, it leaves no script in the page
  if (window.bpeTabFocus) return;  // once per tab: Streamlit keeps the document across pages and reruns
  window.bpeTabFocus = true;
  const LIST = '[role="tablist"]';
  let listAt = -1;  // which of the page's tab lists the focus was last in (-1: none)
  addEventListener("focusin", (event) => {
    const list = event.target.closest?.(LIST);
    listAt = list ? [...document.querySelectorAll(LIST)].indexOf(list) : -1;
  }, true);
  const mend = () => {
    const list = listAt >= 0 ? document.querySelectorAll(LIST)[listAt] : null;
    if (!list) return;
    const tab = list.querySelector('[role="tab"][data-focused="true"]');
    const active = document.activeElement;
    if (!tab || tab.getAttribute("aria-disabled") === "true" || tab === active) return;
    // only focus the page lost, or focus left on the tab an arrow moved from: never a learner's move elsewhere
    if (!active || active === document.body || list.contains(active)) tab.focus({preventScroll: true});
  };
  new MutationObserver(mend).observe(document.body, {subtree: true, attributes: true,
    attributeFilter: ["aria-disabled", "data-focused", "tabindex"]});
})();
</script>"""
"""The script: a tab that held the focus and was disabled while the page drew a run gets it back."""
