"""SentencePiece's pre-tokenization: whitespace as ``▁``, the dummy prefix, and where pieces may not go.

Scope: what SentencePiece (``normalization_rule_name="identity"``, its other options at their
defaults) does to text before BPE, read from its source (``normalizer.cc``, ``trainer_interface.cc``
``IsValidSentencePiece`` and ``SplitIntoWords``, ``model_interface.cc``):

* :func:`normalize_sentence`: leading and trailing spaces dropped, runs of spaces made one, a space
  added in front (the *dummy prefix*, so that "world" and "hello world" both hold ``▁world``),
  then every space written ``▁`` (U+2581). Only the space character counts: identity leaves tabs
  and other whitespace as they are.
* :func:`split_sentence`: the pieces no merge may cross. A ``▁`` starts a new word; two
  neighbouring characters of different Unicode scripts (SentencePiece's own table,
  :mod:`bpe.text.sentencepiece_scripts`; Hiragana and Katakana count as Han, digits as ``Common``,
  so "a1" splits but "1." does not) are never in one piece; U+001F (SentencePiece's pre-tokenization
  boundary), NUL, U+2585 or a space is never in a piece at all, so it is a gap (encoded, never
  trained on, outside the vocabulary). A tab is a ``Common`` character like any other: it merges
  (``▁\\t``, ``\\t€``), as SentencePiece 0.2.3 merges it.
* :func:`is_valid_piece`: the full rule for a merged piece, which a split alone cannot express:
  at most :data:`MAX_PIECE_CHARS` characters, and a combining mark takes the script of the
  character before it *in the piece* (so ``e\\u0301`` and ``\\u0301α`` are pieces, ``e\\u0301α``
  is not). The trainer asks it before counting a pair.
* :func:`training_sentences`: the trainer reads the corpus a line at a time; empty lines, lines
  over :data:`MAX_SENTENCE_BYTES` bytes and lines holding U+2585 are skipped, as SentencePiece does,
  and the special pieces' names typed in the text (``<unk>``, ``<s>``, ``</s>``) become a boundary.

    >>> normalize_sentence("  Hello   world ")
    '▁Hello▁world'
    >>> split_sentence(normalize_sentence("in 2024年, 東京で"))
    [('▁in', True), ('▁2024', True), ('年', True), (',', True), ('▁東京で', True)]
    >>> is_valid_piece("▁東京"), is_valid_piece("東▁"), is_valid_piece("a" * 17)
    (True, False, False)
    >>> denormalize("▁Hello▁world")
    'Hello world'

Out of scope (refused where a setting would ask for them): other normalization rules (NFKC),
``treat_whitespace_as_suffix``, ``allow_whitespace_only_pieces``, ``split_digits``, a maximum
piece length other than 16, and turning off the script or number split.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import regex

from .sentencepiece_scripts import script_of

SPACE_SYMBOL = "\u2581"
"""``▁``: how SentencePiece writes a space."""
MAX_PIECE_CHARS = 16
"""``max_sentencepiece_length``'s default: no piece is longer."""
MAX_SENTENCE_BYTES = 4192
"""``max_sentence_length``'s default: longer lines are skipped when training."""
UNKNOWN_CHAR = "\u2585"
"""SentencePiece's stand-in for an unknown character: lines holding it are skipped in training."""
BOUNDARY = "\x1f"
"""SentencePiece's pre-tokenization boundary (``kPretokenizationBoundaryChar``, U+001F; a tab in
releases up to 0.2.1): counted, but never part of the alphabet or of a piece, so in the text it is a gap."""
NEVER_IN_A_PIECE = frozenset(BOUNDARY + "\x00 " + UNKNOWN_CHAR)
"""Characters no piece may hold (``IsValidSentencePiece``), and so none of the alphabet holds."""
SPECIAL_PIECES = ("<unk>", "<s>", "</s>")
"""The pieces every model has; typed in a training line, each becomes a :data:`BOUNDARY`."""
_SPECIAL_NAMES = regex.compile("|".join(map(regex.escape, SPECIAL_PIECES)))
_SPACES = regex.compile(" +")
_KANA_AS_HAN = frozenset({"Hiragana", "Katakana"})
_CHOONPU = "\u30fc"  # the Katakana long vowel mark: SentencePiece counts it as Han too


def normalize_sentence(text: str) -> str:
    """SentencePiece's identity normalization of one sentence (see the module docstring)."""
    text = text.lstrip(" ")
    if not text:
        return ""
    if "  " in text:  # else there is no run to make one (the search costs more than this test)
        text = _SPACES.sub(" ", text)
    # subtle: SentencePiece strips every trailing U+2581, a literal one typed in the text included
    return (SPACE_SYMBOL + text.replace(" ", SPACE_SYMBOL)).rstrip(SPACE_SYMBOL)


def denormalize(text: str) -> str:
    """Decoded pieces back to text: ``▁`` is a space again, and the leading ones (the dummy
    prefix, and spaces the normalization removed anyway) go."""
    return text.replace(SPACE_SYMBOL, " ").lstrip(" ")


