"""Check my BPE in a real browser: upload a learner's merges file, see the difference and the cause.

Waits are on content the action changes (Playwright's auto-retrying ``expect``).
"""

import pytest
from playwright.sync_api import expect

from bpe.tokens.byte_level import to_byte_text
from bpe.training.presets import SENNRICH_TEXT

from .learners import LEARNERS
from .streamlit_widgets import choose, seen_texts

pytestmark = pytest.mark.browser


def test_a_byte_level_difference_is_drawn_with_marks_both_counts_and_the_diagnosis(page, app_url, tmp_path, picture):
    # Sennrich's text, bytes, GPT-2's split: a learner who counts pairs across the words merges
    # ("est", " ") at merge 3, 8 times in its own training; the reference merges (o, w), 7 times.
    merges = LEARNERS["chunk-boundary"](SENNRICH_TEXT, 10)
    path = tmp_path / "merges.txt"
    path.write_text("".join(f"{to_byte_text(a)} {to_byte_text(b)}\n" for a, b in merges), encoding="utf-8")

    page.goto(f"{app_url}/Check_my_BPE")
    expect(page.get_by_role("heading", name="Check my BPE")).to_be_visible()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    expect(page.get_by_text("Checking merges.txt: 10 merges.")).to_be_visible()
    choose(page, "Example", "Sennrich's low / lower / newest / widest")
    page.get_by_role("button", name="Check my merges").click()

    table = page.locator("table.bpe-check")
    expect(table).to_contain_text("Merge 3")
    expect(table.locator("td.yours").first).to_have_text("est + ·")
    expect(table.locator("tr", has_text="Count in the reference's training")).to_contain_text("7")
    expect(table.locator("tr", has_text="Count in your training")).to_contain_text("8")
    assert all(text.strip() for text in seen_texts(table.locator(".pair span span")))  # never a blank chip
    cause = page.locator(".bpe-cause")
    expect(cause).to_contain_text("chunk-boundary · merges across chunks, or another split, in the split")
    table.scroll_into_view_if_needed()
    picture(page, "check-my-bpe-difference-1366x768")
    picture(page, "check-my-bpe", full_page=True)
