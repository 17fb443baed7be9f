"""Qwen, DeepSeek and SentencePiece in a real browser: the Pre-tokenization lab's families (on a
phone and on a projector in presenter mode), the Tie-break lab's sixth rule, and Qwen3.6 on
the Encode page with its special-token default said. With ``--screenshots``, pictures of each in
``test-artifacts/``. The labs' checks run in their pages' loads in tests/test_browser_a11y.py.

Waits are on content the action changes (Playwright's auto-retrying ``expect``).
"""

import pytest
from playwright.sync_api import expect

from .conftest import FIRST_LOAD_MS
from .streamlit_widgets import choose

pytestmark = pytest.mark.browser
LAB_TEXT = "text=Cafe%CC%81+paid+1234567+%E6%9D%B1%E4%BA%AC%E3%81%A7"
"""The Pre-tokenization lab's text in a lesson: a decomposed é (NFC joins it), digits, Japanese."""


def lab_table(page):
    return page.locator(".bpe-lab-table").first


def every_family_after_its_normalization(page, picture) -> None:
    """The Pre-tokenization lab on :data:`LAB_TEXT`: every family's row, SentencePiece's and
    Qwen's after NFC."""
    table = lab_table(page)
    expect(table).to_contain_text("SentencePiece")
    for title in ("GPT-4o", "Qwen2.5", "Qwen3.6", "DeepSeek"):
        expect(table).to_contain_text(title)
    expect(table.get_by_text("after NFC")).to_have_count(2)
    expect(table).to_contain_text("▁paid")
    screen = "phone" if page.viewport_size["width"] < 500 else "projector"
    picture(page, f"families-pretokenization-lab-{screen}", full_page=True)


def sentencepieces_rule_beside_the_five_others(page, picture) -> None:
    """The Tie-break lab on Wikipedia's example sets SentencePiece's rule beside the five others."""
    table = lab_table(page)
    expect(table).to_contain_text("sentencepiece")
    expect(table).to_contain_text("SentencePiece's BPE trainer")
    picture(page, "families-tie-break-lab", full_page=True)


ON_A_PHONE = {"Pre-tokenization_lab": every_family_after_its_normalization}
ON_A_PROJECTOR = {"Pre-tokenization_lab": every_family_after_its_normalization, "Tie_break_lab": sentencepieces_rule_beside_the_five_others}
"""Checks of a page in a lesson's state, run in that page's load by tests/test_browser_a11y.py (as
tests/test_browser_presenter.py's are): the lab opens on :data:`LAB_TEXT` there."""


def test_encode_with_qwen36_says_it_encodes_special_tokens_by_default(page, app_url, picture):
    page.goto(f"{app_url}/Encode_and_decode?preset=sennrich")
    choose(page, "Tokenizer", "Qwen3.6 (248,077 tokens)")
    expect(page.get_by_text("encodes special-token text as special tokens when not told")).to_be_visible(timeout=FIRST_LOAD_MS)
    box = page.get_by_label("Text to encode (Ctrl+Enter to apply)")
    box.fill("你好<|im_end|> Cafe\u0301")
    box.press("Control+Enter")
    page.get_by_text("allowed: encode them as special tokens").click()
    expect(page.locator('[data-testid="stCode"]').first).to_contain_text("248046")  # <|im_end|>
    picture(page, "families-encode-qwen36", full_page=True)
