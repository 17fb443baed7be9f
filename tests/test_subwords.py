"""Why subwords: the word, character, byte and BPE baselines on a held-out text, counted by hand.

The toy, small enough to count on paper::

    training: "the cat sat on the mat the end"       held out: "the cat ate the rat"

Words (``\\w+|[^\\w\\s]``): the training text has the ×3, then cat, sat, on, mat, end once each, so
ranked most frequent first (a tie: first seen) they are the, cat, sat, on, mat, end. The held-out
text has 5 words: the, cat, ate, the, rat.

* Words, N = 2 ({the, cat} + [UNK]): vocabulary 3; 5 tokens; ate and rat are [UNK]: 2 of 5 = 40 %;
  1 token per word. N = 6 (every training word): vocabulary 7, still 2 [UNK] (ate, rat were never seen).
* Characters: the training text has 11 distinct characters (t h e c a s o n m d and the space), so
  the vocabulary is 12 with [UNK]; the held-out text is 19 characters, of which r is unseen:
  1 [UNK] in 19 tokens; 19 / 5 = 3.8 tokens per word.
* Bytes: 256 in the vocabulary, 19 bytes (all ASCII), no [UNK], 3.8 per word.
* BPE, characters, split on whitespace, first-seen ties, 3 merges. Pairs in the training words
  (the ×3, cat, sat, on, mat, end): t+h 3, h+e 3, a+t 3 (cat, sat, mat), the rest once. The first
  of the three tied at 3 is t+h (in "the", the first word): merge 1 th. Then th+e 3 and a+t 3 tie;
  th+e comes first: merge 2 the. Then a+t 3: merge 3 at. Vocabulary: 11 characters + 3 merges +
  [UNK] = 15. The held-out text, split on whitespace (spaces are pieces of their own): the (1),
  space (1), c at (2), space, at e (2), space, the (1), space, [UNK] at (2): 1+1+2+1+2+1+1+1+2 = 12
  tokens, 1 [UNK]: 12 / 5 = 2.4 tokens per word. At 0 merges BPE is the characters, 19 tokens; each
  merge takes away its replacements: th 2 (the ×2) → 17, the 2 → 15, at 3 (cat, ate, rat) → 12.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.teaching.subwords import KINDS, UNKNOWN_ID, SubwordLab, sample_sizes, split_off

from .examples import examples
from .strategies import TEXT

TRAINING = "the cat sat on the mat the end"
HELD_OUT = "the cat ate the rat"
TOY = TrainSettings(unit="char", pretokenizer="whitespace", tie_break="first-seen", merges=3, min_frequency=1)


@pytest.fixture(scope="module")
def toy() -> SubwordLab:
    return SubwordLab(train(Corpus.from_text(TRAINING, pretokenizer="whitespace"), TOY), TRAINING, HELD_OUT)


def numbers(measure) -> tuple:
    return measure.vocabulary, measure.tokens, measure.unknown, measure.tokens_per_word, measure.unknown_rate


def test_the_toys_words_are_ranked_by_count_then_first_seen(toy):
    assert toy.ranked_words == ("the", "cat", "sat", "on", "mat", "end")
    assert toy.held_out_words == ("the", "cat", "ate", "the", "rat")


def test_the_word_vocabulary_of_the_two_most_frequent_words_leaves_two_held_out_words_unknown(toy):
    assert numbers(toy.words_at(2)) == (3, 5, 2, 1.0, 0.4)
    assert numbers(toy.words_at(6)) == (7, 5, 2, 1.0, 0.4)  # every training word: ate and rat were never seen
    assert numbers(toy.words_at(1)) == (2, 5, 3, 1.0, 0.6)  # only "the": cat too is [UNK]


def test_characters_know_every_held_out_character_but_r_and_bytes_know_all(toy):
    assert numbers(toy.characters()) == (12, 19, 1, 3.8, 1 / 19)
    assert numbers(toy.bytes()) == (256, 19, 0, 3.8, 0.0)


def test_bpe_at_three_merges_cuts_the_held_out_text_into_twelve_tokens_one_unknown(toy):
    assert [toy.trace.token_text(step.new_id) for step in toy.trace.steps] == ["th", "the", "at"]
    assert numbers(toy.bpe_at(3)) == (15, 12, 1, 2.4, 1 / 12)
    assert (toy.bpe_at(0).tokens, toy.bpe_at(0).unknown) == (19, 1)  # no merge: the characters
    drawn = toy.tokens("bpe", 3, limit=100)
    assert [token.data.decode() for token in drawn] == ["the", " ", "c", "at", " ", "at", "e", " ", "the", " ", "r", "at"]
    assert [token.unknown for token in drawn].count(True) == 1 and drawn[10].token_id == UNKNOWN_ID


def test_the_drawn_tokens_mark_each_unknown_word_and_character(toy):
    words = toy.tokens("words", 2, limit=10)
    assert [(t.data.decode(), t.unknown) for t in words] == [("the", False), ("cat", False), ("ate", True), ("the", False), ("rat", True)]
    characters = toy.tokens("characters", 0, limit=100)
    assert [t.data.decode() for t in characters if t.unknown] == ["r"] and len(characters) == 19
    assert len(toy.tokens("bytes", 0, limit=7)) == 7


def test_a_kind_that_is_not_a_tokenizer_is_refused_naming_the_known_ones(toy):
    with pytest.raises(ValueError, match="use one of words, characters, bytes, bpe"):
        toy.tokens("syllables", 0, limit=5)


def test_the_curves_reach_from_one_word_to_every_word_and_from_no_merge_to_the_last(toy):
    words, bpe = toy.words_curve(also=2), toy.bpe_curve(also=3)
    assert [m.size for m in words] == [1, 2, 3, 4, 5, 6] and [m.size for m in bpe] == [0, 1, 2, 3]
    assert [m.tokens for m in bpe] == [19, 17, 15, 12]  # th: −2 (the ×2); the: −2 (the ×2); at: −3 (cat, ate, rat)


def test_a_split_holds_out_the_last_tenth_at_a_space():
    text = " ".join(f"w{i}" for i in range(100))
    training, held = split_off(text)
    assert training + " " + held == text and 0.08 < len(held) / len(text) < 0.12


def test_sample_sizes_keep_the_runs_own_place_and_both_ends():
    sizes = sample_sizes(2000, also=777)
    assert sizes[0] == 0 and sizes[-1] == 2000 and 777 in sizes and len(sizes) < 70


@settings(max_examples=examples(40), deadline=None)
@given(training=TEXT, held_out=TEXT, split=st.sampled_from(["whitespace", "gpt2", "none"]), merges=st.integers(0, 30))
def test_bpe_at_every_k_spends_as_many_tokens_as_the_encoder_at_k(training, held_out, split, merges):
    trace = train(Corpus.from_text(training, pretokenizer=split), TrainSettings(pretokenizer=split, merges=merges, min_frequency=1))
    lab = SubwordLab(trace, training, held_out)
    for k in range(len(trace.steps) + 1):
        encoded = Tokenizer.from_trace(trace, step=k).encode(held_out)
        assert lab.bpe_at(k).tokens == len(encoded)
        assert [t.token_id for t in lab.tokens("bpe", k, limit=10_000)] == encoded


@settings(max_examples=examples(40), deadline=None)
@given(training=TEXT, held_out=TEXT)
def test_a_larger_word_vocabulary_never_leaves_more_unknown_words(training, held_out):
    trace = train(Corpus.from_text(training, pretokenizer="whitespace"), TrainSettings(pretokenizer="whitespace", merges=0))
    lab = SubwordLab(trace, training, held_out)
    unknown = [lab.words_at(n).unknown for n in range(1, len(lab.ranked_words) + 2)]
    assert unknown == sorted(unknown, reverse=True)
    assert all(kind in KINDS for kind in ("words", "characters", "bytes", "bpe"))
