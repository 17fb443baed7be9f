"""GPT-2's byte-to-unicode table: how byte-level BPE shows bytes as printable characters.

GPT-2 (and Hugging Face's ``ByteLevel``) give every byte 0..255 a printable stand-in so that token
strings never contain spaces or control characters. Printable Latin-1 bytes map to themselves; the
other 68 bytes map to U+0100 upwards, in byte order. That is why a leading space shows as "Ġ"::

    >>> BYTE_TO_UNICODE[ord(" ")], BYTE_TO_UNICODE[ord("\\n")], BYTE_TO_UNICODE[ord("a")]
    ('Ġ', 'Ċ', 'a')

Out of scope: anything else about GPT-2 (its files are read by the import module).
"""

from __future__ import annotations

from types import MappingProxyType


def _byte_to_unicode() -> tuple[str, ...]:
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    table = {}
    next_codepoint = 256
    for byte in range(256):
        if byte in printable:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(next_codepoint)
            next_codepoint += 1
    return tuple(table[byte] for byte in range(256))


BYTE_TO_UNICODE: tuple[str, ...] = _byte_to_unicode()
"""``BYTE_TO_UNICODE[b]`` is GPT-2's printable character for byte ``b``."""

UNICODE_TO_BYTE: MappingProxyType[str, int] = MappingProxyType(
    {char: byte for byte, char in enumerate(BYTE_TO_UNICODE)}
)
"""The inverse table: GPT-2's printable character back to its byte."""


def to_byte_text(data: bytes) -> str:
    """``b" the" -> "Ġthe"``: token bytes as GPT-2's ``encoder.json`` and Hugging Face spell them.

    Each byte read as the code point of its value (Latin-1), then translated in C: spelling GPT-4o's 200,000
    tokens a character at a time took most of a tokenizer.json export's second.
    """
    return data.decode("latin-1").translate(BYTE_TO_UNICODE)  # the tuple is the table: code point -> character


def gpt2_text_to_bytes(text: str) -> bytes:
    """Inverse of :func:`to_byte_text`; raises ``KeyError`` on a character outside the table."""
    return bytes(UNICODE_TO_BYTE[char] for char in text)
