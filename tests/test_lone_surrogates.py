"""Text that is not valid Unicode (lone surrogates) encodes the same way on every path, as tiktoken does.

A Python ``str`` may hold a lone surrogate (``json.loads('"\\\\ud800"')``, text read with
``surrogateescape``); UTF-8 cannot encode one. tiktoken replaces each lone surrogate by U+FFFD
(and joins a surrogate pair into its character) before encoding; BPE Lab does the same everywhere
text enters the engine. Before, GPT-2, GPT-4 and GPT-4o gave ``[15339, 15339, -1, 11364, -1]``
for the text below (the fast path's "not a whole token" sentinel leaked into the ids), and
trained tokenizers raised a bare ``UnicodeEncodeError``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.errors import UnknownTokenError

from .examples import examples
from .peers import TIKTOKEN_ENCODINGS, tiktoken_encoding
from .shared_tokenizers import shared_pretrained

NAMES = list(TIKTOKEN_ENCODINGS)
TEXT = "hello \ud800 wonderful encodings"
SURROGATES = ["\ud800", "\udfff", "\udc80", "\ud83d\ude00", "\ude00\ud83d", "\udbff"]


@pytest.fixture(scope="module")
def pairs() -> dict:
    """``name -> (ours, tiktoken's)`` for each pretrained tokenizer."""
    return {name: (shared_pretrained(name), tiktoken_encoding(name)) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_a_lone_surrogate_becomes_the_replacement_character_as_in_tiktoken(pairs, name):
    ours, theirs = pairs[name]
    ids = ours.encode(TEXT)
    assert ids == theirs.encode(TEXT)
    assert ours.decode(ids) == "hello \ufffd wonderful encodings"
    assert ours.encode_ordinary(TEXT) == theirs.encode_ordinary(TEXT)
    assert json.loads('"\\ud800"') == "\ud800" and ours.encode(json.loads('"x\\ud800y"')) == theirs.encode("x\ud800y")


@pytest.mark.parametrize("name", NAMES)
def test_a_surrogate_pair_is_one_character_and_a_split_one_two_replacements(pairs, name):
    ours, theirs = pairs[name]
    for text in ("a \ud83d\ude00 b", "a \ude00\ud83d b", "\ud83d", "x\udc80\udc81"):
        assert ours.encode(text) == theirs.encode(text), repr(text)


@pytest.mark.parametrize("name", NAMES)
def test_the_walkthrough_and_streaming_see_the_same_text(pairs, name):
    ours, theirs = pairs[name]
    expected = theirs.encode(TEXT)
    assert [i for walk in ours.encode_walkthrough(TEXT) for i in walk.ids] == expected
    assert list(ours.encode_iterable(["hello \ud800 wonder", "ful encodings"])) == expected
    assert list(ours.encode_iterable(["a \ud83d", "\ude00 b"])) == theirs.encode("a \ud83d\ude00 b")


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=()), max_size=40)
       | st.lists(st.sampled_from(["hi ", "\ud800", "\udc00", "\ud83d", "\ude00", "é", " ", "中", "\n", "12"]), max_size=12).map("".join))
def test_every_pretrained_tokenizer_equals_tiktoken_on_any_text_surrogates_included(pairs, text):
    for ours, theirs in pairs.values():
        assert ours.encode(text, disallowed_special=()) == theirs.encode(text, disallowed_special=())


def trained(unit: str) -> Tokenizer:
    settings = TrainSettings(unit=unit, pretokenizer="gpt2", merges=5)
    return Tokenizer.from_trace(train(Corpus.from_text("hello wonderful encodings \ufffd", pretokenizer="gpt2"), settings))


@pytest.mark.parametrize("unit", ["byte", "char"])
def test_trained_tokenizers_replace_lone_surrogates_too(unit):
    tokenizer = trained(unit)
    assert tokenizer.encode(TEXT) == tokenizer.encode(TEXT.replace("\ud800", "\ufffd"))
    assert list(tokenizer.encode_iterable([TEXT[:7], TEXT[7:]])) == tokenizer.encode(TEXT)


def test_a_char_vocabulary_without_the_replacement_character_says_why_it_came_up():
    settings = TrainSettings(unit="char", pretokenizer="gpt2", merges=2)
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text("hello world", pretokenizer="gpt2"), settings))
    with pytest.raises(UnknownTokenError, match=r"U\+FFFD\) is not in this char-level vocabulary \(a lone surrogate, which is not Unicode text, becomes U\+FFFD, as in tiktoken\)"):
        tokenizer.encode("hello \ud800")


def test_training_on_text_with_a_lone_surrogate_trains_on_the_replacement_character():
    settings = TrainSettings(pretokenizer="gpt2", merges=3)
    with_surrogate = train(Corpus.from_text("ab\ud800 ab\ud800 ab", pretokenizer="gpt2"), settings)
    replaced = train(Corpus.from_text("ab\ufffd ab\ufffd ab", pretokenizer="gpt2"), settings)
    assert with_surrogate.steps == replaced.steps
