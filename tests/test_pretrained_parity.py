"""GPT-4 (cl100k_base) and GPT-4o (o200k_base), offline: our encode equals tiktoken's.

The reference is tiktoken's own constructor for each encoding (``peers.tiktoken_encoding``), so
the split pattern and special tokens are tiktoken's, not ours; only its download is replaced by
the same rank file, whose pinned sha256 tiktoken checks itself. Never ``tiktoken.get_encoding``.
"""

from __future__ import annotations

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.errors import SpecialTokenError
from bpe.pretokenize import NAMED_PATTERNS
from bpe.pretrained import PRETRAINED, load_pretrained
from bpe.presets import python_docs_text

from .peers import tiktoken_encoding
from .test_formats_gpt2 import SAMPLES
from .examples import examples

NAMES = ["cl100k_base", "o200k_base"]
SPECIAL = {
    "cl100k_base": ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"],
    "o200k_base": ["<|endoftext|>", "<|endofprompt|>"],
}
SPECIAL_TEXT = "a<|endoftext|>b <|fim_prefix|>c<|endofprompt|>\n<|fim_suffix|><|endoftext|>"
# (allowed_special, disallowed_special) as a caller passes them; "first"/"second" are filled in per
# encoding with its first and last special token.
SPECIAL_SETTINGS = {
    "default-refuses": (frozenset(), "all"),
    "all-allowed": ("all", "all"),
    "one-allowed-rest-refused": ({"first"}, "all"),
    "one-allowed-rest-plain": ({"first"}, ()),
    "none-allowed-plain": (frozenset(), ()),
    "only-one-refused": (frozenset(), {"second"}),
}


@pytest.fixture(scope="module")
def references() -> dict[str, tiktoken.Encoding]:
    return {name: tiktoken_encoding(name) for name in NAMES}


@pytest.fixture(scope="module")
def ours() -> dict:
    return {name: load_pretrained(name) for name in NAMES}


def test_our_patterns_are_tiktokens(references):
    assert NAMED_PATTERNS["gpt4"] == references["cl100k_base"]._pat_str
    assert NAMED_PATTERNS["gpt4o"] == references["o200k_base"]._pat_str


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_and_sizes_are_tiktokens(ours, references, name):
    assert ours[name].special_tokens == references[name]._special_tokens
    assert list(ours[name].special_tokens) == SPECIAL[name]
    assert ours[name].n_vocab == len(references[name]._mergeable_ranks) + len(references[name]._special_tokens)
    assert PRETRAINED[name].n_vocab == ours[name].n_vocab
    assert [ours[name].decode_single_token_bytes(i) for i in range(1000)] == [
        references[name].decode_single_token_bytes(i) for i in range(1000)
    ]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("sample", list(SAMPLES))
def test_ordinary_encoding_equals_tiktoken(ours, references, name, sample):
    text = SAMPLES[sample]
    ids = ours[name].encode_ordinary(text)
    assert ids == references[name].encode_ordinary(text)
    assert ours[name].decode(ids) == text
    assert ours[name].decode_tokens_bytes(ids) == references[name].decode_tokens_bytes(ids)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("setting", list(SPECIAL_SETTINGS))
def test_every_special_token_setting_behaves_as_in_tiktoken(ours, references, name, setting):
    allowed, disallowed = SPECIAL_SETTINGS[setting]
    fill = {"first": SPECIAL[name][0], "second": SPECIAL[name][-1]}
    allowed = allowed if isinstance(allowed, str) else {fill[token] for token in allowed}
    disallowed = disallowed if isinstance(disallowed, str) else {fill[token] for token in disallowed}
    try:
        expected = references[name].encode(SPECIAL_TEXT, allowed_special=allowed, disallowed_special=disallowed)
    except ValueError:
        with pytest.raises(SpecialTokenError, match="allowed_special"):
            ours[name].encode(SPECIAL_TEXT, allowed_special=allowed, disallowed_special=disallowed)
        return
    assert ours[name].encode(SPECIAL_TEXT, allowed_special=allowed, disallowed_special=disallowed) == expected


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_get_tiktokens_ids(ours, name):
    tokenizer = ours[name]
    ids = tokenizer.encode("".join(SPECIAL[name]), allowed_special="all")
    assert ids == [tokenizer.special_tokens[token] for token in SPECIAL[name]]


@pytest.mark.parametrize("name", NAMES)
def test_python_docs_equal_tiktoken(ours, references, name):
    text = python_docs_text()
    assert ours[name].encode_ordinary(text) == references[name].encode_ordinary(text)


@pytest.mark.parametrize("name", NAMES)
def test_long_chunks_take_the_heap_path_with_the_same_result(ours, references, name):
    text = "x" * 500 + " " + "ab" * 300 + "\n" * 120 + "9" * 200 + "é" * 100 + "CamelCaseWord" * 20
    assert ours[name].encode_ordinary(text) == references[name].encode_ordinary(text)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.text(max_size=60)
    | st.text(alphabet=st.sampled_from("aB c'sDT/\n\r\t1234.é中👋\u0301 "), max_size=60)
)
def test_both_equal_tiktoken_on_any_text(ours, references, text):
    for name in NAMES:
        assert ours[name].encode_ordinary(text) == references[name].encode_ordinary(text)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from(["hi ", "<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>", "é", "<|", "\n"]), max_size=12))
def test_special_tokens_in_any_position_equal_tiktoken(ours, references, pieces):
    text = "".join(pieces)
    for name in NAMES:
        assert ours[name].encode(text, allowed_special="all") == references[name].encode(text, allowed_special="all")


@pytest.mark.parametrize("name, every", [("gpt2", 1), ("cl100k_base", 53), ("o200k_base", 53)])
def test_tokens_merge_to_themselves_so_the_whole_token_lookup_changes_nothing(ours, name, every):
    """``PretrainedTokenizer`` looks a whole chunk up before merging: safe only if the merge loop agrees.

    Rank files guarantee it (a sample is checked); GPT-2's merges do not, so every token is checked.
    """
    from bpe.tokenizer import Tokenizer

    tokenizer = ours[name] if name in ours else load_pretrained(name)
    sample = [(i, t.data.decode("utf-8")) for i, t in list(tokenizer.tokens.items())[256::every] if _is_utf8(t.data)]
    assert len(sample) > 1000
    for token_id, text in sample:
        if tokenizer.is_special(token_id):
            continue
        assert Tokenizer._merge_chunk(tokenizer, text) == (token_id,), text


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
