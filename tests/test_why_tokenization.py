"""The "Why tokenization matters" cards: their numbers are tiktoken's, and what they say is true.

Every card's ids and counts for GPT-2, GPT-4 and GPT-4o are checked against tiktoken's own
encodings, built offline from the same files (``peers.tiktoken_encoding``), never against this
engine's output; the facts the explanations state (one token, ids, the special token refused) are
checked the same way.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from bpe.app.pages import PAGES
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.udhr import ARTICLE_1
from bpe.teaching.why_tokenization import (
    ENDOFTEXT, GPT2_MAGIKARP, GPT2_STRAWBERRY, PHENOMENA, language_rows, tokenize_with,
)
from bpe.views.why_cards import counts_line, language_chart, language_table_html, split_rows_html

from .peers import TIKTOKEN_ENCODINGS, tiktoken_by_title
from .shared_tokenizers import shared_pretrained

SAMPLES = [(key, label) for key, card in PHENOMENA.items() for label, _ in card.samples]


@pytest.fixture(scope="module")
def tiktokens() -> dict:
    return tiktoken_by_title()


@pytest.fixture(scope="module")
def ours() -> dict:
    return {PRETRAINED[name].title: shared_pretrained(name) for name in TIKTOKEN_ENCODINGS}


def sample(key: str, label: str) -> str:
    return dict(PHENOMENA[key].samples)[label]


@pytest.mark.parametrize(("key", "label"), SAMPLES)
def test_each_cards_ids_and_counts_are_tiktokens(ours, tiktokens, key, label):
    text = sample(key, label)
    rows = tokenize_with(PHENOMENA[key], text, ours)
    assert [row.name for row in rows] == list(tiktokens)
    for row in rows:
        expected = tiktokens[row.name].encode(text, disallowed_special=())
        assert (row.error, list(row.ids)) == (None, expected)
        assert b"".join(token.data for token in row.tokens) == text.encode("utf-8")
        assert f'{html.escape(row.name)}<span class="bpe-count">{len(expected):,} token' in split_rows_html(rows)
    counts = [(name, len(encoding.encode(text, disallowed_special=()))) for name, encoding in tiktokens.items()]
    assert counts_line(rows) == " · ".join(f"{name}: {n:,} token{'s' * (n != 1)}" for name, n in counts)


def test_the_languages_chart_and_table_hold_tiktokens_counts_bytes_and_ratios(ours, tiktokens):
    rows = language_rows(ours)
    assert len(rows) == len(ARTICLE_1) * len(tiktokens)
    english = {name: len(encoding.encode(ARTICLE_1[0].text)) for name, encoding in tiktokens.items()}
    table = language_table_html(rows)
    for row in rows:
        (text,) = [sentence.text for sentence in ARTICLE_1 if sentence.language == row.language]
        tokens = len(tiktokens[row.tokenizer].encode(text))
        size = len(text.encode("utf-8"))
        assert (row.tokens, row.bytes) == (tokens, size)
        assert (row.bytes_per_token, row.ratio_to_english) == (size / tokens, tokens / english[row.tokenizer])
        assert f'<td class="bpe-first">{tokens:,}</td><td>{size / tokens:.1f}</td><td>{tokens / english[row.tokenizer]:.1f}×</td>' in table
    spec = language_chart(rows).to_dict()
    (charted,) = [rows for name, rows in spec["datasets"].items() if len(rows) == len(ARTICLE_1) * len(tiktokens)]
    assert sorted((r["language"], r["tokenizer"], r["tokens"]) for r in charted) == sorted((r.language, r.tokenizer, r.tokens) for r in rows)


def test_there_are_at_least_ten_languages_and_every_script_the_issue_names():
    languages = {sentence.language for sentence in ARTICLE_1}
    assert len(languages) >= 10
    assert {"Hindi", "Arabic", "Chinese", "Japanese", "Korean", "Russian", "Greek", "Thai", "Swahili"} <= languages
    assert ARTICLE_1[0].language == "English"


def test_hindi_costs_more_than_english_under_every_openai_tokenizer(ours):
    hindi = {row.tokenizer: row.ratio_to_english for row in language_rows(ours) if row.language == "Hindi"}
    assert min(hindi.values()) > 1.2 and hindi["GPT-2"] > hindi["GPT-4"] > hindi["GPT-4o"]


def test_what_the_explanations_state_is_what_tiktoken_does(tiktokens):
    gpt2, gpt4, gpt4o = tiktokens.values()
    for encoding in tiktokens.values():  # " strawberry" is one token; without the space and in capitals it is not
        assert len(encoding.encode(" strawberry")) == 1
        assert len(encoding.encode("strawberry")) > 1 and len(encoding.encode("STRAWBERRY")) > 1
    assert gpt2.encode(" strawberry") == [GPT2_STRAWBERRY] and gpt2.encode(" SolidGoldMagikarp") == [GPT2_MAGIKARP]
    assert len(gpt4.encode(" SolidGoldMagikarp")) > 1
    assert [gpt2.decode([i]) for i in gpt2.encode("1234567")] == ["123", "45", "67"]
    for encoding in (gpt4, gpt4o):
        assert [encoding.decode([i]) for i in encoding.encode("1234567")] == ["123", "456", "7"]
    code4, code8 = (text for _, text in PHENOMENA["code"].samples)
    assert len(gpt2.encode(code8)) > len(gpt2.encode(code4)) and len(gpt4.encode(code8)) == len(gpt4.encode(code4))
    for encoding in tiktokens.values():  # the trailing space is a token of its own
        assert encoding.decode([encoding.encode("The capital of France is ")[-1]]) == " "
        assert len(encoding.encode(" Paris")) == 1
        with pytest.raises(ValueError, match="disallowed special token"):
            encoding.encode(sample("special-tokens", "a pasted document"))


def test_the_special_tokens_card_notes_the_refusal_and_the_allowed_id_as_tiktoken(ours, tiktokens):
    text = sample("special-tokens", "a pasted document")
    for row in tokenize_with(PHENOMENA["special-tokens"], text, ours):
        encoding = tiktokens[row.name]
        allowed = encoding.encode(text, allowed_special="all")
        special = encoding.encode(ENDOFTEXT, allowed_special="all")
        assert row.note.startswith("refused by default;")
        assert f"as plain text {len(encoding.encode(text, disallowed_special=()))} tokens" in row.note
        assert f"allowed {len(allowed)} tokens, special id {special[0]}" in row.note


def test_a_tokenizer_that_cannot_encode_a_text_says_why_and_the_others_still_count(ours):
    from bpe import Corpus, Tokenizer, TrainSettings, train

    chars = Tokenizer.from_trace(train(Corpus.from_text("low lower", pretokenizer="gpt2"), TrainSettings(unit="char", merges=2)))
    rows = tokenize_with(PHENOMENA["languages"], "नमस्ते", {"ours": chars, "GPT-2": ours["GPT-2"]})
    assert rows[0].error and "not in this char-level vocabulary" in rows[0].error and not rows[0].ids
    assert rows[1].error is None and rows[1].ids
    assert "cannot encode this text: " in split_rows_html(rows) and counts_line(rows).startswith("ours: cannot encode it")
    assert {row.tokenizer for row in language_rows({"ours": chars})} == set()  # no English: no ratio to draw


def test_the_split_rows_escape_every_text():
    from bpe import Corpus, Tokenizer, TrainSettings, train

    hostile = "<img src=x onerror=alert(1)>"
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(hostile, pretokenizer="gpt2"), TrainSettings(merges=5)))
    shown = split_rows_html(tokenize_with(PHENOMENA["spelling"], hostile, {hostile: tokenizer}))
    assert "<img" not in shown and "&lt;img" in shown


def test_every_card_links_to_a_registered_page_and_has_an_explanation_and_a_try_text():
    files = {page.file for page in PAGES}
    for card in PHENOMENA.values():
        assert card.links and {link.page for link in card.links} <= files
        assert card.samples and card.try_text and len(card.explanation) > 200
        assert re.fullmatch(r"[a-z-]+", card.key)
    assert list(PHENOMENA) == ["spelling", "numbers", "languages", "cost", "code", "trailing-space", "glitch-tokens", "special-tokens"]


def test_the_chart_spec_is_plain_json(ours):
    json.dumps(language_chart(language_rows(ours)).to_dict(), allow_nan=False)


def test_a_long_row_draws_its_first_tokens_whole_and_counts_all_of_them(ours):
    (gpt2,) = [tokenizer for name, tokenizer in ours.items() if name == "GPT-2"]
    hindi = next(sentence.text for sentence in ARTICLE_1 if sentence.language == "Hindi")
    rows = tokenize_with(PHENOMENA["languages"], hindi, {"GPT-2": gpt2})
    shown = split_rows_html(rows)
    drawn = re.findall(r'class="bpe-id"[^>]*>(\d+)</span>', shown)
    assert 48 <= len(drawn) <= 51 and drawn == [str(token_id) for token_id in rows[0].ids[: len(drawn)]]
    assert b"".join(token.data for token in rows[0].tokens[: len(drawn)]).decode("utf-8")  # ends on a whole character
    assert f"… and {len(rows[0].ids) - len(drawn):,} more tokens" in shown and f"{len(rows[0].ids):,} tokens" in shown
