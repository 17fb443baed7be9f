"""WCAG 2.2 AA on every page, and every page on a phone and a projector: axe-core (the engine behind
Lighthouse's accessibility audit) and the drawn layout in Chromium.

axe-core comes from the PyPI package ``axe-playwright-python`` (pinned in requirements-dev.txt), which
bundles ``axe.min.js``; only that file is used: it is evaluated in the page, then ``axe.run`` audits
the whole document. The pages come from ``bpe.app.pages.PAGES``, so a page added later is audited too,
each in the state a lesson opens it in (:data:`LESSON_STATES`): on a phone held upright (it must fit
the phone's width: nothing pans sideways or is cut off at the right edge), then whole on a wide
screen, then, in the same session, in presenter mode on a projector's screen (switched on in the
sidebar), audited again, fitting the projector's width, its title whole. A lesson's own checks of
the page on a phone and on one projector screen run in the same load; the files that own them
(presenter, families, train_merge, streamlit_dom, encoding_lessons, extend) keep them in registries merged here.
Any *serious* or *critical* violation fails, with the rule, its help text and the first failing
elements, so the message says what to fix. With ``--screenshots``, each page is also saved as
``test-artifacts/page-<name>[-phone|-presenter].png``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bpe.app.pages import PAGES

from .conftest import ARTIFACTS, FIRST_LOAD_MS, PHONE, TALL
from .page_width import assert_fits_the_screens_width
from .streamlit_widgets import switch_to_presenter_mode
from . import test_browser_extend as extend
from . import test_browser_families as families, test_browser_presenter as presenter, test_browser_streamlit_dom as streamlit_dom
from . import test_browser_clicker as clicker, test_browser_encoding_lessons as encoding_lessons
from . import test_browser_train_merge as train_merge, test_browser_variants as variants

pytestmark = pytest.mark.browser

AXE_JS = Path(__import__("axe_playwright_python").__file__).with_name("axe.min.js")
FAILING = {"serious", "critical"}
LESSON_STATES = {
    # page's address: (the state a lesson opens it in, what shows that state is drawn); other pages open bare
    "Train": ("preset=sennrich&step=3", '[data-testid="stVegaLiteChart"] svg.marks'),
    "Encode_and_decode": ("preset=sennrich&step=10", ".bpe-linked .bpe-tok"),
    "Vocabulary": ("preset=sennrich&step=10", '[data-testid="stGraphVizChart"] svg text'),
    "Predict_the_next_merge": ("preset=sennrich&step=2", '[class*="st-key-w-quiz-answer-4"] button'),
    "Tie_break_lab": ("preset=wikipedia", ".bpe-tie-table"),
    "Counting_lab": ("text=aaabdaaabac&left=a&right=a", ".bpe-pair-counts"),
    "Pre-tokenization_lab": (families.LAB_TEXT, ".bpe-lab-table"),
    "Byte_inspector": ("", ".bpe-bytes"),
    "Compare": ("preset=sennrich", ".bpe-tokens .bpe-tok"),
    "Why_tokenization_matters": ("card=languages", '[data-testid="stVegaLiteChart"] :is(svg, canvas)'),  # its chart
    "Extend_a_tokenizer": (extend.EXTEND_STATE, ".bpe-headline"),
    "Vocabulary_health": (extend.HEALTH_STATE, '[data-testid="stMetric"]'),
    "Parity-aware_lab": ("merge=40", '[data-testid="stVegaLiteChart"] svg'),
}


def lesson_checks(*registries: dict) -> dict[str, list]:
    """``{page address: [check(page, picture), ...]}`` from the test files that own the checks."""
    merged: dict[str, list] = {}
    for registry in registries:
        for address, check in registry.items():
            merged.setdefault(address, []).append(check)
    return merged


ON_A_PHONE = lesson_checks(
    presenter.ON_A_PHONE, families.ON_A_PHONE, train_merge.ON_A_PHONE, encoding_lessons.ON_A_PHONE, extend.ON_A_PHONE,
    variants.ON_A_PHONE, clicker.ON_A_PHONE,
)
"""A lesson's checks of a page on a phone held upright, by the page's address."""
ON_A_PROJECTOR = lesson_checks(
    presenter.ON_A_PROJECTOR, families.ON_A_PROJECTOR, streamlit_dom.ON_A_PROJECTOR, encoding_lessons.ON_A_PROJECTOR,
    extend.ON_A_PROJECTOR, variants.ON_A_PROJECTOR, clicker.ON_A_PROJECTOR,  # the clicker last: it steps on
)
"""A lesson's checks of a page on one projector screen in presenter mode, by the page's address."""
# axe rates a skipped heading level (h1 -> h3) "moderate", but a screen-reader user navigating by
# headings loses the outline with it, so it fails here as well.
ALSO_FAILING = {"heading-order"}


def url_path(page_file: str) -> str:
    """Streamlit's address for a page file: ``pages/10_Import_and_export.py`` -> ``Import_and_export``.

    >>> url_path("app.py"), url_path("pages/1_Train.py"), url_path("pages/7_Pre-tokenization_lab.py")
    ('', 'Train', 'Pre-tokenization_lab')
    """
    if page_file == "app.py":
        return ""
    return re.sub(r"^\d+_", "", Path(page_file).stem)


def axe_violations(page) -> list[dict]:
    """axe-core's serious and critical violations (and skipped heading levels) on the page as it is now."""
    if page.evaluate("typeof axe === 'undefined'"):  # once per page load
        page.evaluate(AXE_JS.read_text(encoding="utf-8"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in FAILING or v["id"] in ALSO_FAILING]


# axe skips text whose colour comes from opacity on an ancestor (it reports it "incomplete"), which is
# how Streamlit draws keyboard-shortcut hints on buttons; so this measures them itself: WCAG 2.x
# contrast of the hint's colour, blended through every opacity up to the button, on the button's fill.
HINT_CONTRASTS = """() => {
  const rgba = (text) => text.match(/[\\d.]+/g).map(Number).concat([1]).slice(0, 4);
  const luminance = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  return [...document.querySelectorAll('button:not([disabled]) kbd')].map((kbd) => {
    const button = kbd.closest('button');
    let [r, g, b, a] = rgba(getComputedStyle(kbd).color);
    for (let el = kbd; el && el !== button.parentElement; el = el.parentElement) a *= Number(getComputedStyle(el).opacity);
    let fill = [255, 255, 255];
    for (let el = button; el; el = el.parentElement) {
      const [fr, fg, fb, fa] = rgba(getComputedStyle(el).backgroundColor);
      if (fa > 0) { fill = [fr, fg, fb]; break; }
    }
    const shown = [r, g, b].map((v, i) => v * a + fill[i] * (1 - a));
    const [hi, lo] = [luminance(shown), luminance(fill)].sort((x, y) => y - x);
    return [kbd.innerText, (hi + 0.05) / (lo + 0.05)];
  });
}"""


def report(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']} ({len(v['nodes'])} elements)")
        for node in v["nodes"][:3]:
            summary = node.get("failureSummary", "").splitlines()
            lines.append(f"    {node['target'][-1][-90:]}: {summary[-1].strip() if summary else ''}")
    return "\n".join(lines)


def wait_until_drawn(page) -> None:
    """The page's title is up, the script has finished, the app's stylesheet has arrived (st.html
    draws it a moment after the script ends; axe run before it would judge Streamlit's own colours)
    and every widget is drawn."""
    expect(page.locator("h1").first).to_be_visible()
    expect(page.locator('[data-testid="stApp"]')).to_have_attribute("data-test-script-state", "notRunning")
    page.wait_for_function("() => [...document.querySelectorAll('style')].some((s) => s.textContent.includes('.bpe-tokens'))")
    expect(page.locator('[data-stale="true"]')).to_have_count(0)
    # Widgets whose code loads lazily stand as grey skeletons first; axe would not see the real ones.
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0)


def audit(page, picture, name: str, *, whole: bool = True) -> None:
    """Fail on axe's serious or critical violations (and faint shortcut hints) on the page as it is
    drawn; the picture shows the ``whole`` page or the screen."""
    wait_until_drawn(page)
    violations = axe_violations(page)
    picture(page, f"page-{name}", full_page=whole)
    faint_hints = [(hint, round(ratio, 2)) for hint, ratio in page.evaluate(HINT_CONTRASTS) if ratio < 4.5]
    if violations:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(violations, indent=1), encoding="utf-8")
    assert not violations, f"{name}:\n{report(violations)}"
    assert not faint_hints, f"{name}: shortcut hints below WCAG AA's 4.5:1 contrast: {faint_hints}"


