"""Each lesson on one projector screen, driven by a clicker: presenter mode at 1280x720 in Chromium.

Every check reads bounding boxes of what Chromium drew: the lesson's elements (chips, the chart,
every answer button, the tree's labels) lie inside the first 1280x720 screen, unscrolled. Waits
are on content (Playwright's auto-retrying ``expect``), never on time.

The checks of a page in a lesson's state (:data:`ON_A_PROJECTOR`, :data:`ON_A_PHONE`) ride in that
page's load in tests/test_browser_a11y.py, which opens every page in that state on a phone, then in
presenter mode on a projector: a page load costs Chromium more than all the checks of a load. The
tests here need states or page loads of their own.
"""

import re

import pytest
from playwright.sync_api import expect

from ui.lesson_bar import BAR

from . import test_browser_clicker as clicker
from .conftest import FIRST_LOAD_MS, PHONE, PROJECTOR
from .page_width import assert_fits_the_screens_width
from .streamlit_widgets import choose, seen_texts

pytestmark = pytest.mark.browser
WIDTH, HEIGHT = PROJECTOR["width"], PROJECTOR["height"]
LESSON_BAR = f'[class*="st-key-{BAR}"]'
"""The lesson bar (``ui.lesson_bar``), fixed in the projector's bottom right corner."""

FIRST_SCREEN = """els => els.map(e => { const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; })"""
LABEL_PX = """svg => { const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * k]); }"""


@pytest.fixture
def projector(page):
    """The worker's lent tab (see tests/conftest.py's ``page``) at the projector's size."""
    page.set_viewport_size(PROJECTOR)
    return page


def all_on_first_screen(locator, what: str, *, at_least: int = 1) -> None:
    """Every element ``locator`` matches is drawn inside the first screen (and there are some)."""
    expect(locator.first).to_be_visible()
    placed = locator.evaluate_all(FIRST_SCREEN)
    assert len(placed) >= at_least, f"{what}: {len(placed)} drawn, expected at least {at_least}"
    assert all(placed), f"{what}: {placed.count(False)} of {len(placed)} lie outside the first {WIDTH}x{HEIGHT} screen"


def train_on_one_screen(page, picture) -> None:
    """Train at sennrich's step 3: the controls, the headline, the whole chart, the corpus and the tie reason."""
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 3 of 10")
    expect(page.locator(".bpe-merge-view .bpe-after")).to_be_visible()
    all_on_first_screen(page.locator(".bpe-headline"), "the headline")
    bars = page.locator('[data-testid="stVegaLiteChart"] svg path[aria-label^="bpe-pair-"]')
    expect(bars).to_have_count(10)  # the whole chart: all ten pairs of the step
    all_on_first_screen(bars, "the chart's bars", at_least=10)
    all_on_first_screen(page.locator(".bpe-merge-view .bpe-after .bpe-tok"), "the corpus after merge 3", at_least=60)
    reason = page.locator(".bpe-why li", has_text="rule prefers the greatest pair of byte strings")
    all_on_first_screen(reason, "the tie reason")
    all_on_first_screen(page.locator(".bpe-why li", has_text="Tied at 7"), "the tied pairs")
    step_buttons = [page.get_by_role("button", name=name) for name in ("First", "Previous", "Next", "Last", "Play")]
    for button in step_buttons:
        all_on_first_screen(button, f"the step button {button}")
    tops = {round(button.bounding_box()["y"]) for button in step_buttons}
    assert len(tops) == 1, f"the step buttons are not one row: tops {tops}"
    all_on_first_screen(page.get_by_role("slider"), "the step slider")
    expect(page.locator('[data-testid="stVegaLiteChart"] svg text', has_text="7 ◀ merged")).to_be_visible()  # an audience cannot hover
    assert_fits_the_screens_width(page, "Train in presenter mode at 1280x720")
    picture(page, "train-projector-1280x720")  # docs/train-projector-1280x720.png is a copy


