"""Every pretrained tokenizer encodes and decodes exactly as its owner's library, offline.

Parametrised over the registry (``bpe.pretrained.registry.PRETRAINED``), every test once per entry: a new
entry is checked here without editing this file, and an entry whose files or owner are missing fails
its own tests, never another's. The reference for each entry is its owner's library built from the
same files by the entry's format (``tests/owners.py``: tiktoken, Qwen's and Meta's ``tiktoken``
wrappers for rank files, Hugging Face ``tokenizers`` for DeepSeek's ``tokenizer.json``,
``mistral-common`` for Mistral's SentencePiece models and Tekken files), so split patterns, NFC and
special tokens are theirs, never copied from ours. Each tokenizer and reference is loaded once per
process (one worker runs this file: ``--dist loadscope``).
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import SpecialTokenError
from bpe.pretrained.pretrained_tokenizer import PretrainedTokenizer
from bpe.pretrained.registry import PRETRAINED, READERS
from bpe.text.pretokenize import NAMED_PATTERNS
from bpe.training.presets import python_docs_text

from .examples import examples
from .multilingual import MULTILINGUAL
from .owners import OWNERS, owner_of
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




def ours_and_owner(name: str) -> tuple[Tokenizer, object]:
    """Our tokenizer and its owner's, each built once per process (a missing one fails this test only)."""
    return shared_pretrained(name), owner_of(name)


def owner_encode(owner, text: str, *, allowed, disallowed) -> list[int]:
    """The owner's ids, or a skip where the owner has no such setting (SentencePiece never reads a
    control token from text, so there is nothing to compare an allowed one with)."""
    try:
        return owner.encode(text, allowed=allowed, disallowed=disallowed)
    except NotImplementedError as why:
        pytest.skip(f"{owner.library}: {why}")


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


def test_every_format_of_the_registry_has_an_owner():
    assert READERS.keys() <= OWNERS.keys()


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_and_sizes_are_the_owners(name):
    tokenizer, owner = ours_and_owner(name)
    assert tokenizer.special_tokens == owner.special_tokens
    assert PRETRAINED[name].n_vocab == tokenizer.n_vocab
    assert PRETRAINED[name].pretokenizer == tokenizer.pretokenizer.name
    assert PRETRAINED[name].specials_in_text == tokenizer.specials_in_text
    assert [tokenizer.decode([i]) for i in range(1000)] == [owner.decode([i]) for i in range(1000)]


def test_our_gpt_llama_and_tekken_patterns_are_their_owners():
    assert NAMED_PATTERNS["gpt4"] == owner_of("cl100k_base").encoding._pat_str
    assert NAMED_PATTERNS["gpt4o"] == owner_of("o200k_base").encoding._pat_str == owner_of("llama4").encoding._pat_str
    assert NAMED_PATTERNS["llama3"] == owner_of("llama3").encoding._pat_str
    assert NAMED_PATTERNS["tekken"] == owner_of("tekken-240718").encoding._model._pat_str


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("sample", list(SAMPLES))
def test_ordinary_encoding_equals_the_owners(name, sample):
    tokenizer, owner = ours_and_owner(name)
    text = SAMPLES[sample]
    ids = tokenizer.encode_ordinary(text)
    assert ids == owner_encode(owner, text, allowed=frozenset(), disallowed=())
    assert tokenizer.decode(ids) == owner.decode(ids)


@pytest.mark.parametrize("name", [name for name in NAMES if PRETRAINED[name].cuts_like])
def test_an_entry_that_cuts_like_another_gives_the_same_pieces(name):
    tokenizer, other = shared_pretrained(name), shared_pretrained(PRETRAINED[name].cuts_like)
    for text in (*SAMPLES.values(), MULTILINGUAL, python_docs_text()[:20_000]):
        pieces = tokenizer.decode_tokens_bytes(tokenizer.encode_ordinary(text))
        assert pieces == other.decode_tokens_bytes(other.encode_ordinary(text)), text[:40]


@pytest.mark.parametrize("name", NAMES)
def test_python_docs_equal_the_owners(name):
    tokenizer, owner = ours_and_owner(name)
    text = python_docs_text()
    assert tokenizer.encode_ordinary(text) == owner_encode(owner, text, allowed=frozenset(), disallowed=())


@pytest.mark.parametrize("name", NAMES)
def test_many_scripts_emoji_and_combining_marks_equal_the_owners(name):
    tokenizer, owner = ours_and_owner(name)
    ids = tokenizer.encode(MULTILINGUAL, allowed_special=frozenset(), disallowed_special=())
    assert ids == owner_encode(owner, MULTILINGUAL, allowed=frozenset(), disallowed=())
    assert tokenizer.decode(ids) == owner.decode(ids)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("setting", list(SPECIAL_SETTINGS))
