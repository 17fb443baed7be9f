"""Display excerpts never split a special token, and stay within their limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.text.pretokenize import special_token_pattern
from bpe.views.encoding import sample_text
from bpe.views.excerpt import excerpt

EOT = "<|endoftext|>"
SPECIALS = [EOT, "<s>", "</s>"]


def test_a_cut_inside_a_special_token_moves_to_its_start():
    text = "あ" * 2_995 + EOT + "い" * 100
    assert excerpt(text, 3_000, special_tokens=[EOT]) == "あ" * 2_995


def test_a_cut_at_a_space_is_preferred_when_it_keeps_at_least_half():
    assert excerpt("aaaa bbbb cccc", 12) == "aaaa bbbb"
    assert excerpt("a" + " " + "b" * 20, 12) == "a " + "b" * 10  # the space would keep under half: cut hard


def test_a_special_token_that_starts_the_text_and_is_longer_than_the_limit_is_kept_whole():
    assert excerpt(EOT + "abc", 5, special_tokens=[EOT]) == EOT


@given(st.lists(st.sampled_from(["a", "b", " ", "é", *SPECIALS]), max_size=60), st.integers(1, 80))
def test_an_excerpt_is_a_prefix_within_the_limit_that_never_ends_inside_a_special_token(parts, limit):
    text = "".join(parts)
    shown = excerpt(text, limit, special_tokens=SPECIALS)
    assert text.startswith(shown)
    assert len(shown) <= limit or shown in SPECIALS
    straddling = [m.group() for m in special_token_pattern(SPECIALS).finditer(text) if m.start() < len(shown) < m.end()]
    assert straddling == []


def test_the_sample_of_an_own_text_encodes_with_the_char_unit_when_its_cut_falls_in_a_special_token():
    corpus = "word " * 38 + EOT + " more words"
    settings = TrainSettings(unit="char", special_tokens=(EOT,), merges=3)
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(corpus, special_tokens=(EOT,)), settings))
    sample = sample_text("own-text", corpus, (EOT,))
    assert tokenizer.decode(tokenizer.encode(sample, allowed_special="all")) == sample
