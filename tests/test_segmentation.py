"""The three segmentations: BPE's own is ``encode``'s, the fewest-token one is the true minimum
(brute force over every way to cut, sharing no code with the engine) and never more tokens than
BPE's, and every segmentation spells the text back.

Vocabularies are random: small corpora over a few letters trained under random tie rules, so a
text of up to ten symbols has few enough cuts to try them all.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import Corpus, TrainSettings, train
from bpe.encoding.segmentation import SEGMENTATIONS, segment, token_counts
from bpe.encoding.tokenizer import Tokenizer
from bpe.training.tiebreak import TIE_BREAK_RULES

from .examples import examples
from .shared_tokenizers import shared_pretrained
from .test_segmentation_cuts import cut, fewest_longest_first, greedy_longest

LETTERS = "ab c"
CORPUS = st.text(alphabet=LETTERS, min_size=2, max_size=40)
TEXT = st.text(alphabet=LETTERS, min_size=1, max_size=10)


def brute_force_fewest(text: bytes, vocabulary: frozenset[bytes]) -> int:
    """The fewest tokens any cut of ``text`` into ``vocabulary``'s tokens needs, by trying every cut."""
    @cache
    def fewest(start: int) -> float:
        if start == len(text):
            return 0
        return min((1 + fewest(end) for end in range(start + 1, len(text) + 1) if text[start:end] in vocabulary),
                   default=float("inf"))
    return fewest(0)


def random_tokenizer(corpus: str, merges: int, rule: str, unit: str) -> Tokenizer:
    return Tokenizer.from_trace(train(Corpus.from_text(corpus, pretokenizer="none"),
                                      TrainSettings(unit=unit, pretokenizer="none", merges=merges, tie_break=rule)))


@settings(max_examples=examples(300), deadline=None)
@given(corpus=CORPUS, merges=st.integers(1, 14), rule=st.sampled_from(list(TIE_BREAK_RULES)),
       unit=st.sampled_from(["byte", "char"]), text=TEXT)
def test_fewest_tokens_is_the_brute_force_minimum_and_never_more_than_bpes(corpus, merges, rule, unit, text):
    text = "".join(ch for ch in text if ch in corpus) or corpus[0]  # a char vocabulary knows the corpus's letters only
    tokenizer = random_tokenizer(corpus, merges, rule, unit)
    (chunk,) = segment(tokenizer, text)
    vocabulary = frozenset(token.data for token in tokenizer.tokens.values())
    assert len(chunk.ids["fewest"]) == brute_force_fewest(text.encode(), vocabulary)
    assert cut(tokenizer, text, "fewest") == fewest_longest_first(text.encode(), vocabulary)  # which cut, too
    assert cut(tokenizer, text, "longest") == greedy_longest(text.encode(), vocabulary)
    assert len(chunk.ids["fewest"]) <= len(chunk.ids["bpe"]) and len(chunk.ids["fewest"]) <= len(chunk.ids["longest"])
    assert list(chunk.ids["bpe"]) == tokenizer.encode(text)
    for name in SEGMENTATIONS:
        assert tokenizer.decode(chunk.ids[name]) == text


def test_longest_match_takes_the_longest_token_first_and_can_need_more_tokens_than_bpe():
    gpt2 = shared_pretrained("gpt2")
    (chunk,) = segment(gpt2, "yield")
    assert [gpt2.decode([i]) for i in chunk.ids["longest"]] == ["yi", "el", "d"]
    assert [gpt2.decode([i]) for i in chunk.ids["bpe"]] == ["y", "ield"] == [gpt2.decode([i]) for i in chunk.ids["fewest"]]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_on_real_text_bpes_own_is_encode_and_the_fewest_is_a_little_fewer(name):
    from bpe.training.presets import python_docs_text

    tokenizer = shared_pretrained(name)
    text = python_docs_text()[:40_000]
    chunks = segment(tokenizer, text)
    counts = token_counts(chunks)
    assert [i for chunk in chunks for i in chunk.ids["bpe"]] == tokenizer.encode(text)
    assert counts["fewest"] < counts["bpe"] < 1.01 * counts["fewest"]  # fewer, by well under 1 %
    assert all(tokenizer.decode([i for chunk in chunks for i in chunk.ids[way]]) == text for way in SEGMENTATIONS)


def test_a_special_token_and_an_end_of_word_marker_are_cut_alike_every_way():
    from bpe import PRESETS

    tokenizer = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    chunks = segment(tokenizer, " lowest widest")
    assert all(len(chunk.ids["bpe"]) >= len(chunk.ids["fewest"]) for chunk in chunks)
    gpt4 = shared_pretrained("cl100k_base")
    special = [chunk for chunk in segment(gpt4, "hi<|endoftext|>", allowed_special="all") if chunk.kind == "special"]
    assert [set(chunk.ids.values()) for chunk in special] == [{(100257,)}]
