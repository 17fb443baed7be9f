"""SentencePiece's split read many lines at a time (``sentence_words``) gives the words a split per line gives.

The reference is :func:`~bpe.text.sentencepiece_split.split_sentence`, line by line, its gaps left out: the
words training counted before the faster path existed. Lines mix ASCII (the fast path) with other scripts,
NUL, U+001F and ``▁``, in any order, so a run of ASCII lines is cut by a line of another script anywhere.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.text.pretokenize import Pretokenizer
from bpe.text.sentencepiece_split import (
    MAX_PIECE_CHARS, _is_valid_by_script, is_valid_piece, sentence_words, split_sentence, training_sentences,
)

from .examples import examples
from .strategies import SENTENCEPIECE_CORPUS

LINE = st.text(alphabet=st.sampled_from("ab Z1.,\t▁\x00\x1f-é東\u0301"), max_size=12)


def words_line_by_line(sentences: list[str]) -> list[str]:
    return [piece for sentence in sentences for piece, is_word in split_sentence(sentence) if is_word]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(LINE, max_size=8))
def test_the_words_of_many_lines_at_once_are_the_words_of_each_line_in_turn(sentences):
    assert sentence_words(sentences) == words_line_by_line(sentences)


@settings(max_examples=examples(100), deadline=None)
@given(SENTENCEPIECE_CORPUS)
def test_training_reads_the_same_words_from_any_corpus_as_a_split_per_line(text):
    sentences = training_sentences(text)
    assert Pretokenizer.parse("sentencepiece").training_words(text) == words_line_by_line(sentences)


def test_a_line_of_another_script_between_ascii_lines_keeps_every_word_in_its_place():
    sentences = ["▁a1▁b", "▁東京で", "▁x\x1fy", "▁q"]
    assert sentence_words(sentences) == ["▁a", "1", "▁b", "▁東京で", "▁x", "y", "▁q"] == words_line_by_line(sentences)


ASCII_PIECE = st.text(alphabet=st.characters(max_codepoint=127), max_size=MAX_PIECE_CHARS)


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(["", "▁"]), ASCII_PIECE | st.text(alphabet=st.sampled_from("aZ1.\t ▁\x00\x1fé\u0301"), max_size=6))
def test_the_piece_rule_on_ascii_pieces_agrees_with_the_rule_read_character_by_character(prefix, rest):
    piece = prefix + rest
    assert is_valid_piece(piece) == (bool(piece) and _is_valid_by_script(piece))


def test_the_piece_rule_on_ascii_pieces_keeps_letters_apart_from_the_rest():
    assert [is_valid_piece(piece) for piece in ("▁abc", "abc", "a1", "1.", "▁", "▁▁", "a▁", "\tx", "\t(", "a\x00")] == [
        True, True, False, True, True, False, False, False, True, False]
