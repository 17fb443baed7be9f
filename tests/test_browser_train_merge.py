"""The merge, seen, in a real browser: one screen on a laptop and a phone (the phone's check runs in
the Train page's phone load in tests/test_browser_a11y.py), the pair's places before the merge, the
new tokens after it, and a bar linked to its places in the corpus.

Every assertion reads bounding boxes or computed styles of what Chromium drew; waits are on
content (Playwright's auto-retrying ``expect``), never on time.
"""

import pytest
from playwright.sync_api import expect

from .page_width import assert_fits_the_screens_width


pytestmark = pytest.mark.browser

REPLACED = '.bpe-join-replaced[title^="occurrence"]'
OVERLAP = '.bpe-join-overlap[title^="occurrence"]'


def box(locator):
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not drawn"
    return found


def inside(found, width, height):
    return found["x"] >= 0 and found["y"] >= 0 and found["x"] + found["width"] <= width + 0.5 and (
        found["y"] + found["height"] <= height + 0.5
    )


def step_3_on_the_first_screen(page, picture) -> None:
    """Train at sennrich's step 3: the controls, the headline, the chart (on a phone: after the
    corpus) and the corpus share the first screen of the page's size (a laptop's, a phone's), and
    nothing is cut off at its right edge. On a phone the corpus is whole, in the page: a box that
    scrolls inside the page hid most of it, with nothing to tell a finger so."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    phone = width < 500
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 3 of 10")
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart.locator('svg path[aria-label="bpe-pair-1"]')).to_be_visible()
    after = page.locator(".bpe-merge-view .bpe-after")
    expect(after).to_be_visible()  # the "after" moment has faded in

    buttons = [page.get_by_role("button", name=name, exact=False) for name in ("First", "Previous", "Next", "Last", "Play")]
    for found in [*buttons, page.get_by_role("slider"), page.locator(".bpe-headline"), *([] if phone else [chart])]:
        assert inside(box(found), width, height), f"{found} is not inside the first {width}x{height} screen"
    if phone:
        layers = page.locator(".bpe-merge-view .bpe-layers")
        assert layers.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the corpus scrolls in a box of its own on a phone"
        assert box(chart)["y"] >= box(layers)["y"] + box(layers)["height"] - 0.5, "on a phone the chart comes after the corpus"
    tops = {round(box(button)["y"]) for button in buttons}
    assert len(tops) == 1, f"the step buttons are not one row: tops {tops}"

    chips = after.locator(".bpe-tok")
    on_screen = sum(inside(box(chips.nth(i)), width, height) for i in range(min(chips.count(), 40)))
    assert on_screen >= 20, f"only {on_screen} corpus tokens on the first screen"
    assert_fits_the_screens_width(page, f"Train at step 3 at {width}x{height}")
    # every bar is labelled with its count (an audience cannot hover)
    expect(chart.locator('svg text', has_text="7 ◀ merged")).to_be_visible()
    picture(page, f"train-{'phone' if width < 500 else 'laptop'}-{width}x{height}")  # docs/train-*.png are copies of these


ON_A_PHONE = {"Train": step_3_on_the_first_screen}
"""Run in the Train page's phone load by tests/test_browser_a11y.py, which opens it at sennrich's step 3."""


def test_a_long_corpus_scrolls_inside_its_panel_and_breaks_only_between_words(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Train?preset=python-docs&step=1")
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 1 of")
    layers = page.locator(".bpe-merge-view .bpe-layers")
    expect(layers).to_be_visible()
    assert layers.evaluate("e => e.scrollHeight > e.clientHeight + 50 && getComputedStyle(e).overflowY === 'auto'")
    assert box(layers)["y"] + box(layers)["height"] <= 768 + 0.5
    # no word is cut across two lines: all chips of a word share one top
    split = page.evaluate("""() => [...document.querySelectorAll('.bpe-after .bpe-word')].slice(0, 300).filter(w => {
        const tops = new Set([...w.querySelectorAll('.bpe-tok')].map(c => Math.round(c.getBoundingClientRect().top)));
        return tops.size > 1 && w.getBoundingClientRect().width < w.parentElement.clientWidth - 40; }).length""")
    assert split == 0


def test_before_the_first_merge_the_nine_places_of_s_t_are_numbered(page, app_url):
    page.goto(f"{app_url}/Train?preset=sennrich&step=0")
    before = page.locator(".bpe-merge-view .bpe-before")
    expect(before.locator(REPLACED)).to_have_count(9)
    expect(before.locator(OVERLAP)).to_have_count(0)
    for i in range(9):
        badge = before.locator(REPLACED).nth(i)
        assert badge.evaluate("b => [b.previousElementSibling.textContent, b.nextElementSibling.textContent]") == ["s", "t"]
    expect(before.locator(REPLACED).first).to_be_visible()
    expect(page.locator(".bpe-merge-view .bpe-after")).to_have_count(0)


def test_aaaa_with_no_pre_tokenizer_shows_three_counted_two_replaced_differently(page, app_url):
    page.goto(f"{app_url}/Train?preset=own-text&pretok=none")
    text = page.get_by_label("Your text (Ctrl+Enter to train on it)")
    expect(text).to_be_visible()
    text.fill("aaaa")
    text.press("Control+Enter")
    before = page.locator(".bpe-merge-view .bpe-before")
    expect(before.locator(OVERLAP)).to_have_count(1)
    expect(before.locator(REPLACED)).to_have_count(2)
    solid = before.locator(REPLACED).first.evaluate("b => getComputedStyle(b).borderTopStyle + ' ' + getComputedStyle(b).backgroundColor")
    dashed = before.locator(OVERLAP).first.evaluate("b => getComputedStyle(b).borderTopStyle + ' ' + getComputedStyle(b).backgroundColor")
    assert solid.startswith("solid") and dashed.startswith("dashed") and solid != dashed
    expect(before).to_contain_text("3 counted in all")


def test_hovering_a_bar_marks_its_places_and_before_after_is_one_click_apart(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{app_url}/Train?preset=sennrich&step=3")
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 3 of 10")
    before, after = page.locator(".bpe-merge-view .bpe-before"), page.locator(".bpe-merge-view .bpe-after")
    expect(after).to_be_visible()
    expect(before).to_be_hidden()

    # bar 4 is w + est (6 times, in " newest"): hovering it shows "before" with its halves marked
    lefts = before.locator('[data-l="4"]')
    expect(lefts).to_have_count(6)
    plain = lefts.first.evaluate("c => getComputedStyle(c).backgroundColor")
    page.locator('[data-testid="stVegaLiteChart"] svg path[aria-label="bpe-pair-4"]').hover()
    expect(before).to_be_visible()
    expect(lefts.first).to_have_css("background-color", "rgb(255, 216, 77)")
    expect(before.locator('[data-r="4"]').first).to_have_css("background-color", "rgb(255, 216, 77)")
    assert plain != "rgb(255, 216, 77)"
    expect(before.locator('[data-l="2"]').first).not_to_have_css("background-color", "rgb(255, 216, 77)")

    # a tied pair in the narration links the same way, hovered, or focused (a key's Tab, a finger's tap)
    page.locator('.bpe-why [data-pair="2"]').hover()
    expect(before.locator('[data-l="2"]').first).to_have_css("background-color", "rgb(255, 216, 77)")
    page.mouse.move(5, 5)
    tied = page.locator('.bpe-why [data-pair="3"]')
    tied.focus()
    expect(before).to_be_visible()
    expect(before.locator('[data-l="3"]').first).to_have_css("background-color", "rgb(255, 216, 77)")
    tied.blur()

    page.mouse.move(5, 5)
    expect(after).to_be_visible()
    page.locator("label", has_text="Before merge 3").click()  # one click (or one arrow key) back to "before"
    expect(before).to_be_visible()
    expect(after).to_be_hidden()
    expect(before.locator(REPLACED)).to_have_count(7)  # o + w, 7 times, before it is merged
    page.keyboard.press("ArrowRight")  # the focused switch: one key to "after"
    expect(after).to_be_visible()


def test_at_step_3_a_laptops_first_screen_holds_the_lesson_and_key_b_holds_the_corpus_before_each_merge(page, app_url, picture):
    page.goto(f"{app_url}/Train?preset=sennrich&step=3")
    step_3_on_the_first_screen(page, picture)  # a laptop's; a phone's in tests/test_browser_a11y.py
    before, after = page.locator(".bpe-merge-view .bpe-before"), page.locator(".bpe-merge-view .bpe-after")
    expect(after).to_be_visible()
    expect(page.get_by_role("button", name="Before / after")).to_be_enabled()
    page.locator(".bpe-headline").click()  # the keyboard's focus in the page, on no widget
    page.keyboard.press("b")
    expect(page.locator("#bpe-moment-before")).to_be_checked()
    expect(before).to_be_visible()
    page.get_by_role("button", name="Next").click()
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 4 of 10")
    expect(page.locator(".bpe-headline")).to_contain_text("l + ow")
    expect(before.locator(REPLACED)).to_have_count(7)  # l + ow, 7 places before merge 4: still "before"
    expect(before).to_be_visible()
    expect(after).to_be_hidden()
    page.locator(".bpe-headline").click()
    page.keyboard.press("b")
    expect(page.locator("#bpe-moment-after")).to_be_checked()
    expect(after).to_be_visible()
