"""Qwen, DeepSeek and SentencePiece in the app, run headless with AppTest: every page that offers a
pretrained tokenizer offers them (through the registry), Compare can set five tokenizers side by
side with a SentencePiece-style run, and the labs show the families' splits and rules.

Golden ids come from the owners' libraries (``tests/owners.py``), never from ours.
"""

from __future__ import annotations

import pytest

from .apptest_support import ENCODE, VOCAB, errors, html_with, open_page, unescape_markdown
from .owners import owner_of
from bpe.pretrained.registry import PRETRAINED

COMPARE = "pages/9_Compare.py"
PRETOKENIZATION = "pages/7_Pre-tokenization_lab.py"
TIE_LAB = "pages/5_Tie_break_lab.py"
TEXT = "東京で2024年に<|im_end|> Cafe\u0301"


@pytest.fixture(scope="module")
def qwen36():
    return owner_of("qwen3.6")


def test_encode_says_qwen_encodes_special_tokens_by_default_and_its_choice_still_holds(qwen36):
    at = open_page(ENCODE)
    at.selectbox(key="w.encode_with").set_value("qwen3.6").run()
    at.text_area(key="w.encode_text").set_value(TEXT).run()
    note = unescape_markdown(next(c.value for c in at.caption if "special tokens:" in c.value))
    assert 'encodes special-token text as special tokens when not told (`allowed_special="all"`)' in note
    assert "and 21 more" in note  # 33 special tokens, 12 named
    at.radio(key="w.special_mode").set_value("allowed").run()
    assert at.code[0].value == ", ".join(map(str, qwen36.default(TEXT)))
    at.radio(key="w.special_mode").set_value("disallowed").run()
    assert any("<|im_end|>" in message for message in errors(at))


def test_compare_sets_ours_gpt4o_qwen_deepseek_and_a_sentencepiece_style_run_side_by_side(qwen36):
    at = open_page(COMPARE)
    at.multiselect(key="w.compare_with").set_value(["ours-last", "o200k_base", "qwen3.6", "deepseek", "variant"]).run()
    next(button for button in at.button if button.label == "SentencePiece-style").click().run()
    assert not at.exception and not errors(at)
    rows = at.dataframe[0].value.set_index("tokenizer")
    assert len(rows) == 5
    variant = next(label for label in rows.index if label.startswith("Ours with ties: sentencepiece · char · sentencepiece"))
    text = at.text_area(key="w.compare_text").value
    assert rows.loc["Qwen3.6 (248,077 tokens)", "tokens"] == len(qwen36.encode(text, allowed="all", disallowed="all"))
    chips = [element.value for element in at.html if 'class="bpe-tokens"' in element.value]
    assert "▁" in chips[list(rows.index).index(variant)]  # SentencePiece's spaces


def test_the_pre_tokenization_lab_shows_each_family_after_its_normalization():
    at = open_page(PRETOKENIZATION)
    at.text_area(key="w.pretok_text").set_value("Cafe\u0301 in 2024").run()
    table = html_with(at, "bpe-lab-table")
    for title in ("GPT-4", "Qwen2.5", "Qwen3.6", "DeepSeek", "SentencePiece"):
        assert f'<th scope="row">{title}' in table
    assert table.count("after NFC") == 2 and "after SentencePiece" in table


def test_the_tie_break_lab_sets_sentencepieces_rule_beside_the_others():
    at = open_page(TIE_LAB)
    assert not at.exception and not errors(at)
    assert "sentencepiece" in html_with(at, "bpe-lab-table")


@pytest.mark.parametrize("name", ["qwen3.6", "deepseek"])
def test_the_vocabulary_shows_how_each_began(name):
    at = open_page(VOCAB)
    at.selectbox(key="w.vocab_of").set_value(name).run()
    assert not at.exception and not errors(at)
    title = PRETRAINED[name].title
    assert f"How {title} began" in [header.value for header in at.header]