def test_every_special_token_setting_behaves_as_in_the_owners_library(name, setting):
    tokenizer, owner = ours_and_owner(name)
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
            expected = owner_encode(owner, text, allowed=allowed, disallowed=disallowed)
    except ValueError:
        with pytest.raises(SpecialTokenError, match="allowed_special"):
            tokenizer.encode(text, allowed_special=allowed, disallowed_special=disallowed)
        return
    assert tokenizer.encode(text, allowed_special=allowed, disallowed_special=disallowed) == expected


@pytest.mark.parametrize("name", NAMES)
def test_special_tokens_get_the_owners_ids(name):
    tokenizer, owner = ours_and_owner(name)
    text = "".join(tokenizer.special_tokens)
    assert tokenizer.encode(text, allowed_special="all") == owner_encode(owner, text, allowed="all", disallowed="all")


@pytest.mark.parametrize("name", NAMES)
def test_long_chunks_take_the_heap_path_with_the_same_result(name):
    tokenizer, owner = ours_and_owner(name)
    text = "x" * 500 + " " + "ab" * 300 + "\n" * 120 + "9" * 200 + "é" * 100 + "CamelCaseWord" * 20 + "人力资源" * 30
    text += "\n俱乐部\n加拿大 新加坡\n"  # Qwen3.6 tokens no merge makes: only a chunk spelled so is one
    assert tokenizer.encode_ordinary(text) == owner_encode(owner, text, allowed=frozenset(), disallowed=())


ASSIGNED = st.characters(exclude_categories=("Cs", "Cn"))  # unassigned code points: regex engines' Unicode differ


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(150), deadline=None)
@given(
    text=st.text(alphabet=ASSIGNED, max_size=60)
    | st.text(alphabet=st.sampled_from("aB c'sDT/\n\r\t1234.é中👋\u0301 e\u0301>\u0338東京人力资源▁\x00"), max_size=60)
)
def test_any_text_encodes_as_in_its_owners_library(name, text):
    tokenizer, owner = ours_and_owner(name)
    assert tokenizer.encode_ordinary(text) == owner_encode(owner, text, allowed=frozenset(), disallowed=())


# U+1D15E and U+2F800 as two UTF-16 code units each: characters NFC changes, which Qwen's library
# leaves as they are (it normalizes the str first; tiktoken joins the pair after)
NORMALIZABLE_PAIRS = ["a\ud834\udd5eb", "\ud87e\udc00", "x \ud834\udd5e\u0301 \ud87e\udc00!"]


@pytest.mark.parametrize("name", [name for name in NAMES if PRETRAINED[name].pretokenizer.startswith("qwen")])
@pytest.mark.parametrize("text", NORMALIZABLE_PAIRS)
def test_a_surrogate_pair_is_joined_after_the_normalization_as_in_the_owners_library(name, text):
    tokenizer, owner = ours_and_owner(name)
    expected = owner_encode(owner, text, allowed=frozenset(), disallowed=())
    assert tokenizer.encode_ordinary(text) == expected
    assert tokenizer.encode(text, disallowed_special=()) == expected
    assert [i for walk in tokenizer.encode_walkthrough(text) for i in walk.ids] == expected


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_special_tokens_in_any_position_encode_as_in_its_owners_library(name, data):
    tokenizer, owner = ours_and_owner(name)
    pieces = ["hi ", "é", "<|", "\n", "12", *specials_of(tokenizer).values()]
    text = "".join(data.draw(st.lists(st.sampled_from(pieces), max_size=12)))
    assert tokenizer.encode(text, allowed_special="all") == owner_encode(owner, text, allowed="all", disallowed="all")


@functools.cache
def id_lists(name: str) -> st.SearchStrategy[list[int]]:
    """Lists of a tokenizer's ids, as a strategy made once: hypothesis labels a ``sampled_from``
    by walking its elements, up to 200,000 here, each time the strategy is made."""
    return st.lists(st.sampled_from(sorted(shared_pretrained(name).tokens)), max_size=20)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_random_id_lists_decode_as_in_its_owners_library(name, data):
    tokenizer, owner = ours_and_owner(name)
    ids = data.draw(id_lists(name))
    assert tokenizer.decode(ids) == owner.decode(ids)


@pytest.mark.parametrize("name", [name for name in NAMES if READERS[PRETRAINED[name].format][1] is PretrainedTokenizer])
def test_tokens_merge_to_themselves_so_the_whole_token_lookup_changes_nothing(name):
    """``PretrainedTokenizer`` looks a whole chunk up before merging: safe only if the merge loop agrees.

    Rank files guarantee it, but for the tokens no merge makes (tiktoken, too, finds those only by
    the lookup): a sample is checked. Merges a trainer wrote (GPT-2's, DeepSeek's) do not, so
    every one of their tokens is checked.
    """
    tokenizer = shared_pretrained(name)
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
