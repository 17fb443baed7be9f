"""Vocabulary health, checked by brute force on small vocabularies and against tiktoken on GPT-4's.

On runs small enough to search exhaustively (a few letters, a character of two, three and four
bytes), with ``bpe.reference`` (which shares no code with the engine's encoder):

* every token's own bytes are encoded: the tokens that do not come back as themselves are exactly
  the ones health calls unreachable;
* every text up to four characters over the run's alphabet is encoded: no text reaches a token
  health proves unreachable, and every token of part of a character that some text reaches has a
  witness (each witness checked to reach it);
* the tokens never emitted are those missing from the training text's reference encoding.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import reference
from bpe.encoding.tokenizer import Tokenizer
from bpe.encoding.vocab_health import vocabulary_health
from bpe.text.corpus import Corpus
from bpe.text.pretokenize import NAMED_PATTERNS
from bpe.tokens.vocab import Token
from bpe.training.presets import PRESETS
from bpe.training.settings import TrainSettings
from bpe.training.trace import Trace
from bpe.training.trainer import train

from .examples import examples
from .peers import tiktoken_encoding
from .shared_tokenizers import shared_pretrained

ALPHABET = "ab é東😀"
SMALL_CORPORA = {
    "letters-and-wide-characters": "ab東 ab東😀 abé é東 東😀😀 aé b東 ab😀 " * 3,
    "one-long-word": "aé東ab😀aé東ab😀東東aéé " * 4,
    "wide-characters-only": "東😀東😀é東 😀😀東 ééé東😀 " * 3,
}


@cache
def small_run(corpus: str, split: str, tie_break: str) -> Trace:
    settings_ = TrainSettings(pretokenizer=split, tie_break=tie_break, merges=40, min_frequency=1)
    return train(Corpus.from_text(SMALL_CORPORA[corpus], pretokenizer=split), settings_)


def reference_encode(trace: Trace, text: str, step: int | None = None) -> list[int]:
    ranks = {(s.left, s.right): s.new_id for s in trace.steps[:step]}
    split = trace.settings.pretokenizer
    return reference.encode(text, ranks, split=None if split == "none" else NAMED_PATTERNS[split])


@cache
def reached_by_every_short_text(corpus: str, split: str, tie_break: str, longest: int = 4) -> frozenset[int]:
    trace = small_run(corpus, split, tie_break)
    reached: set[int] = set()
    for length in range(1, longest + 1):
        for letters in itertools.product(ALPHABET, repeat=length):
            reached.update(reference_encode(trace, "".join(letters)))
    return frozenset(reached)


RUNS = [
    *((corpus, split, "first-seen") for corpus in SMALL_CORPORA for split in ("none", "gpt2")),
    ("letters-and-wide-characters", "none", "lexicographic-max"),
]


@pytest.mark.parametrize(("corpus", "split", "tie_break"), RUNS)
def test_the_unreachable_tokens_are_those_whose_own_bytes_encode_otherwise(corpus, split, tie_break):
    trace = small_run(corpus, split, tie_break)
    health = vocabulary_health(Tokenizer.from_trace(trace), text=SMALL_CORPORA[corpus])
    for step in trace.steps:
        data = trace.tokens[step.new_id].data
        try:
            own = data.decode("utf-8")
        except UnicodeDecodeError:
            assert step.new_id in health.partial
            continue
        comes_back = reference_encode(trace, own) == [step.new_id]
        assert comes_back == (step.new_id not in health.unreachable), own


@pytest.mark.parametrize(("corpus", "split", "tie_break"), RUNS)
def test_no_short_text_reaches_a_token_proven_unreachable_and_witnesses_reach_theirs(corpus, split, tie_break):
    trace = small_run(corpus, split, tie_break)
    tokenizer = Tokenizer.from_trace(trace)
    health = vocabulary_health(tokenizer, text=SMALL_CORPORA[corpus])
    reached = reached_by_every_short_text(corpus, split, tie_break)
    for token_id, reach in {**health.unreachable, **health.partial}.items():
        if reach.proven_unreachable:
            assert token_id not in reached, trace.token_text(token_id)
        if reach.witness is not None:
            assert token_id in reference_encode(trace, reach.witness)
        elif token_id in reached:  # some text reaches it: the search must have found one
            assert not reach.searched_all, trace.token_text(token_id)


@pytest.mark.parametrize(("corpus", "split", "tie_break"), RUNS)
def test_tokens_never_emitted_are_missing_from_the_training_texts_encoding(corpus, split, tie_break):
    trace = small_run(corpus, split, tie_break)
    health = vocabulary_health(Tokenizer.from_trace(trace), text=SMALL_CORPORA[corpus])
    emitted = set(reference_encode(trace, SMALL_CORPORA[corpus]))
    assert set(health.never_emitted) == {step.new_id for step in trace.steps} - emitted
    for token_id, users in health.never_emitted.items():
        assert users == tuple(s.new_id for s in trace.steps if token_id in (s.left, s.right))


@settings(max_examples=examples(50), deadline=None)
@given(text=st.text(alphabet=ALPHABET, min_size=1, max_size=40), merges=st.integers(1, 30), data=st.data())
def test_any_small_run_at_any_step_health_agrees_with_encoding_each_token_alone(text, merges, data):
    trace = train(Corpus.from_text(text, pretokenizer="none"), TrainSettings(pretokenizer="none", merges=merges, min_frequency=1))
    step = data.draw(st.integers(0, len(trace.steps)), label="step")
    health = vocabulary_health(Tokenizer.from_trace(trace, step=step), words=[word for word, _ in trace.corpus.words])
    emitted = set(reference_encode(trace, text, step))
    assert set(health.never_emitted) == {s.new_id for s in trace.steps[:step]} - emitted
    for token_id, reach in health.partial.items():  # a text that has it in its ids: the search finds one
        assert reach.witness is not None or reach.proven_unreachable or token_id not in emitted
    for s in trace.steps[:step]:
        data_ = trace.tokens[s.new_id].data
        if data_.decode("utf-8", errors="replace").encode() == data_:
            assert (reference_encode(trace, data_.decode(), step) == [s.new_id]) == (s.new_id not in health.unreachable)


def test_wikipedias_aa_and_ab_are_used_up_by_aaab():
    """The walk-through's Z = aa and Y = ab leave "aaabdaaabac" as X d X a c: neither is left."""
    trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    health = vocabulary_health(Tokenizer.from_trace(trace), words=[word for word, _ in trace.corpus.words])
    assert dict(health.never_emitted) == {256: (258,), 257: (258,)}
    assert not health.unreachable and all(token_id < 256 for token_id in health.partial)  # bytes only