def test_a_presenter_link_opens_in_presenter_mode_and_why_once_shown_stays_shown_across_three_pagedowns(projector, app_url):
    page = projector
    page.goto(f"{app_url}/Train?preset=sennrich&step=3&present=1&why=0")
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 3 of 10")
    expect(page.get_by_role("button", name="Leave presenter mode")).to_be_visible()
    expect(page.locator("html")).to_have_css("font-size", "22px")
    expect(page.locator(".bpe-why")).to_have_count(0)
    expect(page.get_by_role("button", name="Why", exact=True).first).to_be_visible()
    page.locator(".bpe-headline").click()  # the keyboard's focus in the page, on no widget, as with a clicker
    page.keyboard.press("w")
    expect(page.locator(".bpe-why")).to_contain_text("Tied at 7")
    expect(page).not_to_have_url(re.compile(r"why=0"))
    for merge in (4, 5, 6):
        page.keyboard.press("PageDown")
        expect(page.locator(".bpe-headline")).to_contain_text(f"Merge {merge} of 10")
        expect(page.locator(".bpe-why")).to_contain_text("It replaced the pair")
        all_on_first_screen(page.locator(".bpe-why li").first, f"why, at merge {merge}")
    page.keyboard.press("PageUp")
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 5 of 10")
    expect(page.locator(".bpe-why")).to_be_visible()


def encode_on_one_screen(page, picture) -> None:
    """Encode at sennrich's step 10: the tokens and their ids, then the walk from the bytes by clicker."""
    chips = page.locator(".bpe-linked .bpe-tok")
    expect(chips).to_have_count(12)  # " lowest newer wider" under ten merges
    all_on_first_screen(chips, "the tokens", at_least=12)
    all_on_first_screen(page.locator(".bpe-ids [data-g]"), "their ids", at_least=12)
    page.locator("h1").click()
    page.keyboard.press("PageDown")  # the walk from the bytes, one merge a press
    expect(page.locator(".bpe-walk-line")).to_contain_text("Step 0 of")
    page.keyboard.press("PageDown")
    expect(page.locator(".bpe-walk-line")).to_contain_text("Step 1 of")
    expect(page.locator(".bpe-walk-line")).to_contain_text("merge 1: s + t → st")
    all_on_first_screen(page.locator(".bpe-walk-step .bpe-tok"), "the tokens at step 1 of the walk", at_least=12)
    page.keyboard.press("PageUp")
    expect(page.locator(".bpe-walk-line")).to_contain_text("Step 0 of")


def counting_lab_on_one_screen(page, picture) -> None:
    """The counting lab on aaabdaaabac, pair a + a: every pair's count, both rows of chips and the conclusion."""
    expect(page.locator(".bpe-pair-counts li")).to_have_count(6)
    counting_lab_lesson_on_one_screen(page, "on aaabdaaabac")


def counting_lab_lesson_on_one_screen(page, where: str) -> None:
    """What the counting lab teaches, on the first screen and clear of the lesson bar if there is one."""
    for what, locator in {
        "every pair and its count": page.locator(".bpe-pair-counts li"),
        "the counts": page.locator(".bpe-stat-value"),
        "the counted and the merged chips": page.locator(".bpe-tokens .bpe-tok"),
        "the conclusion": page.locator('[data-testid="stMarkdownContainer"] p', has_text=re.compile("^The pair ")),
    }.items():
        all_on_first_screen(locator, f"{what}, {where}")
        clear_of_the_lesson_bar(page, locator, f"{what}, {where}")


def clear_of_the_lesson_bar(page, locator, what: str) -> None:
    """No element ``locator`` matches lies under the lesson bar (fixed in the projector's corner), if drawn."""
    bar = page.locator(LESSON_BAR)
    if not bar.count():
        return
    box = bar.bounding_box()
    under = locator.evaluate_all(
        """(els, bar) => els.filter(e => { const r = e.getBoundingClientRect();
          return r.left < bar.x + bar.width && bar.x < r.right && r.top < bar.y + bar.height && bar.y < r.bottom; }).length""",
        box)
    assert not under, f"{what}: {under} under the lesson bar at y {box['y']:.0f}-{box['y'] + box['height']:.0f}"


