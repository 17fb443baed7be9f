"""What tokens cost: context, chunks, money and the ratio to English, checked against tiktoken's counts.

The issue measured the Declaration's first article at up to 20.1 times English's tokens under GPT-2
(Tamil) and 6.2 times under GPT-4o (Amharic); tiktoken's own encodings, built offline from the same
files, are the oracle here, never this engine's output.
"""

from __future__ import annotations

import math

import pytest

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.errors import SettingsError
from bpe.teaching.token_cost import ENGLISH, Rates, english_of, token_costs
from bpe.teaching.udhr import ARTICLE_1
from bpe.views.token_cost import cost_table_html, dollars

from .test_why_tokenization import ours, tiktokens  # noqa: F401  (fixtures: tiktoken's encodings, ours of the same files)


def test_the_costliest_language_is_tamil_at_20_1_times_english_under_gpt2_and_amharic_at_6_2_under_gpt4o(ours, tiktokens):
    for title, language, ratio in (("GPT-2", "Tamil", 20.1), ("GPT-4o", "Amharic", 6.2)):
        encoding = tiktokens[title]
        english = len(encoding.encode(ENGLISH.text))
        costs = {s.language: token_costs(s.text, {title: ours[title]}, Rates())[0] for s in ARTICLE_1}
        costliest = max(costs, key=lambda language: costs[language].ratio_to_english)
        assert costliest == language and round(costs[language].ratio_to_english, 1) == ratio
        sentence = next(s for s in ARTICLE_1 if s.language == language)
        assert costs[language].tokens == len(encoding.encode(sentence.text))
        assert costs[language].ratio_to_english == len(encoding.encode(sentence.text)) / english


def test_window_chunks_and_price_follow_the_learners_values(ours, tiktokens):
    rates = Rates(window=16, chunk=10, price_per_million=3.0)
    tokens = len(tiktokens["GPT-2"].encode(ENGLISH.text))
    (row,) = token_costs(ENGLISH.text, {"GPT-2": ours["GPT-2"]}, rates)
    assert (row.tokens, row.window_share, row.chunks, row.ratio_to_english) == (tokens, tokens / 16, math.ceil(tokens / 10), 1.0)
    assert row.price == pytest.approx(tokens * 3.0 / 1_000_000)
    assert "(does not fit)" in cost_table_html([row], rates)  # 33 tokens in a window of 16


def test_a_text_that_is_no_translation_has_no_ratio_to_english(ours):
    assert english_of("The weather is fine today.") is None
    rows = token_costs("The weather is fine today.", ours, Rates())
    assert {row.ratio_to_english for row in rows} == {None} and "<td>–</td>" in cost_table_html(rows, Rates())


@pytest.mark.parametrize("rates, message", [
    (Rates(window=0), "at least 1 token"), (Rates(chunk=0), "at least 1 token"),
    (Rates(price_per_million=-1.0), "a number from 0"), (Rates(price_per_million=float("nan")), "a number from 0"),
])
def test_values_that_price_nothing_are_refused_saying_which(rates, message):
    with pytest.raises(SettingsError, match=message):
        token_costs("hello", {}, rates)


def test_a_tokenizer_that_cannot_encode_the_text_gets_a_row_that_says_why_and_the_others_are_priced(ours):
    char_level = Tokenizer.from_trace(train(Corpus.from_text("abc abc"), TrainSettings(unit="char", merges=1)))
    rows = token_costs(ARTICLE_1[10].text, {"chars": char_level, "GPT-2": ours["GPT-2"]}, Rates())
    assert rows[0].error and "not in this char-level vocabulary" in rows[0].error and rows[1].tokens > 0
    table = cost_table_html(rows, Rates())
    assert "cannot encode this text" in table and "(the most)" not in table  # one priced row: nothing to rank


def test_the_table_escapes_names_and_errors_and_marks_the_costliest_in_words(ours):
    tamil = next(s for s in ARTICLE_1 if s.language == "Tamil").text
    rows = token_costs(tamil, {"<b>a</b>": ours["GPT-2"], "GPT-4o": ours["GPT-4o"]}, Rates())
    table = cost_table_html(rows, Rates())
    assert "&lt;b&gt;a&lt;/b&gt;" in table and "<b>a</b>" not in table
    assert table.count("(the most)") == 1 and table.index("(the most)") < table.index("GPT-4o")  # GPT-2's row


@pytest.mark.parametrize("amount, shown", [(1234.5, "$1,234.50"), (0.01, "$0.0100"), (0.00825, "$0.00825"), (0.0, "$0")])
def test_a_price_keeps_the_digits_that_matter(amount, shown):
    assert dollars(amount) == shown