# -- pretrained: the numbers the benchmark prints, checked against tiktoken -------------------------
@cache
def pretrained_health(name: str):
    return vocabulary_health(shared_pretrained(name), text="")


def test_gpt4s_half_hangul_token_is_reached_by_a_text_as_tiktoken_encodes_it():
    """The issue's example of a token "no str reaches": " 실" and a lead byte. " 실퀀" reaches it."""
    health = pretrained_health("cl100k_base")
    reach = health.partial[62085]
    assert reach.witness == " 실퀀" and reach.tried == 1
    assert tiktoken_encoding("cl100k_base").encode(" 실퀀") == [62085, 222, 222]


def test_gpt4os_unreachable_tokens_are_cut_by_its_split_and_each_witness_reaches_it_in_tiktoken():
    gpt4o = shared_pretrained("o200k_base")
    health = pretrained_health("o200k_base")
    assert sorted(gpt4o.token_text(i) for i in health.unreachable) == sorted(
        [" I'", "\n//", "\r\n//", "\n///", "\n\n//", "\n//\n//", " 亚洲AV", "\r\n\r\n//", "无码AV", "\n\n\n//", " 天天中彩票APP", "亚洲AV"]
    )
    owner = tiktoken_encoding("o200k_base")
    for token_id, reach in health.unreachable.items():
        assert reach.why == "split"
        assert owner.encode(gpt4o.decode([token_id])) != [token_id]
        assert token_id in owner.encode(reach.witness)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_only_bytes_no_utf8_text_holds_are_proven_unreachable_in_gpts(name):
    health = pretrained_health(name)
    proven = [token_id for token_id, reach in {**health.unreachable, **health.partial}.items() if reach.proven_unreachable]
    assert sorted(shared_pretrained(name).decode_single_token_bytes(i)[0] for i in proven) == [0xC0, 0xC1, *range(0xF5, 0x100)]


# A vocabulary no trainer makes, as an imported file may hold: "abc" from (ab, c) though (b, c)
# ranks first, and " a!" that GPT-2's split always cuts after " a".
BYTES = {value: Token(bytes([value])) for value in range(256)}
HAND_MADE = Tokenizer(
    unit="byte", pretokenizer="gpt2", base=BYTES,
    merges=[(98, 99, 256), (97, 98, 257), (257, 99, 258), (32, 97, 259), (259, 33, 260), (97, 256, 261)],
)


def test_a_hand_made_vocabularys_unreachable_tokens_match_every_text_of_up_to_five_characters():
    health = vocabulary_health(HAND_MADE, text="abc a!")
    ranks = {(left, right): new_id for left, right, new_id in HAND_MADE.merges}
    reached = {
        token_id
        for length in range(1, 6) for letters in itertools.product("abc !", repeat=length)
        for token_id in reference.encode("".join(letters), ranks, split=NAMED_PATTERNS["gpt2"])
    }
    assert {HAND_MADE.token_text(i): reach.why for i, reach in health.unreachable.items()} == {"abc": "merges", " a!": "split"}
    assert health.unreachable[258].instead == (261,) and health.unreachable[258].proven_unreachable
    assert health.unreachable[260].witness is None and health.unreachable[260].searched_all
    assert not {258, 260} & reached and {256, 259, 261} <= reached  # "abc" is a + bc: 261
    assert dict(health.never_emitted) == {256: (261,), 257: (258,), 258: (), 260: ()}
