"""A faster split for GPT-2's, GPT-4's, GPT-4o's and Qwen's patterns, with exactly the same pieces.

Scope: :func:`split_words` for the named pre-tokenizers ``gpt2``, ``gpt4``, ``gpt4o``, ``qwen2`` and
``qwen3.5`` (their split; Qwen's NFC comes before, in ``Pretokenizer.normalize``), used by
the tokenizer's hot encode path and by ``Corpus.from_text``. Out of scope: every other pattern, and
deciding where chunks end (``pretokenize`` does that; this module only gets the same answer sooner).

Why: the ``regex`` module's ``findall`` is most of the time of encoding a long text with a warm
cache. On ASCII text the patterns only need ASCII classes (``\\p{L}`` is ``[A-Za-z]``), which the
standard ``re`` module runs faster (``benchmarks/encode_benchmark.py``). So ASCII stretches go to ``re`` and each
stretch around a non-ASCII letter, number, mark or space goes to ``regex``.

Any other character (curly quotes, dashes, ``…``, ``°``, most emoji) stays with ``re``: it is in
none of the letter, number, mark or space classes and in every "anything else" class
(``[^\\s\\p{L}\\p{N}]`` in ``regex``, ``[^\\s0-9A-Za-z]`` in ASCII), so both give it the same pieces:
``“Don’t”`` -> ``“Don``, ``’t``, ``”`` under either. Python's documentation holds hundreds of such
characters, and each used to send a stretch of its own to ``regex``.

Cutting the text is safe at a space that has a non-space on both sides (``"a b"`` -> ``"a"``,
``" b"``): no piece of either pattern can cross it (a space only starts a piece), the piece
starting there does not look back, and the piece ending there does not look ahead (only
whitespace pieces do); GPT-4o's and Qwen's pieces, too, hold a space only as their first character.
The tests check all three claims: the pieces equal ``Pretokenizer.words`` (``tests/test_formats_gpt2.py``,
``tests/test_fast_split.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

import regex

from .pretokenize import Pretokenizer

_WS = r"\t\n\x0b\x0c\r "  # the ASCII characters `regex` calls \s (`re` adds \x1c-\x1f: not used here)
ASCII_PATTERNS: Mapping[str, re.Pattern] = MappingProxyType({
    "gpt2": re.compile(
        rf"""'(?:[sdmt]|ll|ve|re)| ?[A-Za-z]++| ?[0-9]++| ?[^{_WS}A-Za-z0-9]++"""
        rf"""|[{_WS}]++$|[{_WS}]+(?![^{_WS}])|[{_WS}]"""
    ),
    "gpt4": re.compile(
        rf"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{{1,3}}+| ?[^{_WS}A-Za-z0-9]++[\r\n]*+"""
        rf"""|[{_WS}]++$|[{_WS}]*[\r\n]|[{_WS}]+(?![^{_WS}])|[{_WS}]"""
    ),
    # ASCII has no titlecase, modifier or other letters and no marks: \p{Lu} is [A-Z], \p{Ll} [a-z].
    # Possessive where giving back cannot help (the classes on either side are disjoint): nothing to backtrack.
    "gpt4o": re.compile(
        rf"""[^\r\nA-Za-z0-9]?+[A-Z]*+[a-z]++(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
        rf"""|[^\r\nA-Za-z0-9]?+[A-Z]++[a-z]*+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
        rf"""|[0-9]{{1,3}}| ?+[^{_WS}A-Za-z0-9]++[\r\n/]*+|[{_WS}]*[\r\n]+|[{_WS}]+(?![^{_WS}])|[{_WS}]+"""
    ),
    # Qwen's: GPT-4's shape with every digit alone; Qwen3.5's marks (\p{M}) do not occur in ASCII.
    **dict.fromkeys(("qwen2", "qwen3.5"), re.compile(
        rf"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]| ?[^{_WS}A-Za-z0-9]+[\r\n]*"""
        rf"""|[{_WS}]*[\r\n]+|[{_WS}]+(?![^{_WS}])|[{_WS}]+"""
    )),
})
"""The GPT-2, GPT-4, GPT-4o and Qwen patterns with ASCII classes: the same pieces on ASCII-only text."""

_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# What the ASCII classes would get wrong: `regex`'s own classes, so its Unicode version decides.
NEEDS_REGEX = regex.compile(r"[\p{L}\p{N}\p{M}\s]")
SAFE_CUT = re.compile(r"(?<=\S) (?=\S)")  # `re`'s \s covers `regex`'s (a test checks): never too eager


def split_words(pretokenizer: Pretokenizer, text: str) -> list[str]:
    """``pretokenizer.words(text)``, faster; ``pretokenizer`` must be named in :data:`ASCII_PATTERNS`.

    >>> split_words(Pretokenizer.parse("gpt2"), "I'm naïve  ok")
    ['I', "'m", ' naïve', ' ', ' ok']
    >>> split_words(Pretokenizer.parse("gpt4o"), "“Don’t”—NO…")  # no letter outside ASCII: `re` alone
    ['“Don', '’t', '”—', 'NO', '…']
    """
    ascii_pattern = ASCII_PATTERNS[pretokenizer.name]
    if text.isascii():
        return ascii_pattern.findall(text)
    words: list[str] = []
    done = 0  # text[:done] is split already, and done is a safe cut
    for match in _NON_ASCII.finditer(text):
        position = match.start()
        if position < done or not NEEDS_REGEX.match(match.group()):
            continue
        start = _safe_cut_before(text, position, done)
        after = SAFE_CUT.search(text, position + 1)
        end = after.start() if after else len(text)
        words += ascii_pattern.findall(text[done:start])
        words += pretokenizer.words(text[start:end])
        done = end
    words += ascii_pattern.findall(text[done:])
    return words


def _safe_cut_before(text: str, position: int, floor: int) -> int:
    """The last safe cut in ``text[floor:position]`` (``floor`` itself is one)."""
    cut = text.rfind(" ", floor, position)
    while cut > floor:
        if not text[cut - 1].isspace() and not text[cut + 1].isspace():
            return cut
        cut = text.rfind(" ", floor, cut)
    return floor
