"""Property tests: on random corpora and strings the engine keeps its promises.

* The incremental trainer's running pair counts always equal a recount, and encoding a training word gives the
  segmentation training left it in.
* ``decode(encode(s)) == s`` for any text, under every pre-tokenizer, special tokens included.
* Traces and tokenizers survive their JSON; a file with any field corrupted loads or raises a
  ``BpeError`` (never another exception, which the app and the CLI would not catch).
* The heap merge loop for long chunks agrees with the simple one.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import reference
from bpe.encoding.merge_loop import merge_long, merge_short
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.text.corpus import Corpus
from bpe.training.settings import TrainSettings
from bpe.training.tiebreak import TIE_BREAK_RULES, TieContext
from bpe.training.trace import Trace
from bpe.training.trainer import train

from .examples import examples
from .strategies import TEXT, WORD_TABLE

PRETOKENIZERS = ["none", "whitespace", "gpt2", "gpt4", r"regex:\w+"]
ANY_TEXT = st.text(max_size=80)  # any Unicode scalar values (no lone surrogates)

TRAINING_TEXT = (
    "The lowest newest widest low lower, said 42 users in 2024!\n  Tabs\tand  spaces   \n"
    "café naïve 東京 😀😀 👍🏽 def f(x):\n    return x ** 2\n"
) * 3


@settings(max_examples=examples(60), deadline=None)
@given(
    text=TEXT,
    pretokenizer=st.sampled_from(PRETOKENIZERS),
    tie_break=st.sampled_from(list(TIE_BREAK_RULES)),
    unit=st.sampled_from(["byte", "char"]),
    end_of_word=st.sampled_from([None, "</w>"]),
)
def test_running_pair_counts_equal_a_recount_after_every_merge(
    text, pretokenizer, tie_break, unit, end_of_word
):
    settings_ = TrainSettings(
        unit=unit, pretokenizer=pretokenizer, end_of_word=end_of_word, tie_break=tie_break, merges=60,
        min_frequency=1,
    )
    trace = train(Corpus.from_text(text, pretokenizer=pretokenizer), settings_, verify_counts=True)
    assert trace.stop_reason in ("merges", "no_pairs")


@pytest.mark.parametrize("unit", ["byte", "char"])
@settings(max_examples=examples(60), deadline=None)
@given(word_counts=WORD_TABLE, end_of_word=st.sampled_from([None, "</w>"]))
def test_tokenizer_segments_each_training_word_as_replaying_the_merges_in_order_does(
    unit, end_of_word, word_counts
):
    corpus = Corpus.from_word_counts(word_counts)
    trace = train(corpus, TrainSettings(unit=unit, end_of_word=end_of_word, merges=30, min_frequency=1))
    tokenizer = Tokenizer.from_trace(trace)
    for word, _ in corpus.words:
        replayed = tokenizer._initial_ids(word, True)
        for step in trace.steps:
            replayed = reference.merge(replayed, (step.left, step.right), step.new_id)
        assert list(tokenizer.encode_chunk(word)) == replayed


# -- round trips ------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def trained(unit: str, pretokenizer: str, end_of_word: str | None = None) -> Trace:
    settings_ = TrainSettings(
        unit=unit, pretokenizer=pretokenizer, end_of_word=end_of_word, merges=120, min_frequency=1,
        special_tokens=("<|endoftext|>",),
    )
    corpus = Corpus.from_text(TRAINING_TEXT, pretokenizer=pretokenizer, special_tokens=settings_.special_tokens)
    return train(corpus, settings_)


@pytest.mark.parametrize("pretokenizer", PRETOKENIZERS)
@settings(max_examples=examples(150), deadline=None)
@given(text=ANY_TEXT)
def test_byte_level_decode_inverts_encode_for_any_text(pretokenizer, text):
    tokenizer = Tokenizer.from_trace(trained("byte", pretokenizer))
    assert tokenizer.decode(tokenizer.encode(text, disallowed_special=())) == text


TEXT_WITH_SPECIALS = st.lists(st.one_of(ANY_TEXT, st.just("<|endoftext|>")), max_size=5).map("".join)


@settings(max_examples=examples(100), deadline=None)
@given(text=TEXT_WITH_SPECIALS)
def test_decode_inverts_encode_with_special_tokens_allowed(text):
    tokenizer = Tokenizer.from_trace(trained("byte", "gpt2"))
    ids = tokenizer.encode(text, allowed_special="all")
    assert ids.count(tokenizer.special_tokens["<|endoftext|>"]) == text.count("<|endoftext|>")
    assert tokenizer.decode(ids) == text


CHAR_ALPHABET = "".join(sorted(set(TRAINING_TEXT)))


@pytest.mark.parametrize("end_of_word", [None, "</w>"], ids=["no-marker", "end-of-word"])
@pytest.mark.parametrize("pretokenizer", PRETOKENIZERS)
@settings(max_examples=examples(60), deadline=None)
@given(text=st.text(alphabet=CHAR_ALPHABET, max_size=80))
def test_char_level_decode_inverts_encode_for_text_in_the_training_alphabet(pretokenizer, end_of_word, text):
    tokenizer = Tokenizer.from_trace(trained("char", pretokenizer, end_of_word))
    assert tokenizer.decode(tokenizer.encode(text)) == text


@settings(max_examples=examples(40), deadline=None)
@given(
    text=TEXT,
    unit=st.sampled_from(["byte", "char"]),
    end_of_word=st.sampled_from([None, "</w>"]),
    special=st.booleans(),
)
def test_a_trace_survives_its_json(text, unit, end_of_word, special):
    special_tokens = ("<|endoftext|>",) if special else ()
    settings_ = TrainSettings(
        unit=unit, end_of_word=end_of_word, merges=20, min_frequency=1, special_tokens=special_tokens
    )
    trace = train(Corpus.from_text(text, special_tokens=special_tokens), settings_)
    assert Trace.from_json(trace.to_json()) == trace


@pytest.mark.parametrize("unit", ["byte", "char"])
@settings(max_examples=examples(60), deadline=None)
@given(text=st.text(alphabet=CHAR_ALPHABET, max_size=80))
def test_a_tokenizer_read_back_from_its_json_encodes_identically(unit, text):
    tokenizer = Tokenizer.from_trace(trained(unit, "gpt2", "</w>" if unit == "char" else None))
    restored = Tokenizer.from_json(tokenizer.to_json())
    assert restored.encode(text) == tokenizer.encode(text)
    assert restored.to_json() == tokenizer.to_json()


# -- the two merge loops agree ----------------------------------------------------------------
LONG_ALPHABET = "abc"
LONG_TEXT = st.text(alphabet=LONG_ALPHABET, min_size=0, max_size=300)


@lru_cache(maxsize=1)
def long_chunk_tokenizer() -> Tokenizer:
    text = "abcabcaabbccabacbcab aaaa bbbb abab " * 5
    return Tokenizer.from_trace(
        train(
            Corpus.from_text(text, pretokenizer="none"),
            TrainSettings(pretokenizer="none", merges=60, min_frequency=1),
        )
    )


@settings(max_examples=examples(200), deadline=None)
@given(text=LONG_TEXT)
def test_heap_merge_loop_agrees_with_the_simple_loop(text):
    tokenizer = long_chunk_tokenizer()
    ids = list(text.encode("utf-8"))
    ranks = {(left, right): rank for rank, (left, right, _) in enumerate(tokenizer.merges)}
    made = [new_id for _, _, new_id in tokenizer.merges]
    assert merge_long(list(ids), ranks, made) == merge_short(list(ids), ranks, made)


# -- corrupted files ------------------------------------------------------------------------------
JSON_VALUES = [None, True, -1, 1.5, "", "x", "regex:((", [], [1], {}, {"a": 1}]


def json_paths(value, path=()):
    """Every path into a JSON value (of a list longer than a merge record, its first three items)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value if len(value) <= 11 else value[:3]):
            yield from json_paths(item, (*path, index))


