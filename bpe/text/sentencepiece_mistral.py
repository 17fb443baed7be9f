"""SentencePiece as Mistral's models (and Llama 2's) were trained: every space kept, digits alone.

Scope: the pre-tokenizer ``mistral``, SentencePiece's identity normalization with three options
away from their defaults, read from the trainer and normalizer specs of the ``.model`` files that
``mistral-common`` ships (``remove_extra_whitespaces=False``, ``split_digits=True``,
``allow_whitespace_only_pieces=True``) and from SentencePiece's source (``normalizer.cc``,
``trainer_interface.cc`` ``IsValidSentencePiece`` and ``SplitIntoWords``):

* :func:`normalize_kept`: one ``▁`` in front (the dummy prefix), then every space written ``▁``;
  none is dropped, so ``"a  b"`` is ``▁a▁▁b`` (the default ``sentencepiece`` makes it ``▁a▁b``).
* :func:`split_kept`: a word is a run of ``▁`` and what follows it up to the next ``▁``; a
  character no piece holds (NUL, U+2585, SentencePiece's boundary U+001F) is a gap, as in
  :mod:`bpe.text.sentencepiece_split`. No valid piece crosses a cut: a
  ``▁`` stands only at the start of a piece or in a piece of nothing but ``▁``. So encoding a word
  at a time merges exactly what SentencePiece's encoder merges over the whole text (it has no
  split of its own at encoding time: it merges the best-scored neighbours that spell a piece).
* :func:`is_valid_piece_kept`: the trainer's piece rule with these options: pieces of ``▁`` only
  (up to 16, Mistral's ``▁▁▁▁``), a decimal digit only alone, else the default rule.

    >>> normalize_kept("  two  spaces"), denormalize_kept("▁▁▁two▁▁spaces")
    ('▁▁▁two▁▁spaces', '  two  spaces')
    >>> split_kept(normalize_kept("in 2024,\\x00ok  ok"))
    [('▁in', True), ('▁2024,', True), ('\\x00', False), ('ok', True), ('▁▁ok', True)]
    >>> is_valid_piece_kept("▁▁▁"), is_valid_piece_kept("▁▁a"), is_valid_piece_kept("12"), is_valid_piece_kept("▁a")
    (True, False, False, True)

Decoding gives back the text as typed: only the dummy prefix (the first ``▁``) goes.
"""

from __future__ import annotations

import unicodedata

import regex

from .sentencepiece_split import MAX_PIECE_CHARS, NEVER_IN_A_PIECE, SPACE_SYMBOL, is_valid_piece, training_sentences

_GAPS = "".join(sorted(NEVER_IN_A_PIECE - {" "}))
_WORDS = regex.compile(f"{SPACE_SYMBOL}*[^{SPACE_SYMBOL}{_GAPS}]+|{SPACE_SYMBOL}+|[{_GAPS}]")


def normalize_kept(text: str) -> str:
    """The dummy prefix, then every space as ``▁`` (nothing removed); empty text stays empty."""
    return SPACE_SYMBOL + text.replace(" ", SPACE_SYMBOL) if text else ""


def denormalize_kept(text: str) -> str:
    """``▁`` as spaces again, without the dummy prefix (only the first space goes)."""
    text = text.replace(SPACE_SYMBOL, " ")
    return text[1:] if text.startswith(" ") else text


def training_sentences_kept(text: str) -> list[str]:
    """The normalized lines the trainer reads (skipped and cut as :func:`~bpe.text.sentencepiece_split.training_sentences` says)."""
    return training_sentences(text, normalize_kept)


def split_kept(normalized: str) -> list[tuple[str, bool]]:
    """``(piece, is_word)`` pieces of a normalized text that concatenate back to it."""
    return [(piece, piece not in NEVER_IN_A_PIECE) for piece in _WORDS.findall(normalized)]


def is_valid_piece_kept(piece: str) -> bool:
    """``IsValidSentencePiece`` with ``allow_whitespace_only_pieces`` and ``split_digits`` on."""
    if piece and piece.strip(SPACE_SYMBOL) == "":
        return len(piece) <= MAX_PIECE_CHARS
    if len(piece) > 1 and any(unicodedata.category(char) == "Nd" for char in piece):
        return False  # subtle: SentencePiece's is_unicode_decimal_number, not only 0-9
    return is_valid_piece(piece)
