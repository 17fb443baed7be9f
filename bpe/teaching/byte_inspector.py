"""The byte inspector: what a byte-level tokenizer actually sees, character by character.

Byte-level BPE starts from UTF-8 bytes, not characters: "é" is two bytes, "€" three, and a token
may hold part of a character. This module lays a text out per character (code point, UTF-8 bytes,
GPT-2's printable stand-ins for them) and says what a single token's bytes decode to, and why.

    >>> from bpe.teaching.byte_inspector import inspect_text, inspect_token
    >>> [(c.char, c.codepoint, c.hex, c.gpt2) for c in inspect_text("a €")]
    [('a', 'U+0061', '61', 'a'), (' ', 'U+0020', '20', 'Ġ'), ('€', 'U+20AC', 'e2 82 ac', 'âĤ¬')]
    >>> token = inspect_token(b"\\xe2\\x82")
    >>> token.whole, token.shown
    (False, '�')
    >>> print(token.explanation)
    Not a whole character: 0xe2 starts a 3-byte character but only 2 of its bytes are in this token; the rest is in the next token. Decoding this token on its own shows �.

Scope: UTF-8 and GPT-2's byte-to-unicode table (:mod:`bpe.tokens.byte_level`). Out of scope: other
encodings, and grapheme clusters (an emoji with a skin tone is two code points here, and two rows).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..notation.spelling import quote
from ..tokens.byte_level import BYTE_TO_UNICODE, to_byte_text


@dataclass(frozen=True)
class CharBytes:
    """One character of the text."""

    char: str
    codepoint: str
    """``U+20AC``."""
    name: str
    """The Unicode name (``EURO SIGN``), or ``""`` for characters without one (control characters)."""
    utf8: bytes
    hex: str
    """The UTF-8 bytes in hex, space-separated: ``e2 82 ac``."""
    gpt2: str
    """GPT-2's printable stand-in for each byte: a space shows as ``Ġ``, a newline as ``Ċ``."""
    remapped: bool
    """True when some byte is not printable Latin-1, so GPT-2 shows it as another character."""

    @property
    def remapped_bytes(self) -> int:
        """How many of its bytes GPT-2 shows as another character (the orange stand-ins).

        >>> [row.remapped_bytes for row in inspect_text("a é€🙂")]
        [0, 1, 0, 1, 3]
        """
        return sum(BYTE_TO_UNICODE[b] != chr(b) for b in self.utf8)


@dataclass(frozen=True)
class ByteRole:
    value: int
    gpt2: str
    role: str
    """``ascii``, ``lead`` (starts a multi-byte character), ``continuation`` or ``invalid``."""
    why_gpt2: str
    """Why GPT-2 shows the byte as ``gpt2``."""


@dataclass(frozen=True)
class TokenBytes:
    """What one token's bytes are and what decoding the token alone shows."""

    data: bytes
    hex: str
    gpt2: str
    whole: bool
    """True when the bytes are complete UTF-8 characters (decode without error)."""
    shown: str
    """``data.decode("utf-8", errors="replace")``: a partial character shows as ``�``."""
    roles: tuple[ByteRole, ...]
    explanation: str


def inspect_text(text: str) -> list[CharBytes]:
    """One row per character (code point) of ``text``.

    >>> row = inspect_text("\\n")[0]
    >>> row.codepoint, row.hex, row.gpt2, row.remapped
    ('U+000A', '0a', 'Ċ', True)
    """
    rows = []
    for char in text:
        data = char.encode("utf-8", errors="surrogatepass")
        rows.append(
            CharBytes(
                char=char,
                codepoint=f"U+{ord(char):04X}",
                name=unicodedata.name(char, ""),
                utf8=data,
                hex=data.hex(" "),
                gpt2=to_byte_text(data),
                remapped=any(BYTE_TO_UNICODE[b] != chr(b) for b in data),
            )
        )
    return rows


def byte_role(value: int) -> ByteRole:
    """What a byte does in UTF-8, and why GPT-2 shows it as it does.

    >>> byte_role(0x20).why_gpt2
    "byte 0x20 is not a printable character, so GPT-2 shows it as U+0120 'Ġ' (U+0100 plus its place, 32, among the 68 such bytes)"
    >>> byte_role(0x82).role, byte_role(0xff).role
    ('continuation', 'invalid')
    """
    if value < 0x80:
        role = "ascii"
    elif value < 0xC0:
        role = "continuation"
    elif value in (0xC0, 0xC1) or value >= 0xF5:
        role = "invalid"
    else:
        role = "lead"
    shown = BYTE_TO_UNICODE[value]
    if shown == chr(value):
        why = f"byte 0x{value:02x} is the printable character {shown!r}, so GPT-2 shows it as itself"
    else:
        place = ord(shown) - 0x100
        why = (
            f"byte 0x{value:02x} is not a printable character, so GPT-2 shows it as U+{ord(shown):04X} "
            f"{shown!r} (U+0100 plus its place, {place}, among the 68 such bytes)"
        )
    return ByteRole(value, shown, role, why)


def inspect_token(data: bytes) -> TokenBytes:
    """A token's bytes: whole UTF-8 or not, what it shows when decoded alone, and why.

    >>> inspect_token(b"\\x82\\xac").explanation.split(":")[0]
    'Not a whole character'
    >>> inspect_token(" é".encode()).whole
    True
    """
    shown = data.decode("utf-8", errors="replace")
    try:
        data.decode("utf-8")
        whole = True
    except UnicodeDecodeError:
        whole = False
    return TokenBytes(
        data=data,
        hex=data.hex(" "),
        gpt2=to_byte_text(data),
        whole=whole,
        shown=shown,
        roles=tuple(byte_role(b) for b in data),
        explanation=_explain(data, whole, shown),
    )


def _sequence_length(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _explain(data: bytes, whole: bool, shown: str) -> str:
    if not data:
        return "An empty token (such as the end-of-word marker) decodes to nothing."
    if whole:
        chars = len(data.decode("utf-8"))
        return (
            f"Whole UTF-8: these {len(data)} byte{'s' if len(data) != 1 else ''} are {chars} complete "
            f"character{'s' if chars != 1 else ''}, so the token decodes on its own to {quote(shown)}."
        )
    reason = _first_problem(data)
    return (
        f"Not a whole character: {reason}. Decoding this token on its own shows "
        f"{shown}."
    )


def _first_problem(data: bytes) -> str:
    """The first reason ``data`` is not valid UTF-8, in words."""
    i = 0
    while i < len(data):
        value = data[i]
        role = byte_role(value).role
        if role == "ascii":
            i += 1
        elif role == "continuation":
            return (
                f"0x{value:02x} is a continuation byte (10xxxxxx) with no lead byte before it in this "
                "token; its character started in the previous token"
            )
        elif role == "invalid":
            return f"0x{value:02x} never occurs in UTF-8 text"
        else:
            length = _sequence_length(value)
            present = 1
            while present < length and i + present < len(data) and byte_role(data[i + present]).role == "continuation":
                present += 1
            if present < length and i + present == len(data):
                return (
                    f"0x{value:02x} starts a {length}-byte character but only {present} of its bytes "
                    f"{'is' if present == 1 else 'are'} in this token; the rest is in the next token"
                )
            if present < length:
                return f"0x{value:02x} starts a {length}-byte character that is cut short by 0x{data[i + present]:02x}"
            try:
                data[i:i + length].decode("utf-8")
            except UnicodeDecodeError:
                return f"the bytes {data[i:i + length].hex(' ')} are not a valid character (overlong or a surrogate)"
            i += length
    return "the bytes are not valid UTF-8"
