"""Random and malformed input to every engine entry point the app feeds user input into.

The contract (docs/bad-input.md): bad input raises a :class:`~bpe.errors.BpeError` subclass that
says what is wrong; *nothing else* may escape (no ``KeyError``, ``re.error``, ``UnicodeError``,
``ValueError`` from ``int()``, ``RecursionError``...). Each test lets exactly ``BpeError`` through
and nothing more, so any other exception fails the test with hypothesis's minimal example.

File formats are fuzzed in tests/test_formats_malformed.py; this file covers the rest. The whole
file runs in well under 20 s (small examples, no deadline: the first regex compile is slow).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bpe.app.lab_state import LabState, lab_params
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError, FormatError, PatternError, SettingsError, SpecialTokenError, UnknownTokenError
from bpe.text.corpus import Corpus, decode_text_file, parse_word_counts
from bpe.text.pretokenize import NAMED_PATTERNS
from bpe.tokens.ids import parse_ids
from bpe.training.settings import TrainSettings
from bpe.training.tiebreak import TIE_BREAK_RULES
from bpe.training.trace import Trace
from bpe.training.trainer import train
from bpe.views.encoding import parse_ids as parse_typed_ids

from .examples import examples

FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])

SPECIAL = "<|endoftext|>"
TEXT = st.text(alphabet=st.sampled_from("ab <|>endoftx\n\t.é€🙂\x00"), max_size=40) | st.text(max_size=20)
REGEX = st.text(alphabet=st.sampled_from("ab()[]*+?|\\^$.{},1-:wsd"), min_size=0, max_size=10)
SPECIAL_TOKENS = st.lists(st.sampled_from(["", SPECIAL, "<|end", "<s>", "<s>", "a", " ", "é"]), max_size=3).map(tuple)
INTS = st.integers(-3, 40) | st.integers(-(10**30), 10**30)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


def only_bpe_errors(action) -> None:
    """Run ``action``; a BpeError is a fine answer to bad input, anything else propagates."""
    try:
        action()
    except BpeError as error:
        assert str(error), "a BpeError must say what is wrong"


def only_format_errors(load) -> None:
    """A damaged file loads (the node may have been harmless) or raises a FormatError, nothing else."""
    try:
        load()
    except FormatError as error:
        assert str(error), "a FormatError must say what is wrong"


@lru_cache(maxsize=None)
def tokenizer(unit: str) -> Tokenizer:
    text = f"low lower lowest newest{SPECIAL}widest é€ " * 3
    trained = train(Corpus.from_text(text, special_tokens=(SPECIAL, "<s>")),
                    TrainSettings(unit=unit, merges=20, special_tokens=(SPECIAL, "<s>")))
    return Tokenizer.from_trace(trained)


VALID = {
    "unit": st.sampled_from(["byte", "char"]),
    "pretokenizer": st.sampled_from([*NAMED_PATTERNS, r"regex:[ab]+", r"regex:\w+|\s"]),
    "end_of_word": st.sampled_from([None, "</w>"]),
    "tie_break": st.sampled_from(list(TIE_BREAK_RULES)),
    "amount": st.integers(0, 40),
    "min_frequency": st.integers(1, 3),
    "special_tokens": st.sampled_from([(), (SPECIAL,), ("<s>", SPECIAL)]),
}
INVALID = {
    "unit": st.just("word"),
    "pretokenizer": st.sampled_from(["regex", "nonsense"]) | REGEX.map("regex:".__add__),
    "end_of_word": st.sampled_from(["", "w", SPECIAL]),
    "tie_break": st.just("random"),
    "amount": INTS,
    "min_frequency": st.integers(-2, -1),  # 0 is SentencePiece's: go on with pairs that no longer occur
    "special_tokens": SPECIAL_TOKENS,
}


RAISES = {
    None: SettingsError,  # all valid; a setting the engine refuses must say so as a SettingsError
    "unit": SettingsError,
    "pretokenizer": PatternError,  # a random regex may also be a fine one
    "end_of_word": SettingsError,
    "tie_break": SettingsError,
    "amount": SettingsError,
    "min_frequency": SettingsError,
    "special_tokens": SpecialTokenError,
}
"""The one error class each broken field may raise (the fields are checked one by one)."""
ALWAYS_RAISES = {"unit", "tie_break", "min_frequency"}
"""Fields whose odd values are never valid, so training must refuse them."""


@st.composite
def train_settings(draw) -> tuple[str | None, dict]:
    """``(broken field, settings)``: at most one field drawn from odd values, so most examples train."""
    broken = draw(st.sampled_from([None, None, None, *VALID]))
    value = {name: draw(INVALID[name] if name == broken else VALID[name]) for name in VALID}
    amount = value.pop("amount")
    # Room for up to 3 special tokens and the end-of-word marker above the 256 bytes unless the amount
    # is the broken field: an odd special-token list may still be a valid one, and its run must not
    # fail on the vocab size.
    headroom = 0 if broken == "amount" else 3 + 1
    stop = draw(st.sampled_from([{"merges": amount}, {"vocab_size": amount + 256 + headroom}, {}]))
    return broken, {**value, **stop}


@FUZZ
@given(text=TEXT, drawn=train_settings())
@example(text="<< ", drawn=("special_tokens", {"unit": "char", "pretokenizer": "none", "end_of_word": None,
                                                "tie_break": "first-seen", "min_frequency": 1,
                                                "special_tokens": (" ",), "vocab_size": 259}))
@example(text="", drawn=("special_tokens", {"unit": "byte", "pretokenizer": "none", "end_of_word": "</w>",
                                             "tie_break": "first-seen", "min_frequency": 1,
                                             "special_tokens": ("<|endoftext|>", "<|end", "<s>"), "vocab_size": 260}))
def test_training_on_random_text_with_random_settings_raises_only_the_broken_fields_error(text, drawn):
    broken, options = drawn
    try:
        corpus = Corpus.from_text(text, pretokenizer=options.get("pretokenizer", "gpt2"),
                                  special_tokens=options.get("special_tokens", ()))
        trace = train(corpus, TrainSettings(**options), time_limit_s=5)
    except BpeError as error:
        assert type(error) is RAISES[broken] and str(error), (broken, error)
        return
    assert broken not in ALWAYS_RAISES, f"{broken}={options.get(broken)!r} was accepted"
    assert Trace.from_json(trace.to_json()) == trace
    if trace.steps:
        # Special-token text as the special tokens it was trained as: treated as plain text, a
        # char-level vocabulary may lack its characters (text="<< ", special token " ").
        tokenizer = Tokenizer.from_trace(trace)
        assert tokenizer.decode(tokenizer.encode(text, allowed_special="all")) == text


@FUZZ
@given(word_counts=st.dictionaries(st.text(max_size=5), INTS, max_size=5), spec=st.text(max_size=30))
@example(word_counts={}, spec="low:²")
@example(word_counts={}, spec="low:" + "9" * 5000)
def test_word_tables_typed_or_given_raise_only_bpe_errors(word_counts, spec):
    only_bpe_errors(lambda: train(Corpus.from_word_counts(word_counts), TrainSettings(unit="char", merges=5)))
    only_bpe_errors(lambda: parse_word_counts(spec))


ALLOWED = st.sampled_from(["all", frozenset(), {SPECIAL}, {"<s>"}, {"<nope>"}, {""}])
DISALLOWED = st.sampled_from(["all", (), {SPECIAL}, {"<nope>"}])


@FUZZ
@given(unit=st.sampled_from(["byte", "char"]), text=TEXT, allowed=ALLOWED, disallowed=DISALLOWED)
def test_encoding_random_text_raises_only_bpe_errors(unit, text, allowed, disallowed):
    tok = tokenizer(unit)

    def run():
        ids = tok.encode(text, allowed_special=allowed, disallowed_special=disallowed)
        walks = tok.encode_walkthrough(text, allowed_special=allowed, disallowed_special=disallowed)
        assert [i for walk in walks for i in walk.ids] == ids
    try:
        run()
    except (SpecialTokenError, UnknownTokenError) as error:  # special text not allowed; chars not in the alphabet
        assert str(error)
    if unit == "byte":  # every text is bytes: nothing to refuse
        assert tok.decode(tok.encode_ordinary(text)) == text


@FUZZ
@given(unit=st.sampled_from(["byte", "char"]), ids=st.lists(INTS, max_size=8),
       errors=st.sampled_from(["replace", "strict"]))
def test_decoding_random_ids_refuses_exactly_the_unknown_ones(unit, ids, errors):
    tok = tokenizer(unit)
    unknown = [i for i in ids if i not in tok.tokens]
    if unknown:
        for action in (lambda: tok.decode(ids, errors=errors), lambda: tok.decode_tokens_bytes(ids)):
            with pytest.raises(UnknownTokenError, match=re.escape(repr(unknown[0]))):
                action()
        return
    assert b"".join(tok.decode_tokens_bytes(ids)) == b"".join(tok.tokens[i].data for i in ids)
    try:
        tok.decode(ids, errors=errors)
    except BpeError as error:  # only strict decoding may refuse, and only bytes that are not UTF-8
        assert errors == "strict" and "not valid UTF-8" in str(error)


TYPED_IDS = st.text(alphabet=st.sampled_from("0123456789 ,;[]-+²٣x.e_"), max_size=25) | st.text(max_size=15)


@FUZZ
@given(typed=TYPED_IDS)
@example(typed="1, " + "9" * 5000)
def test_typed_ids_parse_to_whole_numbers_or_raise_bpe_errors(typed):
    for parse in (parse_ids, parse_typed_ids):
        try:
            ids = parse(typed)
        except BpeError:
            continue
        assert all(isinstance(i, int) and i >= 0 for i in ids)
        only_bpe_errors(lambda: tokenizer("byte").decode(ids))


@FUZZ
@given(data=st.binary(max_size=60), name=st.text(max_size=12))
@example(data=b"\xef\xbb\xbflow", name="bom.txt")
def test_uploaded_bytes_decode_to_text_or_raise_bpe_errors(data, name):
    try:
        text = decode_text_file(data, name=name)
    except BpeError as error:
        assert name in str(error)
        return
    assert text == data.decode("utf-8").removeprefix("\ufeff")  # any valid UTF-8 is text, NUL included


def good_trace() -> dict:
    trace = train(Corpus.from_text("low lower lowest " * 2, special_tokens=(SPECIAL,)),
                  TrainSettings(merges=4, special_tokens=(SPECIAL,)))
    return json.loads(trace.to_json())


def replace_at(document, path: list[int], value):
    """``document`` with the node reached by ``path`` (indices into each level's keys or items)
    replaced by ``value``."""
    if not path or not isinstance(document, (dict, list)) or not document:
        return value
    if isinstance(document, dict):
        key = list(document)[path[0] % len(document)]
        return {**document, key: replace_at(document[key], path[1:], value)}
    index = path[0] % len(document)
    return [*document[:index], replace_at(document[index], path[1:], value), *document[index + 1:]]


@FUZZ
@given(path=st.lists(st.integers(0, 20), min_size=1, max_size=5), value=JSON)
def test_trace_json_with_a_random_node_replaced_loads_or_raises_bpe_errors(path, value):
    only_format_errors(lambda: Trace.from_json(json.dumps(replace_at(good_trace(), path, value))))


@FUZZ
@given(path=st.lists(st.integers(0, 20), min_size=1, max_size=5), value=JSON)
def test_tokenizer_json_with_a_random_node_replaced_loads_or_raises_bpe_errors(path, value):
    document = json.loads(tokenizer("byte").to_json())
    only_format_errors(lambda: Tokenizer.from_json(json.dumps(replace_at(document, path, value))))


@FUZZ
@given(text=st.text(max_size=40) | st.sampled_from(["{", "[]", "null", '{"format": 1}', "\x00"]))
def test_random_text_as_trace_or_tokenizer_json_raises_format_errors(text):
    for load in (Trace.from_json, Tokenizer.from_json):
        with pytest.raises(FormatError):
            load(text)


LINK_VALUE = st.text(max_size=8) | st.sampled_from(["²", "9" * 5000, "-1", "regex:(", "regex:a*", ""])
LINK = st.dictionaries(
    st.sampled_from(sorted(lab_params())),
    LINK_VALUE | st.lists(LINK_VALUE, max_size=3),
    max_size=6,
)


@FUZZ
@given(query=LINK)
def test_any_link_parses_to_a_state_with_warnings_never_an_exception(query):
    state, warnings = LabState.from_query(query)
    assert all(isinstance(warning, str) for warning in warnings)
    only_bpe_errors(state.to_settings)  # what the page then trains with: fine or a teaching error
