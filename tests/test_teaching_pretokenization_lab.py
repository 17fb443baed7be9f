"""The pre-tokenization lab: splits side by side, telling examples, and tokens that span words."""

import pytest

from bpe.teaching.pretokenization_lab import (
    EXAMPLES, NAMED_SPECS, compare_splits, spanning_tokens, spans_words, without_pretokenization,
)
from bpe.text.pretokenize import Pretokenizer


def words(text, spec):
    (split,) = compare_splits(text, specs=(spec,))
    return split.words


def test_gpt4_splits_1234567_into_groups_of_three_digits():
    assert words("1234567", "gpt4") == ["123", "456", "7"]
    assert words("1234567", "gpt2") == ["1234567"]


def test_gpt2_contractions_are_case_sensitive_and_gpt4_contractions_are_not():
    assert words("I'M HERE", "gpt2") == ["I", "'", "M", " HERE"]
    assert words("I'M HERE", "gpt4") == ["I", "'M", " HERE"]
    assert words("I'm here", "gpt2") == words("I'm here", "gpt4") == ["I", "'m", " here"]


def test_whitespace_splitting_keeps_spaces_as_gaps_that_training_ignores():
    (split,) = compare_splits("hello   ", specs=("whitespace",))
    assert split.pieces == (("hello", True), ("   ", False))


def test_splits_come_in_the_order_asked_with_the_custom_regex_last():
    splits = compare_splits("ab cd", custom=r"\w")
    assert [split.spec for split in splits] == [*NAMED_SPECS, r"regex:\w"]
    assert splits[-1].words == ["a", "b", "c", "d"] and splits[-1].help


def test_a_bad_custom_regex_is_reported_not_raised():
    (split,) = compare_splits("ab", custom="(", specs=())
    assert split.pieces == () and "not a valid regex" in split.error


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.title)
def test_every_example_splits_losslessly_and_teaches_one_line(example):
    assert example.lesson and "\n" not in example.lesson
    for split in compare_splits(example.text):
        assert "".join(piece for piece, _ in split.pieces) == Pretokenizer.parse(split.spec).normalize(example.text)


def test_the_families_lessons_say_what_their_splits_do():
    accents = {split.spec: split for split in compare_splits("Cafe\u0301 or café?")}
    assert "\u0301" in accents["gpt2"].words and "\u0301" in accents["gpt4"].words  # the accent cut off
    assert accents["qwen2"].normalization == "NFC" and accents["qwen2"].words[0] == "Caf\u00e9"  # NFC first
    assert all(accents[name].words[0].endswith("e\u0301") for name in ("gpt4o", "deepseek", "sentencepiece"))
    numbers = {split.spec: split.words[-3:] for split in compare_splits("in 2024 we paid 1234567")}
    assert numbers["gpt4"] == numbers["gpt4o"] == numbers["deepseek"] == ["123", "456", "7"]
    assert numbers["qwen2"] == ["5", "6", "7"] and numbers["gpt2"][-1] == " 1234567"
    assert numbers["sentencepiece"][-1] == "\u2581" + "1234567"
    spaces = {split.spec: split.words for split in compare_splits("Hello  world")}
    assert spaces["sentencepiece"] == ["\u2581Hello", "\u2581world"] and " " in spaces["gpt4"]


def test_in_every_example_gpt2_or_gpt4_disagrees_with_another_pattern():
    for example in EXAMPLES:
        splits = {split.spec: split.pieces for split in compare_splits(example.text)}
        assert splits["gpt2"] != splits["gpt4"] or splits["gpt2"] != splits["whitespace"], example.title


def test_without_pre_tokenization_training_learns_tokens_that_span_words():
    assert spanning_tokens("newest newest newest widest", pretokenizer="none") == ["newest ", "newest newest "]
    assert spanning_tokens("newest newest newest widest", pretokenizer="gpt2") == []
    none, gpt2 = without_pretokenization()
    assert "newest newest " in none.tokens and " newest" in gpt2.tokens


def test_a_leading_space_does_not_make_a_token_span_words():
    assert [spans_words(token) for token in ("t n", "est ", " newest", "\n\n")] == [True, True, False, False]


def test_gpt4o_keeps_contractions_on_their_word_and_splits_camel_case():
    # The pattern is tiktoken's o200k one (tests/test_pretrained_parity.py checks the string).
    assert words("I'M HERE", "gpt4o") == ["I'M", " HERE"]
    assert words("camelCaseWord XMLHttp", "gpt4o") == ["camel", "Case", "Word", " XMLHttp"]
    assert words("1234567", "gpt4o") == ["123", "456", "7"]
