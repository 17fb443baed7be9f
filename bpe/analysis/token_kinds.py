"""What kind of text a token is: its Unicode script, or code, digits, whitespace, punctuation.

The lineage view groups a tokenizer's new merges by what they are for, so "Llama 3 added 27,744
tokens" becomes "mostly Arabic, Thai, Devanagari...". A token is bytes, and a byte-level token may
hold part of a character: a fragment whose first byte starts a character is classed by the
characters it can still become (``\\xd8`` starts U+0600..U+063F, Arabic; ``\\xe0\\xb8`` starts
U+0E00..U+0E3F, Thai), and one that starts inside a character is a "byte fragment".

    >>> [token_kind(data) for data in (b" the", "Привет".encode(), b"  ", b" 2024", b"();", "\\u2014".encode())]
    ['Latin', 'Cyrillic', 'whitespace', 'digits', 'code', 'punctuation']
    >>> token_kind(b"\\xd8"), token_kind(b" \\xe0\\xb8"), token_kind(b"\\xb8\\xad"), token_kind(b"\\xe0"), token_kind(b"\\tdef")
    ('Arabic', 'Thai', 'byte fragment', 'byte fragment', 'code')

The script of a character is SentencePiece's table of Unicode 9.0 (:mod:`bpe.text.sentencepiece_scripts`),
with Hiragana and Katakana kept apart from Han; characters assigned later count as punctuation.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from ..text.sentencepiece_scripts import script_of

CODE_SYMBOLS = frozenset("()[]{}<>;:=+-*/\\%&|^~!@#$_`\"'.,?")
"""ASCII symbols that mark a token as code when it has no letters, or letters glued to one of these
(``_init``, ``self.``); a lone apostrophe or hyphen inside a word does not (``don't``, ``well-``)."""
WORD_JOINERS = frozenset("'-")
FRAGMENT = "byte fragment"
KINDS_WITHOUT_SCRIPT = ("code", "digits", "whitespace", "punctuation", FRAGMENT)
"""The kinds that are not a script's name."""


def token_kind(data: bytes) -> str:
    """The kind of text ``data`` (a token's bytes) is: a script's name or one of :data:`KINDS_WITHOUT_SCRIPT`."""
    text, tail = _split_fragment(data)
    if text is None:
        return FRAGMENT
    stripped = text.lstrip(" ")
    scripts = Counter(script for script in map(script_of, stripped) if script not in ("Common", "Inherited"))
    if tail not in (None, FRAGMENT):
        scripts[tail] += 1
    if scripts:
        if any(char in CODE_SYMBOLS and char not in WORD_JOINERS for char in stripped) or stripped[:1].isspace():
            return "code"  # letters glued to code's symbols, or indented: ``self.``, ``\tdef``
        return scripts.most_common(1)[0][0]
    if tail == FRAGMENT:
        return FRAGMENT
    if not stripped or stripped.isspace():
        return "whitespace"
    if stripped.strip().isdigit():
        return "digits"
    if any(char in CODE_SYMBOLS for char in stripped):
        return "code"
    return "punctuation"


def _split_fragment(data: bytes) -> tuple[str | None, str | None]:
    """``(the text of its whole characters, what a cut-off last character is)``: ``None`` when the bytes
    end on a whole character, a script when its first bytes pin one down, else :data:`FRAGMENT`; the text
    is ``None`` when the bytes start inside a character (or are not UTF-8 at all)."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        if error.end != len(data) or (error.start == 0 and not _starts_character(data[0])):
            return None, None  # invalid in the middle, or the tail of a character
        return data[: error.start].decode("utf-8"), _block_script(data[error.start:]) or FRAGMENT


def _starts_character(byte: int) -> bool:
    return byte < 0x80 or 0xC2 <= byte <= 0xF4


def _block_script(tail: bytes) -> str | None:
    """The script of the block of 64 code points a cut-off character's first bytes pin down, if they do."""
    lead = tail[0]
    needed = 1 if lead < 0xE0 else 2 if lead < 0xF0 else 3  # bytes that fix all but the last 6 bits
    if len(tail) < needed:
        return None
    value = lead & (0x1F if lead < 0xE0 else 0x0F if lead < 0xF0 else 0x07)
    for continuation in tail[1:needed]:
        value = (value << 6) | (continuation & 0x3F)
    first = value << 6
    scripts = Counter(script for point in range(first, first + 64) if (script := script_of(chr(point))) not in ("Common", "Inherited"))
    return scripts.most_common(1)[0][0] if scripts else None


def kinds_of(tokens: Sequence[bytes], ranks: Iterable[int]) -> list[tuple[str, list[int]]]:
    """``ranks`` of ``tokens`` grouped by :func:`token_kind`, the biggest group first (ranks in order).

    >>> kinds_of([b"a", b" the", b"()", b" of", "ก".encode()], [1, 2, 3, 4])
    [('Latin', [1, 3]), ('code', [2]), ('Thai', [4])]
    """
    groups: dict[str, list[int]] = defaultdict(list)
    for rank in ranks:
        groups[token_kind(tokens[rank])].append(rank)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[1][0]))