def test_the_counting_lab_as_a_lesson_walks_it_keeps_each_examples_conclusion_on_the_screen_and_clear_of_the_bar(projector, app_url):
    """The built-in lesson's third stop in presenter mode, place by place (one example a place): on
    aaaa the conclusion ran past the 1280x720 screen, its second line under the lesson bar."""
    page = projector
    page.goto(f"{app_url}/Counting_lab?present=1&lesson=first-class&stop=3", timeout=FIRST_LOAD_MS)
    bar = page.locator(LESSON_BAR)
    expect(bar).to_contain_text("Lesson · page 3 of")
    page.evaluate(clicker.PROBE)
    page.locator("h1").click()  # the focus in the page, on no control, as with a clicker
    clicker.answered(page)  # drawn, its CSS with it
    label, box = bar.locator("p", has_text="Lesson · page").bounding_box(), bar.bounding_box()
    assert box["y"] <= label["y"] and label["y"] + label["height"] <= box["y"] + box["height"] <= HEIGHT, (
        f"the bar's label at y {label['y']:.0f}-{label['y'] + label['height']:.0f} is not inside the bar, "
        f"y {box['y']:.0f}-{box['y'] + box['height']:.0f}, on the screen")
    places = clicker.where(page)[1]
    assert places >= 2, f"the lab's lesson has {places} places"
    for place in range(places):
        if place:
            page.keyboard.press("PageDown")
            expect(page.locator(clicker.MARKER)).to_have_attribute("data-at", str(place))
        clicker.answered(page)
        counting_lab_lesson_on_one_screen(page, f"at place {place + 1} of {places}")


def predict_on_one_screen(page, picture) -> None:
    """Predict at sennrich's step 2: the corpus, the question and every answer, then the clicker's reveal."""
    question = page.get_by_role("heading", name="After 2 merges, which pair does merge 3 join?")
    expect(question).to_be_visible(timeout=FIRST_LOAD_MS)
    answers = page.locator('[class*="st-key-w-quiz-answer-"] button')
    expect(answers).to_have_count(4)
    all_on_first_screen(answers, "the answer buttons", at_least=4)
    all_on_first_screen(question, "the question")
    all_on_first_screen(page.locator(".bpe-tokens .bpe-tok"), "the corpus", at_least=60)
    page.locator("h1").click()
    page.keyboard.press("PageDown")  # the clicker reveals the answer, then moves on
    expect(page.locator('[data-testid="stAlert"]')).to_contain_text("Merge 3 joins")
    # the evidence on one screen: the whole tie reason (over the corpus) and every row of the counts
    expect(page.locator(".bpe-lab-table tbody tr")).to_have_count(4)
    all_on_first_screen(page.locator('[data-testid="stAlert"]'), "the answer's reason, whole")
    all_on_first_screen(page.locator(".bpe-lab-table tbody tr"), "the count of every answer", at_least=4)
    picture(page, "predict-reveal-projector-1280x720")
    page.keyboard.press("PageDown")
    expect(page.get_by_role("heading", name="After 3 merges, which pair does merge 4 join?")).to_be_visible()


def compare_on_one_screen(page, picture) -> None:
    """Compare on sennrich: ours, GPT-2's and GPT-4o's chips side by side."""
    columns = page.locator('[data-testid="stColumn"]:has(.bpe-tokens)')
    expect(columns).to_have_count(3, timeout=FIRST_LOAD_MS)  # ours after all its merges, GPT-2, GPT-4o
    all_on_first_screen(page.locator(".bpe-tokens .bpe-tok"), "every tokenizer's chips", at_least=3 * 4)
    tops = {round(box["y"]) for box in (columns.nth(i).bounding_box() for i in range(3))}
    assert len(tops) == 1, f"the tokenizers are not side by side: tops {tops}"


