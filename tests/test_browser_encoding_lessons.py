"""Check my encoder and the Encode page's three segmentations in Chromium: on a phone held upright,
at 1366x768 and on a 1280x720 projector in presenter mode, each fitting its screen.

Check my encoder's checks ride in tests/test_browser_a11y.py's load of the Check my encoder page
(:data:`ON_A_PHONE`, :data:`ON_A_PROJECTOR`), which then audits the diagnosis with axe-core, whole
and in presenter mode: no page load of their own. The segmentations need a tokenizer and a text of
their own, so they have one load here, a phone first, then the same session widened and projected.
Waits are on content (Playwright's auto-retrying ``expect``).
"""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import FIRST_LOAD_MS, LAPTOP, PHONE
from .learner_encoders import LEARNER_ENCODERS, suite_tokenizer
from .page_width import assert_fits_the_screens_width
from .streamlit_widgets import choose, switch_to_presenter_mode

pytestmark = pytest.mark.browser


@functools.cache
def learner_files() -> tuple[str, str]:
    """The suite's tokenizer and a left-to-right learner's ids for the probe texts, as files to upload."""
    from bpe.checking.encode_cases import probe_texts

    tokenizer, merges, specials = suite_tokenizer()
    folder = Path(tempfile.mkdtemp(prefix="bpe-encoder-"))
    tokenizer.save(folder / "suite.json")
    cases = [{"text": text, "ids": LEARNER_ENCODERS["left-to-right"](text, merges, specials)} for text in probe_texts(tokenizer)]
    (folder / "ids.json").write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return str(folder / "suite.json"), str(folder / "ids.json")


def check_encoder_on_a_phone(page, picture) -> None:
    """A learner on a phone: the suite's tokenizer and their ids uploaded, the check run."""
    tokenizer_file, ids_file = learner_files()
    choose(page, "Tokenizer", "Upload a tokenizer or merges file")
    uploads = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    uploads.first.set_input_files(tokenizer_file)
    # Wait for the upload to be drawn before the next click: in one CI run the radio's click came while
    # the upload was in flight, the file was not kept, and the check said "no tokenizer file yet".
    expect(page.get_by_text("suite.json")).to_be_visible()
    page.get_by_text("Upload a JSON file", exact=True).click()
    expect(uploads).to_have_count(2)
    uploads.nth(1).set_input_files(ids_file)
    expect(page.get_by_text("ids.json")).to_be_visible()
    page.get_by_role("button", name="Check my ids").click()
    cause = page.locator(".bpe-cause")
    expect(cause).to_contain_text("left-to-right · merged left to right, not by rank, in the pick")
    expect(cause).to_contain_text("Fix (the pick): merge the pair with the lowest rank first")
    difference = page.locator("table.bpe-encode-difference")
    expect(difference).to_contain_text("Your tokens from there")
    expect(difference.locator(".bpe-differs").first).to_be_visible()  # the learner's tokens BPE does not make
    assert_fits_the_screens_width(page, "Check my encoder's diagnosis on a phone")
    difference.scroll_into_view_if_needed()
    picture(page, "check-my-encoder-phone")
    page.set_viewport_size(LAPTOP)
    difference.scroll_into_view_if_needed()
    picture(page, "check-my-encoder-1366x768")


def check_encoder_on_a_projector(page, picture) -> None:
    """The same session projected in presenter mode: the diagnosis is still there, its card on the screen."""
    cause = page.locator(".bpe-cause")
    expect(cause).to_contain_text("left-to-right")
    cause.scroll_into_view_if_needed()
    expect(cause).to_be_in_viewport()
    picture(page, "check-my-encoder-presenter")


ON_A_PHONE = {"Check_my_encoder": check_encoder_on_a_phone}
ON_A_PROJECTOR = {"Check_my_encoder": check_encoder_on_a_projector}


def test_the_three_segmentations_side_by_side_on_a_phone_a_laptop_and_a_projector(page, app_url, picture):
    page.set_viewport_size(PHONE)
    page.goto(f"{app_url}/Encode_and_decode?preset=sennrich&step=10")
    expect(page.locator(".bpe-linked .bpe-tok").first).to_be_attached(timeout=FIRST_LOAD_MS)
    choose(page, "Tokenizer", "GPT-2 (50,257 tokens)")
    box = page.get_by_label("Text to encode (Ctrl+Enter to apply)")
    box.fill(" recursively\nyield")
    box.press("Control+Enter")
    expect(page.locator(".bpe-linked")).to_contain_text("urs")
    page.get_by_text("Three ways to cut this text").click()
    table = page.locator("table.bpe-segments")
    rows = table.locator("tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("BPE's own6 tokens", use_inner_text=False)
    expect(rows.nth(1)).to_contain_text("5 tokens (1 fewer)")
    expect(table.locator(".bpe-differs")).to_have_count(7)
    assert_fits_the_screens_width(page, "the segmentations on a phone")
    table.scroll_into_view_if_needed()
    picture(page, "segmentations-phone")
    page.set_viewport_size(LAPTOP)
    table.scroll_into_view_if_needed()
    picture(page, "segmentations-1366x768")
    switch_to_presenter_mode(page)
    expect(table.locator(".bpe-differs")).to_have_count(7)  # still open, redrawn in large type
    assert_fits_the_screens_width(page, "the segmentations in presenter mode")
    table.scroll_into_view_if_needed()
    picture(page, "segmentations-presenter")
