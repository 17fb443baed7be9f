"""The training input: distinct words with their counts, in order of first appearance.

Scope: turning raw text (split around special tokens, then pre-tokenized) or a word-count table
into the table the trainer reads. Out of scope: anything about merges.

Order matters: the ``first-seen`` tie-break rule prefers pairs that occur earlier, so words keep
the order in which they first appear in the text (a ``Counter`` keeps insertion order).

    >>> Corpus.from_text(" low low lower", pretokenizer="gpt2").words
    ((' low', 2), (' lower', 1))
    >>> Corpus.from_word_counts({"low": 5, "lower": 2}).words
    (('low', 5), ('lower', 2))

A word table stands for its words separated by spaces: words are used as they are (no
pre-tokenization) and, for the ``char`` unit, the space joins the alphabet so that text like
"low lower" can be encoded afterwards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial

from ..errors import BpeError
from ..tokens.ids import is_digits, is_whole_number
from .fast_split import ASCII_PATTERNS, split_words
from .pretokenize import Pretokenizer, special_token_pattern, split_special, validate_special_tokens
from .surrogates import replace_lone_surrogates


@dataclass(frozen=True)
class Corpus:
    words: tuple[tuple[str, int], ...]
    """Distinct trainable chunks and how often each occurs, first appearance first."""
    alphabet: str
    """Every character of the input outside special tokens, sorted (the ``char`` unit's base)."""
    special_count: int = 0
    """How many special-token occurrences were split out (they are never merged)."""
    later: "Corpus | None" = None
    """The same text split for a second stage of training (SuperBPE), if asked for."""
    languages: tuple[str, ...] = ()
    """A parallel corpus's languages (empty for one text); ``word_languages`` says whose each word is."""
    word_languages: tuple[int, ...] = ()
    """Per word, the index of its language in ``languages`` (the same chunk in two languages is two words)."""

    @classmethod
    def from_text(
        cls, text: str, *, pretokenizer: str = "gpt2", special_tokens: tuple[str, ...] = (),
        second_split: str | None = None,
    ) -> "Corpus":
        """``second_split``: also split the text so for a second stage (``TrainSettings.second_split``)."""
        later = None if second_split is None else cls.from_text(text, pretokenizer=second_split, special_tokens=special_tokens)
        return replace(cls._split(text, pretokenizer, special_tokens), later=later)

    @classmethod
    def from_languages(
        cls, texts: Mapping[str, str], *, pretokenizer: str = "gpt2", special_tokens: tuple[str, ...] = ()
    ) -> "Corpus":
        """A parallel corpus: each language's text split alike, its words kept apart (in the order given).

        >>> corpus = Corpus.from_languages({"en": "a cat", "fr": "un chat"}, pretokenizer="whitespace")
        >>> corpus.words, corpus.word_languages, corpus.alphabet
        ((('a', 1), ('cat', 1), ('un', 1), ('chat', 1)), (0, 0, 1, 1), ' achntu')
        """
        parts = [cls._split(text, pretokenizer, special_tokens) for text in texts.values()]
        return cls(
            words=tuple(word for part in parts for word in part.words),
            alphabet="".join(sorted(set().union(*(part.alphabet for part in parts)))),
            special_count=sum(part.special_count for part in parts),
            languages=tuple(texts),
            word_languages=tuple(index for index, part in enumerate(parts) for _ in part.words),
        )

    @classmethod
    def _split(cls, text: str, pretokenizer: str, special_tokens: tuple[str, ...]) -> "Corpus":
        splitter = Pretokenizer.parse(pretokenizer)
        # The GPT patterns' ASCII shortcut gives the same words, sooner (splitting is most of building a corpus).
        fast = partial(split_words, splitter) if splitter.name in ASCII_PATTERNS else None
        words = partial(splitter.training_words, split=fast)
        pattern = special_token_pattern(validate_special_tokens(special_tokens))
        counts: Counter[str] = Counter()
        characters: set[str] = set()
        special_count = 0
        for piece, is_special in split_special(replace_lone_surrogates(text), pattern):  # as encode reads it
            if is_special:
                special_count += 1
                continue
            if splitter.normalization is None:
                characters.update(piece)
            counts.update(words(piece))
        if splitter.normalization is not None:
            # subtle: the alphabet is what training sees, normalized: NFC's characters, SentencePiece's
            # ▁ and none of the spaces or tabs it never puts in a piece
            characters.update(*counts)
        return cls(tuple(counts.items()), "".join(sorted(characters)), special_count)

    @classmethod
    def from_word_counts(cls, word_counts: Mapping[str, int]) -> "Corpus":
        for word, count in word_counts.items():
            if not isinstance(word, str) or not word:
                raise BpeError(f"word {word!r} in the word table is empty: remove it or give it text")
            if count is None or count == "":
                raise BpeError(f"the word {word!r} in the word table has no count: give it a whole number of at least 1")
            if not is_whole_number(count, minimum=1):
                raise BpeError(f"the count of {word!r} must be a whole number of at least 1, got {count!r}")
        characters = set(" ").union(*word_counts) if word_counts else set()
        return cls(tuple(word_counts.items()), "".join(sorted(characters)))


def parse_word_counts(spec: str) -> dict[str, int]:
    """Parse ``"low:5,lower:2"`` into ``{"low": 5, "lower": 2}`` (a repeated word adds up).

    The count follows the *last* colon, so words may contain colons themselves.
    """
    table: dict[str, int] = {}
    for item in spec.split(","):
        word, separator, count = item.strip().rpartition(":")
        count = count.strip()
        if not separator or not word or not is_digits(count) or int(count) < 1:
            raise BpeError(
                f"cannot read {item.strip()!r} as word:count; write e.g. low:5,lower:2 "
                "(counts are whole numbers of at least 1)"
            )
        table[word] = table.get(word, 0) + int(count)
    return table


BOM = "\ufeff"
"""A byte-order mark: files often start with one; it is not part of the corpus, so it is removed
(from uploads, ``--file`` and ``--text`` alike, and each says so)."""


def decode_text_file(data: bytes, *, name: str) -> str:
    """The text of a file (its leading byte-order mark removed), or a :class:`BpeError` saying why
    it is not UTF-8 text. Any valid UTF-8 is text, NUL and control characters included.

    >>> decode_text_file("low lower".encode(), name="words.txt")
    'low lower'
    >>> decode_text_file("low".encode("utf-16"), name="w.txt")
    Traceback (most recent call last):
    ...
    bpe.errors.BpeError: w.txt is UTF-16 text, not UTF-8: save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8) and try again
    """
    if looks_like_utf16(data):
        raise utf16_error(name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if b"\x00" in data:
            raise BpeError(f"{name} looks like a binary file (it contains NUL bytes): use a UTF-8 text file") from None
        raise BpeError(
            f"{name} is not UTF-8 text (byte {error.start} is 0x{data[error.start]:02x}); "
            "save it as UTF-8 and try again"
        ) from None
    return text.removeprefix(BOM)


def unreadable(name: str, error: OSError) -> BpeError:
    """The error for a file that cannot be opened or read (``/proc/self/mem`` opens, then reading fails)."""
    return BpeError(f"cannot read {name}: {error.strerror or error}")


def utf16_error(name: str) -> BpeError:
    return BpeError(f"{name} is UTF-16 text, not UTF-8: save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8) and try again")


def looks_like_utf16(data: bytes) -> bool:
    """A UTF-16 byte-order mark, or (without one) NUL in at least half the odd or even bytes and
    few of the others, as ASCII-range text in UTF-16 has; UTF-8 text almost never does.

    subtle: UTF-16 without a mark is valid UTF-8 when all its characters are ASCII ("a" is
    ``61 00``), so decoding alone would take it for text full of NULs.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    sample = data[:4096]
    if len(sample) < 4 or len(sample) % 2:
        return False
    nuls = sorted((sample[0::2].count(0), sample[1::2].count(0)))
    return nuls[1] * 4 >= len(sample) and nuls[0] * 16 <= len(sample)  # one half mostly NUL, the other not