def corrupted(text: str):
    """``text`` (JSON) with one field at a time replaced by each value of ``JSON_VALUES``."""
    data = json.loads(text)
    for path in json_paths(data):
        for value in JSON_VALUES:
            copy = json.loads(text)
            if not path:
                yield json.dumps(value)
                continue
            parent = copy
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = value
            yield json.dumps(copy)


CORRUPTIBLE = train(
    Corpus.from_word_counts({"low": 5, "lower": 2, "newest": 6}),
    TrainSettings(unit="char", end_of_word="</w>", merges=4, special_tokens=("<s>",)),
)


def test_a_trace_file_with_any_field_corrupted_loads_or_raises_a_bpe_error():
    for text in corrupted(CORRUPTIBLE.to_json()):
        try:
            trace = Trace.from_json(text)
            [trace.token_text(token_id) for token_id in range(len(trace.tokens))]
            trace.compression_curve()
            Tokenizer.from_trace(trace).encode("low")
        except BpeError:
            pass


def test_a_tokenizer_file_with_any_field_corrupted_loads_or_raises_a_bpe_error():
    for text in corrupted(Tokenizer.from_trace(CORRUPTIBLE).to_json()):
        try:
            tokenizer = Tokenizer.from_json(text)
            [tokenizer.token_text(token_id) for token_id in tokenizer.tokens]
            tokenizer.decode(tokenizer.encode("low lower"))
        except BpeError:
            pass


# -- every tie-break rule's key is total ----------------------------------------------------------
# ids 3 and 4 both spell "abc" (ab+c and a+bc made it twice): pairs differing only there must not tie
SAME_SPELLINGS = [b"a", b"b", b"c", b"abc", b"abc", b"d"]
PAIRS_THAT_SPELL_ALIKE = [(3, 5), (4, 5), (5, 3), (5, 4), (3, 4), (4, 3)]


@pytest.mark.parametrize("rule", list(TIE_BREAK_RULES.values()), ids=list(TIE_BREAK_RULES))
def test_every_rules_key_is_total_so_pairs_that_spell_alike_never_tie_on_set_order(rule):
    context = TieContext(
        sort_bytes=SAME_SPELLINGS, hf_rank=list(range(len(SAME_SPELLINGS))), unit="char",
        # two live pairs never share a first occurrence (one pair per place): distinct places, as in a run
        first_occurrence=lambda pair: (0, PAIRS_THAT_SPELL_ALIKE.index(pair)),
    )
    key = rule.key(context)
    keys = [key(pair) for pair in PAIRS_THAT_SPELL_ALIKE]
    assert len(set(map(repr, keys))) == len(keys), keys  # no two pairs share a key: the order is the key's