# The page's title and the first element drawn after it, with where each is.
TITLE_AND_NEXT = """() => {
  const title = document.querySelector('.stMain h1');
  let next = null;
  for (let el = title.closest('[data-testid="stElementContainer"]'); el && !next; el = el.parentElement) {
    for (let after = el.nextElementSibling; after && !next; after = after.nextElementSibling) {
      if (after.getBoundingClientRect().height > 0) next = after;
    }
  }
  return {title: title.innerText, bottom: title.getBoundingClientRect().bottom,
          next: next.innerText.slice(0, 40), top: next.getBoundingClientRect().top};
}"""


def assert_the_title_is_whole(page, name: str) -> None:
    """Nothing drawn after the title starts above the bottom of the title's box (a row of pills
    covered the lower half of a presenter-mode title when Streamlit pulled it up under the heading)."""
    found = page.evaluate(TITLE_AND_NEXT)
    assert found["top"] >= found["bottom"] - 0.5, f"{name}: {found['next']!r} covers the title {found['title']!r}: {found}"


FROM_THE_TOP = """() => { const start = document.createElement('div'); start.tabIndex = -1;
  document.body.prepend(start); start.focus(); start.remove(); }"""
"""The keyboard's place at the top of the page, as after a page load."""


def assert_the_first_tab_stop_skips_to_the_lesson(page, name: str) -> None:
    """The page's first Tab stop is Streamlit's "Skip to main content" (the sidebar's thirty-odd
    stops come after it), and it takes the keyboard into the main area."""
    page.evaluate(FROM_THE_TOP)
    page.keyboard.press("Tab")
    first = page.evaluate("() => document.activeElement.innerText.trim()")
    assert first == "Skip to main content", f"{name}: the first Tab stop is {first!r}"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('[data-testid=\"stMain\"]')"), f"{name}: the skip link leads elsewhere"