def training_sentences(text: str, normalize: Callable[[str], str] = normalize_sentence) -> list[str]:
    """The normalized sentences SentencePiece's trainer reads from ``text``, one per line
    (``normalize``: another whitespace handling, :mod:`bpe.text.sentencepiece_mistral`'s)."""
    sentences = []
    # Each test below is skipped when the whole text rules it out (most lines are short, few texts hold these).
    unknown, special = UNKNOWN_CHAR in text, "<" in text
    for line in text.split("\n"):
        if not line or (unknown and UNKNOWN_CHAR in line):
            continue
        # a character is at most 4 bytes in UTF-8 (a lone surrogate 3), so a short line needs no encoding
        if len(line) * 4 > MAX_SENTENCE_BYTES and len(line.encode("utf-8", "surrogatepass")) > MAX_SENTENCE_BYTES:
            continue
        normalized = normalize(line)
        if special:  # subtle: SentencePiece replaces them after normalizing, leftmost first (its PrefixMatcher)
            normalized = _SPECIAL_NAMES.sub(BOUNDARY, normalized)
        if normalized:
            sentences.append(normalized)
    return sentences


@lru_cache(maxsize=4096)
def _script(char: str) -> str:
    script = script_of(char)
    return "Han" if script in _KANA_AS_HAN or char == _CHOONPU else script


_ASCII_PIECES = re.compile("\u2581?(?:[A-Za-z]+|[^A-Za-z\x1f\x00 \u2581\x80-\U0010ffff]+)|\u2581|[\x1f\x00 ]")
"""The same cuts on ASCII text, where letters are Latin and everything else Common: one pattern, no
script looked up per character. The standard ``re`` searches it in about half ``regex``'s time, with the same
matches (plain classes of ASCII ranges: no property, no Unicode case rule)."""
_ASCII_WORDS = re.compile(_ASCII_PIECES.pattern.removesuffix("|[\x1f\x00 ]"))
"""The same without its gaps: a search skips what it cannot match, so it finds the words alone."""
_RUN_JOINER = "\x00"
"""Between two ASCII sentences searched at once: a gap of its own, so no word crosses it."""


def split_sentence(normalized: str) -> list[tuple[str, bool]]:
    """``(piece, is_word)`` pieces of a normalized sentence that concatenate back to it; no valid
    piece crosses a cut, and gaps hold the characters no piece may contain."""
    if normalized.replace(SPACE_SYMBOL, "").isascii():
        return [(piece, piece not in NEVER_IN_A_PIECE) for piece in _ASCII_PIECES.findall(normalized)]
    pieces: list[tuple[str, bool]] = []
    start = 0
    previous = ""
    for index, char in enumerate(normalized):
        if index > start and _cut_between(previous, char):
            pieces.append((normalized[start:index], previous not in NEVER_IN_A_PIECE))
            start = index
        previous = char
    if start < len(normalized):
        pieces.append((normalized[start:], previous not in NEVER_IN_A_PIECE))
    return pieces


def sentence_words(sentences: list[str]) -> list[str]:
    """The words of normalized ``sentences`` in order: :func:`split_sentence`'s, its gaps left out.

    Why not a split per sentence: on English text nearly every line is ASCII, and one pattern search over
    a run of such lines, joined by NUL, costs a fraction of a search and a list per line. Safe because NUL
    is a gap of its own that no word of :data:`_ASCII_WORDS` crosses, so each line gives the same words
    as alone (``tests/test_sentencepiece_split.py`` checks it on any text).

    >>> sentence_words(["▁a1▁b", "▁東京で", "▁x\x1fy"])
    ['▁a', '1', '▁b', '▁東京で', '▁x', 'y']
    """
    words: list[str] = []
    run: list[str] = []  # consecutive ASCII sentences not yet split
    for sentence in sentences:
        if sentence.replace(SPACE_SYMBOL, "").isascii():
            run.append(sentence)
            continue
        if run:
            words += _ascii_words(run)
            run = []
        words += [piece for piece, is_word in split_sentence(sentence) if is_word]
    if run:
        words += _ascii_words(run)
    return words


def _ascii_words(sentences: list[str]) -> list[str]:
    return _ASCII_WORDS.findall(_RUN_JOINER.join(sentences))


def _cut_between(left: str, right: str) -> bool:
    if right == SPACE_SYMBOL or left in NEVER_IN_A_PIECE or right in NEVER_IN_A_PIECE:
        return True
    if left == SPACE_SYMBOL:
        return False
    first, second = _script(left), _script(right)
    # subtle: a combining mark (Inherited) takes its script from what precedes it in the piece,
    # which a cut made here cannot know: is_valid_piece decides those pairs
    return first != second and "Inherited" not in (first, second)


def is_valid_piece(piece: str) -> bool:
    """SentencePiece's ``IsValidSentencePiece`` with its default options (see the module docstring)."""
    if not piece or len(piece) > MAX_PIECE_CHARS:
        return False
    if piece.isascii() or (piece[0] == SPACE_SYMBOL and piece[1:].isascii()):
        # most pieces asked: letters are Latin, the rest Common, so one pattern says it (the trainer asks every pair)
        return _VALID_ASCII_PIECE.fullmatch(piece) is not None
    return _is_valid_by_script(piece)


_VALID_ASCII_PIECE = re.compile("\u2581?(?:[A-Za-z]*|[^A-Za-z\x1f\x00 ]*)")
"""An ASCII piece, after its one leading ``▁``: all Latin letters or all Common characters, none that no piece holds."""


def _is_valid_by_script(piece: str) -> bool:
    """:func:`is_valid_piece` on a piece of at most :data:`MAX_PIECE_CHARS`, character by character."""
    previous = None  # SentencePiece's "any script"
    for position, char in enumerate(piece):
        if char in NEVER_IN_A_PIECE:
            return False
        if char == SPACE_SYMBOL:
            if position > 0:
                return False
            continue
        script = _script(char)
        if script == "Inherited":
            script = previous
        if script is not None and previous is not None and script != previous:
            return False
        previous = script
    return True
