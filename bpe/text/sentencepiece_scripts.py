"""The Unicode script of each character, as SentencePiece's trainer classifies it.

Why a table of our own: SentencePiece never lets a piece mix scripts, and it decides a
character's script with its own table (``src/unicode_script_map.h``, generated from Unicode 9.0's
``Scripts.txt``); a character missing from it is ``Common``, even one assigned since. Python's
``regex`` knows a newer Unicode, so ``\\p{Script=...}`` would classify characters assigned after
9.0 differently and split pieces where SentencePiece does not. :mod:`bpe.text.sentencepiece_script_table`
holds that table's non-``Common`` ranges, generated from SentencePiece's own header by
``scripts/generate_sentencepiece_scripts.py`` (``tests/test_sentencepiece_scripts.py`` checks it is
the generator's output), so BPE Lab splits exactly where SentencePiece does.

    >>> script_of("a"), script_of("α"), script_of("1"), script_of("\u0301"), script_of("\U0001F600")
    ('Latin', 'Greek', 'Common', 'Inherited', 'Common')
    >>> script_of("\U00013000"), script_of("\U00010B40")  # statements the header wraps over two lines
    ('Egyptian_Hieroglyphs', 'Inscriptional_Parthian')
"""

from __future__ import annotations

from bisect import bisect_right

from .sentencepiece_script_table import RANGES, SCRIPT_NAMES


def _parse() -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    starts, ends, scripts = [], [], []
    for entry in RANGES:
        span, index = entry.split(":")
        first, _, last = span.partition("-")
        starts.append(int(first, 16))
        ends.append(int(last or first, 16))
        scripts.append(SCRIPT_NAMES[int(index)])
    return tuple(starts), tuple(ends), tuple(scripts)


_STARTS, _ENDS, _SCRIPTS = _parse()


def script_of(char: str) -> str:
    """SentencePiece's script of ``char`` (one character): e.g. ``Latin``, ``Han``, ``Common``."""
    code = ord(char)
    at = bisect_right(_STARTS, code) - 1
    return _SCRIPTS[at] if at >= 0 and code <= _ENDS[at] else "Common"
