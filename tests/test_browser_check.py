"""Check my BPE in a real browser: upload a learner's merges file, see the difference and the cause.

Waits are on content the action changes (Playwright's auto-retrying ``expect``).
"""

import pytest
from playwright.sync_api import expect

from bpe.presets import SENNRICH_WORDS

from .learners import LEARNERS

pytestmark = pytest.mark.browser


def test_an_uploaded_merges_file_shows_the_first_difference_and_the_diagnosis(page, app_url, tmp_path, picture):
    # A learner whose ties go to the first pair met, on CS336's words (whose reference takes the greater)
    merges = LEARNERS["tie-break"](words=dict(SENNRICH_WORDS), num_merges=10)
    path = tmp_path / "merges.txt"
    path.write_text("".join(f"{a.decode()} {b.decode()}\n" for a, b in merges), encoding="utf-8")

    page.goto(f"{app_url}/Check_my_BPE")
    expect(page.get_by_role("heading", name="Check my BPE")).to_be_visible()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    expect(page.get_by_text("Checking merges.txt (10 lines).")).to_be_visible()
    page.get_by_role("button", name="Check my merges").click()

    table = page.locator("table.bpe-check")
    expect(table).to_contain_text("Merge 1")
    expect(table.locator("td.yours")).to_contain_text(["e + s", "9"])
    expect(table).to_contain_text("s + t")
    expect(page.get_by_text("A tie: 2 pairs share the top count")).to_be_visible()
    cause = page.locator(".bpe-cause")
    expect(cause).to_contain_text("tie-break · another tie-break rule")
    expect(cause).to_contain_text("Re-training with ties broken by first-seen: this reproduces all 10 of your merges.")
    table.scroll_into_view_if_needed()
    picture(page, "check-my-bpe", full_page=True)
