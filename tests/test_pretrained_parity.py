"""Every pretrained tokenizer encodes and decodes exactly as its owner's library, offline.

Parametrised over the registry (``bpe.pretrained.PRETRAINED``): a new entry is checked here without
editing this file. The reference for each entry is its owner's library built from the same files
(``tests/owners.py``: tiktoken for rank files and GPT-2, Qwen's own ``tiktoken`` wrapper, Hugging
Face ``tokenizers`` for DeepSeek's ``tokenizer.json``), so split patterns, NFC and special tokens
are theirs, never copied from ours. Each tokenizer and reference is loaded once per process (one
worker runs this file: ``--dist loadscope``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.errors import SpecialTokenError
from bpe.pretokenize import NAMED_PATTERNS
from bpe.pretrained import PRETRAINED, READERS
from bpe.presets import python_docs_text
from bpe.pretrained_tokenizer import PretrainedTokenizer
from bpe.tokenizer import Tokenizer

from .examples import examples
from .multilingual import MULTILINGUAL
from .owners import OWNERS
from .shared_tokenizers import shared_pretrained
from .test_formats_gpt2 import SAMPLES

NAMES = list(PRETRAINED)
# (allowed_special, disallowed_special) as a caller passes them; "first"/"middle"/"last" are filled in
# per tokenizer with its special tokens; None is "left out" (the tokenizer's own default).
SPECIAL_SETTINGS = {
    "left-out": (None, None),
    "all-allowed": ("all", "all"),
    "all-refused": (frozenset(), "all"),
    "all-plain": (frozenset(), ()),
    "one-allowed-rest-refused": ({"first"}, "all"),
    "one-allowed-rest-plain": ({"first"}, ()),
    "only-one-refused": (frozenset(), {"last"}),
}


@pytest.fixture(scope="module")
def ours() -> dict[str, Tokenizer]:
    return {name: shared_pretrained(name) for name in NAMES}


@pytest.fixture(scope="module")
def owners(ours) -> dict:
    return {name: OWNERS[PRETRAINED[name].package](PRETRAINED[name]) for name in NAMES}


def specials_of(tokenizer: Tokenizer) -> dict[str, str]:
    """First, a middle and the last of its special tokens by id."""
    ordered = sorted(tokenizer.special_tokens, key=tokenizer.special_tokens.get)
    return {"first": ordered[0], "middle": ordered[len(ordered) // 2], "last": ordered[-1]}


def special_text(tokenizer: Tokenizer) -> str:
    chosen = specials_of(tokenizer)
    return (
        f"a{chosen['first']}b 12345 {chosen['middle']}東京\n{chosen['last']}{chosen['first']}x "
        f"{chosen['first'][:3]} {chosen['last'][1:]} e\u0301 end"
    )


def test_every_entry_has_its_owners_library():
    assert {entry.package for entry in PRETRAINED.values()} <= OWNERS.keys()


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_and_sizes_are_the_owners(ours, owners, name):
    assert ours[name].special_tokens == owners[name].special_tokens
    assert PRETRAINED[name].n_vocab == ours[name].n_vocab
    assert [ours[name].decode([i]) for i in range(1000)] == [owners[name].decode([i]) for i in range(1000)]


def test_our_gpt_patterns_are_tiktokens(owners):
    assert NAMED_PATTERNS["gpt4"] == owners["cl100k_base"].encoding._pat_str
    assert NAMED_PATTERNS["gpt4o"] == owners["o200k_base"].encoding._pat_str


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("sample", list(SAMPLES))
def test_ordinary_encoding_equals_the_owners(ours, owners, name, sample):
    text = SAMPLES[sample]
    ids = ours[name].encode_ordinary(text)
    assert ids == owners[name].encode(text, allowed=frozenset(), disallowed=())
    assert ours[name].decode(ids) == owners[name].decode(ids)


@pytest.mark.parametrize("name", NAMES)
def test_python_docs_equal_the_owners(ours, owners, name):
    text = python_docs_text()
    assert ours[name].encode_ordinary(text) == owners[name].encode(text, allowed=frozenset(), disallowed=())


@pytest.mark.parametrize("name", NAMES)
def test_many_scripts_emoji_and_combining_marks_equal_the_owners(ours, owners, name):
    ids = ours[name].encode(MULTILINGUAL, allowed_special=frozenset(), disallowed_special=())
    assert ids == owners[name].encode(MULTILINGUAL, allowed=frozenset(), disallowed=())
    assert ours[name].decode(ids) == owners[name].decode(ids)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("setting", list(SPECIAL_SETTINGS))
def test_every_special_token_setting_behaves_as_in_the_owners_library(ours, owners, name, setting):
    tokenizer, owner = ours[name], owners[name]
    text = special_text(tokenizer)
    chosen = specials_of(tokenizer)
    allowed, disallowed = (
        value if value is None or isinstance(value, str) else {chosen[token] for token in value}
        for value in SPECIAL_SETTINGS[setting]
    )
    try:
        if allowed is None:
            expected = owner.default(text)
        else:
            expected = owner.encode(text, allowed=allowed, disallowed=disallowed)
    except ValueError:
        with pytest.raises(SpecialTokenError, match="allowed_special"):
            tokenizer.encode(text, allowed_special=allowed, disallowed_special=disallowed)
        return
    assert tokenizer.encode(text, allowed_special=allowed, disallowed_special=disallowed) == expected


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_get_the_owners_ids(ours, owners, name):
    tokenizer = ours[name]
    text = "".join(tokenizer.special_tokens)
    assert tokenizer.encode(text, allowed_special="all") == owners[name].encode(text, allowed="all", disallowed="all")


@pytest.mark.parametrize("name", NAMES)
def test_long_chunks_take_the_heap_path_with_the_same_result(ours, owners, name):
    text = "x" * 500 + " " + "ab" * 300 + "\n" * 120 + "9" * 200 + "é" * 100 + "CamelCaseWord" * 20 + "人力资源" * 30
    text += "\n俱乐部\n加拿大 新加坡\n"  # Qwen3.6 tokens no merge makes: only a chunk spelled so is one
    assert ours[name].encode_ordinary(text) == owners[name].encode(text, allowed=frozenset(), disallowed=())


ASSIGNED = st.characters(exclude_categories=("Cs", "Cn"))  # unassigned code points: regex engines' Unicode differ


@settings(max_examples=examples(150), deadline=None)
@given(
    st.text(alphabet=ASSIGNED, max_size=60)
    | st.text(alphabet=st.sampled_from("aB c'sDT/\n\r\t1234.é中👋\u0301 e\u0301>\u0338東京人力资源"), max_size=60)
)
def test_any_text_encodes_as_in_every_owners_library(ours, owners, text):
    for name in NAMES:
        assert ours[name].encode_ordinary(text) == owners[name].encode(text, allowed=frozenset(), disallowed=()), name


# U+1D15E and U+2F800 as two UTF-16 code units each: characters NFC changes, which Qwen's library
# leaves as they are (it normalizes the str first; tiktoken joins the pair after)
NORMALIZABLE_PAIRS = ["a\ud834\udd5eb", "\ud87e\udc00", "x \ud834\udd5e\u0301 \ud87e\udc00!"]


@pytest.mark.parametrize("name", [name for name in NAMES if PRETRAINED[name].pretokenizer.startswith("qwen")])
@pytest.mark.parametrize("text", NORMALIZABLE_PAIRS)
def test_a_surrogate_pair_is_joined_after_the_normalization_as_in_the_owners_library(ours, owners, name, text):
    expected = owners[name].encode(text, allowed=frozenset(), disallowed=())
    assert ours[name].encode_ordinary(text) == expected
    assert ours[name].encode(text, disallowed_special=()) == expected
    assert [i for walk in ours[name].encode_walkthrough(text) for i in walk.ids] == expected


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_special_tokens_in_any_position_encode_as_in_every_owners_library(ours, owners, data):
    for name in NAMES:
        pieces = ["hi ", "é", "<|", "\n", "12", *specials_of(ours[name]).values()]
        text = "".join(data.draw(st.lists(st.sampled_from(pieces), max_size=12), label=name))
        assert ours[name].encode(text, allowed_special="all") == owners[name].encode(text, allowed="all", disallowed="all")


@pytest.fixture(scope="module")
def id_lists(ours) -> dict[str, st.SearchStrategy[list[int]]]:
    """Lists of each tokenizer's ids, as strategies made once: hypothesis labels a ``sampled_from``
    by walking its elements, up to 200,000 here, each time the strategy is made."""
    return {name: st.lists(st.sampled_from(sorted(tokenizer.tokens)), max_size=20) for name, tokenizer in ours.items()}


@settings(max_examples=examples(80), deadline=None)
@given(st.data())
def test_random_id_lists_decode_as_in_every_owners_library(ours, owners, id_lists, data):
    for name in NAMES:
        ids = data.draw(id_lists[name], label=name)
        assert ours[name].decode(ids) == owners[name].decode(ids), name


@pytest.mark.parametrize("name", [name for name in NAMES if READERS[PRETRAINED[name].format][1] is PretrainedTokenizer])
def test_tokens_merge_to_themselves_so_the_whole_token_lookup_changes_nothing(ours, name):
    """``PretrainedTokenizer`` looks a whole chunk up before merging: safe only if the merge loop agrees.

    Rank files guarantee it, but for the tokens no merge makes (tiktoken, too, finds those only by
    the lookup): a sample is checked. Merges a trainer wrote (GPT-2's, DeepSeek's) do not, so
    every one of their tokens is checked.
    """
    tokenizer = ours[name]
    every = 53 if PRETRAINED[name].format == "tiktoken" else 1
    sample = [(i, t.data.decode("utf-8")) for i, t in list(tokenizer.tokens.items())[256::every] if _is_utf8(t.data)]
    assert len(sample) > 1000
    unmerged = tokenizer.whole_only.keys() | tokenizer.special_tokens.values()
    for token_id, text in sample:
        if token_id not in unmerged:
            assert Tokenizer._merge_chunk(tokenizer, text) == (token_id,), text


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
