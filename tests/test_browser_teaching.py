"""The teaching pages in a real browser: the quiz by mouse and keyboard, presenter mode, and (with
``--screenshots`` only) a picture of each page in ``test-artifacts/``.

Waits are on content the action changes (Playwright's auto-retrying ``expect``), never on
Streamlit's status widget.
"""

import re

import pytest
from playwright.sync_api import expect

from .conftest import FIRST_LOAD_MS

pytestmark = pytest.mark.browser

SCREENSHOTS = [
    # (file name, URL path, text that shows the page is drawn)
    ("predict-the-next-merge", "Predict_the_next_merge?preset=wikipedia&step=1", "which pair does merge 2 join?"),
    ("tie-break-lab", "Tie_break_lab?preset=wikipedia", "Merge by merge"),
    ("counting-lab", "Counting_lab?text=aaaa&left=a&right=a", "Replaced: the text after merging"),
    ("pre-tokenization-lab", "Pre-tokenization_lab?text=I%27m+here.+I%27M+HERE.+1234567", "What training learns"),
    ("byte-inspector", "Byte_inspector?text=aaabdaaabac+%C3%A9+%E2%82%AC+%F0%9F%99%82", "Why a space shows as"),
    ("home-tour", "", "A guided tour in five steps"),
]


def alerts(page):
    return page.locator('[data-testid="stAlert"]')


def stat_value(page, label: str):
    """A number of a row of stats (``bpe.views.stats``), by its exact label."""
    return page.locator(".bpe-stat").filter(has=page.locator(".bpe-stat-label", has_text=re.compile(f"^{re.escape(label)}$"))).locator(".bpe-stat-value")


def test_quiz_answer_by_click_shows_the_verdict_and_the_score(page, app_url):
    page.goto(f"{app_url}/Predict_the_next_merge?preset=wikipedia&step=1")
    expect(page.get_by_text("After 1 merge, which pair does merge 2 join?")).to_be_visible(timeout=FIRST_LOAD_MS)
    page.get_by_role("button", name=re.compile(r"^\d\. 'a' \+ 'b'(\s|$)")).click()
    expect(alerts(page).first).to_contain_text("Right: 'a' + 'b' occurs 2 times and merge 2 makes 'ab'")
    expect(alerts(page).first).to_contain_text("lexicographic-min rule picks 'a' + 'b'")
    expect(stat_value(page, "Answered")).to_have_text("1")
    expect(stat_value(page, "Right")).to_have_text("1")
    expect(page.locator(".bpe-lab-table")).to_contain_text("merged next · your pick")

    page.get_by_role("button", name=re.compile("Next question")).click()
    expect(page.get_by_text("After 2 merges, which pair does merge 3 join?")).to_be_visible()
    expect(page).to_have_url(re.compile(r"step=2"))
    page.get_by_role("button", name=re.compile(r"^\d\. 'a' \+ 'c'(\s|$)")).click()
    expect(alerts(page).first).to_contain_text("Not this one: 'a' + 'c' occurs 1 time")
    expect(stat_value(page, "Answered")).to_have_text("2")
    expect(stat_value(page, "Streak")).to_have_text("0")


def test_quiz_answers_and_moves_on_from_the_keyboard(page, app_url):
    page.goto(f"{app_url}/Predict_the_next_merge?preset=sennrich&step=2")
    expect(page.get_by_text("After 2 merges, which pair does merge 3 join?")).to_be_visible(timeout=FIRST_LOAD_MS)
    expect(page.get_by_role("button", name="Show the answer")).to_be_enabled()
    # A key pressed before the page has wired its shortcuts is lost: wait until the second answer
    # shows its shortcut badge (drawn by the same component that binds the key), then press once.
    expect(page.get_by_role("button").filter(has=page.get_by_label("Shortcut 2"))).to_be_enabled()
    page.keyboard.press("2")  # the second answer's shortcut
    expect(alerts(page).first).to_be_visible()
    expect(stat_value(page, "Answered")).to_have_text("1")
    page.keyboard.press("PageDown")
    expect(page.get_by_text("After 3 merges, which pair does merge 4 join?")).to_be_visible()


def test_presenter_mode_switches_to_large_type_and_back(page, app_url, picture):
    page.goto(f"{app_url}/Train?preset=wikipedia&step=2")
    narration = page.locator(".bpe-narration").first
    expect(narration).to_contain_text("Merge 2 of 3", timeout=FIRST_LOAD_MS)
    normal = float(narration.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    page.get_by_text("Presenter mode").click()
    expect(page).to_have_url(re.compile(r"present=1"))
    expect(page.get_by_role("button", name="Leave presenter mode")).to_be_visible()
    expect(page.locator("html")).to_have_css("font-size", "22px")
    large = float(narration.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert large >= 1.3 * normal  # 22 / 16 = 1.375
    sentence = page.locator(".bpe-why li").first
    assert float(sentence.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 22
    headline = page.locator(".bpe-headline")  # the title gives the lesson its room; the merge is what is large
    assert float(headline.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 29  # 1.35rem x 22 px
    expect(page.locator('[data-testid="stVegaLiteChart"] svg.marks').first).to_be_visible()
    picture(page, "presenter-mode", full_page=True)

    page.get_by_role("button", name="Next").click()  # the step controls still work
    expect(narration).to_contain_text("Merge 3 of 3")
    page.get_by_role("button", name="Leave presenter mode").click()
    expect(page).not_to_have_url(re.compile(r"present=1"))
    expect(narration).to_have_css("font-size", f"{normal:g}px")


@pytest.mark.screenshots  # pictures for people only: pytest -m browser --screenshots
@pytest.mark.parametrize("name, path, marker", SCREENSHOTS, ids=[shot[0] for shot in SCREENSHOTS])
def test_screenshot_of_each_teaching_page(page, app_url, picture, name, path, marker):
    page.goto(f"{app_url}/{path}")
    expect(page.get_by_text(marker).first).to_be_visible(timeout=FIRST_LOAD_MS)
    if name == "predict-the-next-merge":  # the picture worth showing is the verdict
        page.get_by_role("button", name=re.compile(r"^\d\. 'aa' \+ 'a'(\s|$)")).click()
        expect(alerts(page).first).to_contain_text("Right count, but the tie-break picks")
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0)
    expect(page.locator('[data-testid="stSpinner"]')).to_have_count(0, timeout=FIRST_LOAD_MS)
    page.evaluate("() => document.fonts.ready.then(() => true)")  # no boxes where CJK or emoji will be
    picture(page, name, full_page=True)
