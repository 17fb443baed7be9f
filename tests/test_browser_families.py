"""Qwen, DeepSeek and SentencePiece in a real browser: the Pre-tokenization lab's families (on a
laptop, a projector in presenter mode and a phone), the Tie-break lab's sixth rule, and Qwen3.6 on
the Encode page with its special-token default said. With ``--screenshots``, pictures of each in
``test-artifacts/``.

Waits are on content the action changes (Playwright's auto-retrying ``expect``).
"""

import pytest
from playwright.sync_api import expect

from .conftest import FIRST_LOAD_MS, PHONE, PROJECTOR
from .streamlit_widgets import choose

pytestmark = pytest.mark.browser
LAB = "Pre-tokenization_lab?text=Cafe%CC%81+paid+1234567+%E6%9D%B1%E4%BA%AC%E3%81%A7"


def lab_table(page):
    return page.locator(".bpe-lab-table").first


@pytest.mark.parametrize("size, present", [(None, False), (PROJECTOR, True), (PHONE, False)], ids=["laptop", "projector", "phone"])
def test_the_pre_tokenization_lab_shows_every_family_after_its_normalization(page, app_url, picture, size, present):
    if size is not None:
        page.set_viewport_size(size)
    page.goto(f"{app_url}/{LAB}{'&present=1' if present else ''}")
    table = lab_table(page)
    expect(table).to_contain_text("SentencePiece", timeout=FIRST_LOAD_MS)
    for title in ("GPT-4o", "Qwen2.5", "Qwen3.6", "DeepSeek"):
        expect(table).to_contain_text(title)
    expect(table.get_by_text("after NFC")).to_have_count(2)
    expect(table).to_contain_text("▁paid")
    picture(page, f"families-pretokenization-lab-{'projector' if present else 'phone' if size else 'laptop'}", full_page=True)


def test_the_tie_break_lab_sets_sentencepieces_rule_beside_the_five_others(page, app_url, picture):
    page.goto(f"{app_url}/Tie_break_lab?preset=wikipedia")
    table = lab_table(page)
    expect(table).to_contain_text("sentencepiece", timeout=FIRST_LOAD_MS)
    expect(table).to_contain_text("SentencePiece's BPE trainer")
    picture(page, "families-tie-break-lab", full_page=True)


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