def test_every_lesson_state_and_lesson_check_is_of_a_page_of_the_app():
    addresses = {url_path(page.file) for page in PAGES}
    assert LESSON_STATES.keys() <= addresses
    assert ON_A_PHONE.keys() <= addresses and ON_A_PROJECTOR.keys() <= addresses


@pytest.mark.parametrize("page_file", [page.file for page in PAGES], ids=[page.title for page in PAGES])
def test_each_page_fits_a_phone_and_passes_axe_whole_and_in_presenter_mode(page, app_url, picture, page_file):
    """Each page as a learner opens it on a phone held upright (it must fit the phone's width); the
    same session with the window widened, seen whole (axe judges the contrast of text on the screen
    only; the sidebar opens as on a wide screen's first load); then as a teacher projects it: a
    1280x720 projector, presenter mode switched on in the sidebar (redrawn in large type), where what
    is laid out for a small screen shows, such as a panel that scrolls. A link with present=1 opens
    presenter mode too (tests/test_browser_presenter.py); either way the page is the same.

    The phone comes first: a window narrowed after its first drawing keeps a table as wide as it was
    (Streamlit's dataframe sizes itself once), which no phone would show."""
    path = url_path(page_file)
    name = path or "Home"
    query, drawn = LESSON_STATES.get(path, ("", "h1"))
    page.set_viewport_size(PHONE)
    page.goto(f"{app_url}/{path}?{query}" if query else f"{app_url}/{path}")
    expect(page.locator(drawn).first).to_be_attached(timeout=FIRST_LOAD_MS)
    wait_until_drawn(page)
    page.evaluate("() => document.fonts.ready.then(() => true)")  # no boxes where CJK or emoji will be
    assert_fits_the_screens_width(page, f"{name} on a phone held upright")
    picture(page, f"page-{name}-phone")
    for check in ON_A_PHONE.get(path, []):
        check(page, picture)
    page.set_viewport_size(TALL)
    expect(page.get_by_test_id("stSidebar")).to_be_visible()
    audit(page, picture, name)
    assert_the_first_tab_stop_skips_to_the_lesson(page, name)
    switch_to_presenter_mode(page)
    audit(page, picture, f"{name}-presenter", whole=False)
    assert_fits_the_screens_width(page, f"{name} in presenter mode at 1280x720")
    assert_the_title_is_whole(page, f"{name} in presenter mode")
    for check in ON_A_PROJECTOR.get(path, []):  # last: a lesson's check may step on, as a clicker does
        check(page, picture)
