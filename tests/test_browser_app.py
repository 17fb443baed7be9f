"""The app in a real browser (Debian's Chromium via Playwright) against a live ``streamlit run``.

Waits are always on content the action changes (Playwright's auto-retrying ``expect``), never on
Streamlit's status widget, which reads stale pages.
"""

import re

import pytest
from playwright.sync_api import expect

from .slow_cpu import slow_cpu


pytestmark = pytest.mark.browser

# Hostile corpus text in the browser: test_browser_hostile.py (the same payloads and more, with
# dialogs, foreign requests and injected elements watched); twice in one text: test_app_pages.py.


def narration(page):
    """The step's headline (the merge and its numbers)."""
    return page.locator(".bpe-narration")


def why(page):
    """The step's sentences: why this pair, and what the merge did (shown until hidden)."""
    return page.locator(".bpe-why")


def test_pick_an_example_and_step_forward_and_back(page, app_url, dialogs, picture):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="BPE Lab: byte-pair encoding, step by step")).to_be_visible()
    # Sennrich's own card by its link: "preset=sennrich" is also the start of "preset=sennrich-paper",
    # the third card's (a char-level run with </w>, also 10 merges), so the link must end there
    page.locator('a[href$="?preset=sennrich"]').filter(has_text="Open step by step").click()
    expect(narration(page)).to_contain_text("Before any merge")

    for step in (1, 2, 3):
        page.get_by_role("button", name="Next").click()
        expect(narration(page)).to_contain_text(f"Merge {step} of 10")
    expect(why(page)).to_contain_text("The pair o + w occurs 7 times; 3 pairs share that count")
    expect(page).to_have_url(re.compile(r"preset=sennrich&.*step=3"))

    new_tokens = page.locator(".bpe-tokens .bpe-tok.bpe-new")
    expect(new_tokens).to_have_count(7)  # " low" x5 and " lower" x2 now hold "ow"
    expect(page.locator(".bpe-tokens .bpe-tok.bpe-new").first).to_have_attribute("title", re.compile(r"^id 258 · bytes 6f 77"))
    expect(page.locator('[data-testid="stVegaLiteChart"] svg.marks').first).to_be_visible()  # the pair counts: SVG, for hover links

    page.get_by_role("button", name="Previous").click()
    expect(narration(page)).to_contain_text("Merge 2 of 10")
    expect(page).to_have_url(re.compile(r"step=2"))

    latest = page.locator("table.bpe-table tr").nth(1)  # the Merges tab: latest merge first
    # merge 2 of the paper's example: e + st -> est (id 257), 9 times (newest 6 + widest 3), no other
    # pair at 9; the text's 95 bytes less 9 + 9 replacements leave 77 tokens
    expect(latest.locator("td")).to_have_text(["2", "e", "st", "est", "257", "9", "no", "77"])
    page.get_by_role("tab", name="Compression").click()  # only the open tab is drawn
    expect(page.locator('[data-testid="stVegaLiteChart"] canvas.marks')).to_have_count(2)
    expect(page.get_by_text("The diamond marks step 2.")).to_be_visible()
    picture(page, "train-page", full_page=True)
    assert dialogs == []


def test_a_shared_link_opens_the_same_view(page, app_url):
    page.goto(f"{app_url}/Train?preset=wikipedia&step=2")
    expect(narration(page)).to_contain_text("Merge 2 of 3")
    expect(page.get_by_role("code").filter(has_text="ZYdZYac")).to_be_visible()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("code").filter(has_text="XdXac")).to_be_visible()
    expect(why(page)).to_contain_text("Training stopped here")


def test_the_step_carries_over_to_the_encode_page(page, app_url):
    page.goto(f"{app_url}/Train?preset=sennrich&step=5")
    expect(narration(page)).to_contain_text("Merge 5 of 10")
    page.get_by_role("link", name="Encode & decode").click()
    expect(page.locator(".bpe-walk").first).to_contain_text("merge 1: s + t → st")
    expect(page).to_have_url(re.compile(r"Encode_and_decode\?preset=sennrich.*step=5"))


def test_play_advances_to_the_last_merge_and_stops(page, app_url):
    page.goto(f"{app_url}/Train?preset=sennrich&step=8")
    expect(narration(page)).to_contain_text("Merge 8 of 10")
    page.get_by_role("button", name="Play").click()
    expect(why(page)).to_contain_text("Training stopped here", timeout=15_000)
    expect(page.get_by_role("button", name="Play")).to_be_visible()  # back from "Pause" at the end


def test_play_on_a_browser_slow_to_draw_reaches_the_last_merge_and_keeps_it(page, app_url):
    # A loaded laptop's Chromium (here its CPU slowed 6x) reports the step slider as it was drawn before
    # each tick: before ui.stepper named a new slider for each step the server moves, play stopped after
    # one tick in 10 of 10 presses, or the last merge was taken back.
    with slow_cpu(page):
        page.goto(f"{app_url}/Train?preset=sennrich&step=8")
        expect(narration(page)).to_contain_text("Merge 8 of 10")
        page.get_by_role("button", name="Play").click()
        expect(why(page)).to_contain_text("Training stopped here")
        expect(page.get_by_role("button", name="Play")).to_be_visible()
        # One more round trip (key B, the corpus before the merge): a late report sent before it is
        # handled before it, so once it is drawn the step is what the server kept.
        page.keyboard.press("b")
        expect(page.locator("#bpe-moment-before")).to_be_checked()
        expect(page.locator(".bpe-headline")).to_contain_text("Merge 10 of 10")
