"""BPE's variants in a real browser: BPE-dropout's histogram on Encode, a SuperBPE run on Train and
Compare, the Pre-tokenization lab's SuperBPE column and the Parity-aware lab, on a 1366x768 laptop
and on a 1280x720 projector in presenter mode. With ``--screenshots``, pictures of each in
``test-artifacts/`` (``variants-*.png``).

The labs' checks ride in their pages' loads in tests/test_browser_a11y.py (:data:`ON_A_PROJECTOR`),
which audits each page with axe there; the dropout and SuperBPE states are links of their own, so
their tests load them and audit them too. Waits are on content (Playwright's ``expect``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bpe.teaching.parity_lab import parity_lab

from .conftest import FIRST_LOAD_MS, LAPTOP
from .streamlit_widgets import seen_texts, switch_to_presenter_mode
from .test_browser_presenter import all_on_first_screen

pytestmark = pytest.mark.browser

DROPOUT_LINK = "Encode_and_decode?preset=sennrich&step=10&dropout=0.3&seed=2&samples=400"
SUPERBPE_LINK = "preset=sennrich&transition=8"


def audited(page, name: str) -> None:
    """axe-core finds nothing serious on the page as drawn now (tests/test_browser_a11y.py's rules)."""
    from .test_browser_a11y import axe_violations, report, wait_until_drawn  # it imports this module's registry

    wait_until_drawn(page)
    violations = axe_violations(page)
    assert not violations, f"{name}:\n{report(violations)}"


def top_of(locator) -> None:
    """Scroll the page so that ``locator`` is at the top of the screen (a picture of what follows it)."""
    locator.evaluate("element => element.scrollIntoView({block: 'start'})")


# -- checks that ride in tests/test_browser_a11y.py's page loads ------------------------------------
def parity_lab_on_one_screen(page, picture) -> None:
    """The Parity-aware lab at merge 40 on a projector: the step buttons, who chose each run's merge,
    and all sixteen bars of both runs on the first screen; PageDown steps both runs on, as a clicker does."""
    choices = page.get_by_text(re.compile(r"is the most tokens now \(\d|The most frequent pair of all 16 texts"))
    expect(choices).to_have_count(2)
    for name in ("Previous merge", "Next merge"):
        all_on_first_screen(page.get_by_role("button", name=name), f"the {name} button")
    all_on_first_screen(choices, "who chose each run's merge", at_least=2)
    bars = page.locator('[data-testid="stVegaLiteChart"] svg path[aria-roledescription="bar"]')
    all_on_first_screen(bars, "the bars of both runs", at_least=32)
    picture(page, "variants-parity-lab-projector-1280x720")
    page.locator("h1").click()  # the keyboard's focus in the page, on no widget, as with a clicker
    page.keyboard.press("PageDown")
    expect(page).to_have_url(re.compile(r"merge=41"))
    expect(page.get_by_text(parity_lab().pick("parity-aware", 41))).to_be_visible()
    expect(page.get_by_role("slider")).to_have_attribute("aria-valuetext", "41")


def superbpe_column_on_a_projector(page, picture) -> None:
    """The Pre-tokenization lab's training section: SuperBPE's column outlines the superwords it learns."""
    column = page.locator('[data-testid="stColumn"]', has_text="SuperBPE (GPT-2's split for 4 merges)")
    column.scroll_into_view_if_needed()
    expect(column.locator(".bpe-tok.bpe-merged")).to_have_count(2)  # 'newest ' and 'newest newest '
    expect(column).to_contain_text("superword tokens, learned on purpose")
    picture(page, "variants-superbpe-pretokenization-lab-projector-1280x720")


ON_A_PROJECTOR = {"Parity-aware_lab": parity_lab_on_one_screen, "Pre-tokenization_lab": superbpe_column_on_a_projector}
"""Checks of a page in a lesson's state, run in that page's load by tests/test_browser_a11y.py."""
ON_A_PHONE: dict = {}


# -- states of their own ----------------------------------------------------------------------------
def test_a_dropout_link_draws_its_histogram_and_draw_again_keeps_the_new_seed_in_the_link(page, app_url, picture):
    page.goto(f"{app_url}/{DROPOUT_LINK}")
    table = page.locator(".bpe-dropout")
    expect(table.locator("tbody tr")).to_have_count(12, timeout=FIRST_LOAD_MS)
    expect(table.locator("tr.bpe-plain")).to_contain_text("without dropout")
    audited(page, "Encode with the dropout section open")
    top_of(page.get_by_text("BPE-dropout: one word, many segmentations"))
    picture(page, "variants-dropout-laptop-1366x768")
    first = seen_texts(table.locator("tbody tr").first)[0]
    page.get_by_role("button", name="Draw again").click()
    expect(page).to_have_url(re.compile(r"seed=3"))
    expect(table.locator("tbody tr").first).not_to_have_text(first)
    switch_to_presenter_mode(page)
    top_of(page.get_by_text("BPE-dropout: one word, many segmentations"))
    expect(table.locator("tbody tr").first).to_be_visible()
    picture(page, "variants-dropout-projector-1280x720")


def test_a_superbpe_run_narrates_its_stage_change_and_compare_counts_it_against_classic(page, app_url, picture):
    page.goto(f"{app_url}/Train?{SUPERBPE_LINK}&step=9")
    why = page.locator(".bpe-why")
    expect(why).to_contain_text("Stage 2 starts: the text is split again by SuperBPE's split", timeout=FIRST_LOAD_MS)
    audited(page, "Train at SuperBPE's stage change")
    picture(page, "variants-superbpe-train-laptop-1366x768")
    page.locator(".bpe-headline").click()
    page.keyboard.press("PageDown")
    expect(page.locator(".bpe-headline")).to_contain_text("Merge 10 of 10")
    expect(why).to_contain_text("A superword:")
    switch_to_presenter_mode(page)
    all_on_first_screen(page.locator(".bpe-why li", has_text="A superword:"), "the superword's sentence")
    picture(page, "variants-superbpe-train-projector-1280x720")

    page.set_viewport_size(LAPTOP)
    page.goto(f"{app_url}/Compare?{SUPERBPE_LINK}")
    note = page.get_by_text(re.compile(r"SuperBPE \(the split lifted after merge 8\) needs \d+ tokens"))
    expect(note).to_be_visible(timeout=FIRST_LOAD_MS)
    expect(page.locator('[data-testid="stColumn"]', has_text="Classic BPE, same text and vocabulary size")).not_to_have_count(0)
    picture(page, "variants-superbpe-compare-laptop-1366x768")
