"""Parity with real libraries, offline: each tie-break rule reproduces the trainer it is named for.

* ``hf``: Hugging Face tokenizers' ``BpeTrainer``, byte-level (GPT-2 style) and char-level.
* ``smallest-ids``: rustbpe (nanochat's trainer).
* ``first-seen``: tiktoken's educational ``bpe_train``.
* Encoding: a ``tiktoken.Encoding`` built from our own trained ranks gives the same ids.

Merges are compared in order, merge for merge, on real text where ties are everywhere.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tiktoken
from tiktoken._educational import bpe_train as tiktoken_educational_train

from bpe.encoding.tokenizer import Tokenizer
from bpe.text.corpus import Corpus
from bpe.text.pretokenize import GPT2_PATTERN
from bpe.tokens.byte_level import to_byte_text
from bpe.training.presets import HF_COURSE_WORDS, python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

from .examples import examples
from .generated_text import article_text
from .peers import hf_byte_level_merges, hf_char_merges, rustbpe_tokens

MERGES = 1000
EOT = "<|endoftext|>"

# Small word corpora for char-level parity: ties everywhere, and characters beyond ASCII so that
# Hugging Face's alphabet order (by code point) matters.
CHAR_CORPORA = {
    "hf-course": " ".join(word for word, count in HF_COURSE_WORDS.items() for _ in range(count)),
    "sennrich": "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3,
    "accents-and-cjk": (
        "café naïve résumé façade über straße café café 東京 東京都 京都 京都 "
        "naïve naïve über über straße ÅÆØ åæø ÅÆØ"
    ),
}


REAL_CORPORA = {"python-docs": python_docs_text, "generated-article": article_text}
"""Real-sized texts of two shapes, both made on every machine: nothing to skip when a file is absent."""


def corpus_text(name: str) -> str:
    return REAL_CORPORA[name]()


@lru_cache(maxsize=None)
def our_trace(name: str, tie_break: str, merges: int = MERGES, special_tokens: tuple[str, ...] = ()):
    settings = TrainSettings(tie_break=tie_break, merges=merges, min_frequency=1, special_tokens=special_tokens)
    corpus = Corpus.from_text(corpus_text(name), pretokenizer="gpt2", special_tokens=special_tokens)
    return train(corpus, settings)



# -- Hugging Face -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", REAL_CORPORA)
def test_hf_rule_matches_hugging_face_byte_level_trainer_merge_for_merge(name):
    text = corpus_text(name)
    trace = our_trace(name, "hf")
    ours = [
        (to_byte_text(trace.tokens[s.left].data), to_byte_text(trace.tokens[s.right].data))
        for s in trace.steps
    ]
    assert sum(s.tie_count > 1 for s in trace.steps) > 100  # the rule was really exercised
    assert len(ours) == MERGES
    assert ours == hf_byte_level_merges(text, MERGES)



def our_char_merges(text: str, merges: int) -> list[tuple[str, str]]:
    settings = TrainSettings(
        unit="char", pretokenizer="whitespace", tie_break="hf", merges=merges, min_frequency=1
    )
    trace = train(Corpus.from_text(text, pretokenizer="whitespace"), settings)
    return [(trace.token_text(s.left), trace.token_text(s.right)) for s in trace.steps]


@pytest.mark.parametrize("text", CHAR_CORPORA.values(), ids=CHAR_CORPORA.keys())
def test_hf_rule_matches_hugging_face_char_level_trainer_until_no_pair_is_left(text):
    ours = our_char_merges(text, 100)
    assert 0 < len(ours) < 100  # both trainers ran out of pairs
    assert ours == hf_char_merges(text, 100)


def test_hf_rule_matches_hugging_face_char_level_trainer_on_real_text():
    text = python_docs_text()
    assert our_char_merges(text, MERGES) == hf_char_merges(text, MERGES)


# Random word tables of two letters: every step is a tie, so only the rule decides.
RANDOM_WORDS = st.lists(st.text(alphabet="ab", min_size=1, max_size=9), min_size=1, max_size=8)


@settings(max_examples=examples(100), deadline=None)
@given(words=RANDOM_WORDS, repeats=st.lists(st.integers(min_value=1, max_value=4), min_size=8, max_size=8))
def test_hf_rule_matches_hugging_face_char_level_trainer_on_random_word_tables(words, repeats):
    text = " ".join(word for word, times in zip(words, repeats) for _ in range(times))
    assert our_char_merges(text, 60) == hf_char_merges(text, 60)


# -- rustbpe ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", REAL_CORPORA)
def test_smallest_ids_rule_matches_rustbpe_merge_for_merge(name):
    text = corpus_text(name)
    trace = our_trace(name, "smallest-ids")
    ours = [trace.tokens[s.new_id].data for s in trace.steps]
    assert len(ours) == MERGES
    assert ours == rustbpe_tokens(text, MERGES)


@settings(max_examples=examples(100), deadline=None)
@given(text=st.text(alphabet="ab é東😀\n'0", min_size=1, max_size=80))
def test_smallest_ids_rule_matches_rustbpe_on_random_text(text):
    trace = train(Corpus.from_text(text), TrainSettings(tie_break="smallest-ids", merges=30, min_frequency=1))
    ours = [trace.tokens[s.new_id].data for s in trace.steps]
    assert ours == rustbpe_tokens(text, len(ours))


# -- tiktoken's educational trainer -----------------------------------------------------------
EDUCATIONAL_TEXTS = {
    "python-docs-opening": python_docs_text()[:3000],
    "sennrich": " low" * 5 + " lower" * 2 + " widest" * 3 + " newest" * 6,
}


@pytest.mark.parametrize("text", EDUCATIONAL_TEXTS.values(), ids=EDUCATIONAL_TEXTS.keys())
def test_first_seen_rule_matches_tiktokens_educational_trainer(text, capsys):
    merges = 60 if len(text) > 1000 else 12
    ranks = tiktoken_educational_train(text, 256 + merges, GPT2_PATTERN, visualise=None)
    capsys.readouterr()
    theirs = [token for token, _ in sorted(ranks.items(), key=lambda item: item[1])][256:]

    settings = TrainSettings(tie_break="first-seen", merges=merges, min_frequency=1)
    trace = train(Corpus.from_text(text, pretokenizer="gpt2"), settings)
    assert any(s.tie_count > 1 for s in trace.steps)
    assert [trace.tokens[s.new_id].data for s in trace.steps] == theirs


# -- encoding against tiktoken ----------------------------------------------------------------
ENCODE_SAMPLES = {
    "english": "The quick brown fox jumps over the lazy dog. It's 'quoted', isn't it?",
    "code": "def area(r: float) -> float:\n    return 3.14159 * r ** 2  # circle\n\n\nprint(area(2))\n",
    "numbers": "0 7 42 1234567 3.14159 1,000,000 -12e-3 2024-11-21",
    "spaces-and-newlines": "a  b   c\n\n\n d\t\te \r\n f\n \n  g",
    "cjk": "東京は日本の首都です。北京是中国的首都。서울은 한국의 수도입니다.",
    "emoji-zwj": "family 👨\u200d👩\u200d👧\u200d👦 flag 🏳️\u200d🌈 thumbs 👍🏽 done",
    "combining-marks": "e\u0301 n\u0303 a\u0308\u0323 Z\u0351\u0360\u0352a\u0337\u0353l\u0336g\u0335o\u0334",
    "trailing-whitespace": "ends with spaces   \n\t  ",
    "only-newlines": "\n\n\n",
    "empty": "",
    "long-chunks": "x" * 300 + " " + "the" * 80 + " " + "-=" * 60 + " " + "\n" * 70 + "1" * 90,
    "docs-slice": python_docs_text()[100_000:110_000],
}


@pytest.fixture(scope="module")
def tokenizers_pair() -> tuple[Tokenizer, tiktoken.Encoding]:
    trace = our_trace("python-docs", "first-seen", special_tokens=(EOT,))
    ranks = {trace.tokens[token_id].data: token_id for token_id in range(256 + len(trace.steps))}
    assert len(ranks) == 256 + len(trace.steps)  # no two tokens spell the same bytes
    encoding = tiktoken.Encoding(
        name="bpe-lab-parity", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens=trace.special_ids
    )
    return Tokenizer.from_trace(trace), encoding


@pytest.mark.parametrize("text", ENCODE_SAMPLES.values(), ids=ENCODE_SAMPLES.keys())
def test_encode_gives_the_same_ids_as_tiktoken_with_the_same_ranks(tokenizers_pair, text):
    ours, theirs = tokenizers_pair
    ids = ours.encode(text)
    assert ids == theirs.encode(text)
    assert ours.decode(ids) == text


SPECIAL_TEXT = f"one{EOT}two <|endoftext|> three{EOT}"


def test_special_text_with_all_allowed_encodes_like_tiktoken(tokenizers_pair):
    ours, theirs = tokenizers_pair
    ids = ours.encode(SPECIAL_TEXT, allowed_special="all")
    assert ids.count(ours.special_tokens[EOT]) == 3
    assert ids == theirs.encode(SPECIAL_TEXT, allowed_special="all")


def test_special_text_as_plain_text_encodes_like_tiktoken(tokenizers_pair):
    ours, theirs = tokenizers_pair
    ids = ours.encode(SPECIAL_TEXT, disallowed_special=())
    assert ours.special_tokens[EOT] not in ids
    assert ids == theirs.encode(SPECIAL_TEXT, disallowed_special=())
    assert ours.encode_ordinary(SPECIAL_TEXT) == theirs.encode_ordinary(SPECIAL_TEXT)


def test_special_text_is_refused_by_default_like_tiktoken(tokenizers_pair):
    ours, theirs = tokenizers_pair
    with pytest.raises(ValueError, match="special token"):
        ours.encode(SPECIAL_TEXT)
    with pytest.raises(ValueError, match="special token"):
        theirs.encode(SPECIAL_TEXT)
