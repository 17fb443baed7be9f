"""GPT-4 and GPT-4o in a real browser (Debian's Chromium via Playwright, live server).

The token/id link is CSS (``:has(...:hover)``), so only a browser can show it works: hovering a
token outlines its ids, hovering an id outlines its token. Waits are on content and styles the
action changes (Playwright's auto-retrying ``expect``). Golden ids come from tiktoken itself.
"""

import pytest
from playwright.sync_api import expect

from .peers import tiktoken_encoding
from .streamlit_widgets import choose

pytestmark = pytest.mark.browser

LLAMA = "hi 🦙!"  # GPT-4o: "hi", then " 🦙" split over three tokens, then "!"


@pytest.fixture(scope="module")
def gpt4o():
    return tiktoken_encoding("o200k_base")


def test_hovering_a_token_marks_its_ids_and_hovering_an_id_marks_its_token(page, app_url, gpt4o, picture):
    hi, *llama, bang = gpt4o.encode(LLAMA)
    page.goto(f"{app_url}/Encode_and_decode")
    choose(page, "Tokenizer", "GPT-4o (200,000 tokens)")
    text = page.get_by_label("Text to encode (Ctrl+Enter to apply)")
    text.fill(LLAMA)
    text.press("Control+Enter")
    ids = page.locator(".bpe-linked .bpe-ids")
    expect(ids).to_have_text(", ".join(map(str, [hi, *llama, bang])))
    chip = page.locator(".bpe-linked .bpe-tok").filter(has_text="🦙")
    expect(chip).to_have_count(1)  # one chip for the whole character, though it is three tokens
    expect(chip).to_have_attribute("title", f"ids {llama[0]}, {llama[1]}, {llama[2]} · bytes 20 f0 9f a6 99 · ·🦙 "
                                            "(whole characters from 3 tokens)")

    chip.hover()
    for token_id in llama:
        expect(ids.locator(".bpe-id", has_text=str(token_id))).to_have_css("outline-style", "solid")
    expect(chip).to_have_css("outline-style", "solid")
    expect(ids.locator(".bpe-id", has_text=str(hi))).to_have_css("outline-style", "none")

    ids.locator(".bpe-id", has_text=str(hi)).hover()
    hi_chip = page.locator(".bpe-linked .bpe-tok").filter(has_text="hi")
    expect(hi_chip).to_have_css("outline-style", "solid")
    expect(chip).to_have_css("outline-style", "none")
    picture(page, "encode-gpt4o-linked")


def test_compare_opens_on_ours_gpt2_and_gpt4o(page, app_url, gpt4o):
    page.goto(f"{app_url}/Compare")
    expect(page.get_by_role("heading", name="Compare tokenizers")).to_be_visible()
    count = len(gpt4o.encode(" lowest newer wider"))
    expect(page.get_by_text(f"GPT-4o (200,000 tokens) · {count} tokens")).to_be_visible()
    expect(page.get_by_text("Ours after all 10 merges · 12 tokens")).to_be_visible()
    expect(page.get_by_text("GPT-2 (50,257 tokens) · 3 tokens")).to_be_visible()


def test_vocabulary_of_gpt4o_shows_how_it_began_a_merge_tree_and_lengths(page, app_url, picture):
    page.goto(f"{app_url}/Vocabulary")
    choose(page, "Vocabulary of", "GPT-4o (200,000 tokens)")
    expect(page.get_by_role("heading", name="How GPT-4o began")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"] canvas').first).to_be_visible()
    page.get_by_label("Search by text, hex bytes or id").fill("ization")
    page.get_by_label("Search by text, hex bytes or id").press("Enter")
    expect(page.get_by_text("found, all shown")).to_be_visible()
    expect(page.locator('[data-testid="stGraphVizChart"] svg').first).to_contain_text("merge")
    expect(page.locator('[data-testid="stVegaLiteChart"] svg.marks, [data-testid="stVegaLiteChart"] canvas').first).to_be_visible()
    picture(page, "vocabulary-gpt4o")


def test_byte_inspector_takes_a_real_gpt4o_token(page, app_url):
    page.goto(f"{app_url}/Byte_inspector")
    page.get_by_role("button", name="Inspect its bytes: f0 9f").click()
    expect(page.get_by_label("The token's bytes, in hex")).to_have_value("f0 9f")