def vocabulary_on_one_screen(page, picture) -> None:
    """Vocabulary at sennrich's step 10: the run's biggest merge tree (not the last merge's two
    leaves, w + i), tokens of 24 px or more and ids of 18 px or more, then GPT-4's ' strawberry'."""
    tree = page.locator('[data-testid="stGraphVizChart"] svg')
    expect(tree.locator("text", has_text="·newest")).to_be_visible()
    all_on_first_screen(tree, "the merge tree")
    labels = dict(tree.evaluate(LABEL_PX))
    assert min(labels["·newest"], labels["newest"], labels["ne"], labels["t"]) >= 24, labels
    assert min(size for text, size in labels.items() if text.startswith("id ")) >= 18, labels

    choose(page, "Vocabulary of", "GPT-4 (100,261 tokens)")
    expect(page.get_by_role("heading", name="How GPT-4 began")).to_be_visible(timeout=FIRST_LOAD_MS)
    search = page.get_by_label("Search by text, hex bytes or id")
    # the heading is drawn before the rerun ends: until it does, the box of the run before (Sennrich's,
    # its placeholder "e.g. est, 65 73, 258") is still on the page beside GPT-4's, and fill() finds two
    expect(search).to_have_count(1)
    search.fill(" strawberry")
    search.press("Enter")
    expect(tree.locator("text", has_text="berry").first).to_be_visible()
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollTo(0, 0)")
    all_on_first_screen(tree, "the tree of ' strawberry'")
    labels = tree.evaluate(LABEL_PX)
    tokens = {text: size for text, size in labels if not text.startswith("id ")}
    assert {"·strawberry", "·straw", "berry"} <= tokens.keys() and min(tokens.values()) >= 24, tokens


def test_a_python_docs_step_fits_a_phone_and_draws_at_most_3000_elements_in_the_main_area(page, app_url, picture):
    page.set_viewport_size(PHONE)  # its long corpus and wide tables: each scrolls in its own box
    page.goto(f"{app_url}/Train?preset=python-docs&step=500")
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 500 of 2000", timeout=FIRST_LOAD_MS)
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0)
    assert_fits_the_screens_width(page, "a python-docs step on a phone held upright")
    picture(page, "train-python-docs-phone-390x844")
    page.locator('[class*="st-key-w-next-main"] button').click()
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 501 of 2000")
    expect(page.locator(".bpe-merge-view")).to_contain_text("After merge 501")
    expect(page.locator('[data-testid="stVegaLiteChart"] svg path[aria-label="bpe-pair-1"]')).to_be_visible()
    elements = page.locator('[data-testid="stMain"]').evaluate("main => main.querySelectorAll('*').length")
    assert 500 < elements <= 3_000, elements


def test_a_reload_shows_the_quiz_answers_in_the_same_order(page, app_url):
    page.goto(f"{app_url}/Predict_the_next_merge?preset=python-docs&step=40")
    answers = page.locator('[class*="st-key-w-quiz-answer-"] button')
    expect(answers).to_have_count(4, timeout=FIRST_LOAD_MS)
    expect(page).to_have_url(re.compile(r"seat=\w+"))
    first = seen_texts(answers)
    page.reload()
    expect(answers).to_have_count(4, timeout=FIRST_LOAD_MS)
    assert seen_texts(answers) == first


def home_on_a_phone(page, picture) -> None:
    """Home on a phone keeps its descriptions: they are the page."""
    expect(page.get_by_text("A byte-level tokenizer never sees letters")).to_be_visible()  # a tour step
    expect(page.get_by_text("Each step opens the page that shows it")).to_be_visible()


def predict_on_a_phone(page, picture) -> None:
    """Predict at sennrich's step 2 on a phone asks its question before the score."""
    question = page.get_by_role("heading", name="After 2 merges, which pair does merge 3 join?")
    expect(question).to_be_visible()
    score = page.locator(".bpe-stat-label", has_text="Answered")
    expect(score).to_be_visible()
    assert question.bounding_box()["y"] < score.bounding_box()["y"], "the score comes before the question"


ON_A_PROJECTOR = {
    "Train": train_on_one_screen,
    "Encode_and_decode": encode_on_one_screen,
    "Vocabulary": vocabulary_on_one_screen,
    "Predict_the_next_merge": predict_on_one_screen,
    "Counting_lab": counting_lab_on_one_screen,
    "Compare": compare_on_one_screen,
}
"""``check(page, picture)`` by page address: what a lesson shows on one projector screen. Run by
tests/test_browser_a11y.py after the page's presenter-mode audit at 1280x720, in the same page load,
in the state a lesson opens the page in (its ``LESSON_STATES``)."""
ON_A_PHONE = {"": home_on_a_phone, "Predict_the_next_merge": predict_on_a_phone}
"""``check(page, picture)`` by page address: run by tests/test_browser_a11y.py on the page's load on a
phone held upright, before it is widened."""
