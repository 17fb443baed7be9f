"""Whether a page fits its screen's width: nothing pans sideways, nothing is cut off at the right edge.

Used by the browser tests of every page on a phone and on a projector in presenter mode
(tests/test_browser_a11y.py, which has every page open already) and of the Train page's screens.
"""

from __future__ import annotations

CUT_OFF = """() => [...document.querySelectorAll('[data-testid="stMain"] *')].filter(e => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.right <= innerWidth + 1) return false;
  for (let up = e; up && up.dataset.testid !== 'stMain'; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.clipPath !== 'none') return false;  // visually hidden, for screen readers
    if (up !== e && style.overflowX !== 'visible' && up.getBoundingClientRect().right <= innerWidth + 1) return false;  // in its own box
  }
  return true; }).map(e => `${e.tagName}.${e.className} ${e.textContent.slice(0, 40)}`)"""
"""Elements that reach past the screen's right edge outside a box that holds them (one that
scrolls, or a widget's own): the page would pan sideways, or (where the main area clips its
overflow) cut them off."""


def assert_fits_the_screens_width(page, what: str) -> None:
    """The page as drawn now neither pans sideways nor cuts anything off at the right edge."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{what}: the page pans sideways"
    cut_off = page.evaluate(CUT_OFF)
    assert cut_off == [], f"{what}: these reach past the screen's edge: {cut_off}"
