"""One notation for characters that draw nothing: spaces, controls, format and zero-width marks.

Every page shows tokens with the same marks (chips, tables, labs, quiz, Compare), so a learner
never meets an empty token or a blank cell, and never meets a Python literal like ``b' '`` or
``'\\xc3'``:

* space ``·``, tab ``→``, newline ``↵``, carriage return ``␍`` (as on the Train page);
* the other C0 controls and DEL by their ASCII abbreviations in guillemets, each its own: BEL
  ``‹BEL›``, NUL ``‹NUL›`` (Unicode's control pictures, ␀ ␇, came out as specks or empty boxes
  at table and chip sizes);
* format, zero-width and bidirectional characters, other spaces, C1 controls and variation
  selectors as a short name in guillemets: ``‹ZWJ›``, ``‹RLO›``, ``‹NBSP›``, else ``‹U+0085›``.

    >>> spell("a b\\tc\\n")
    'a·b→c↵'
    >>> spell("👩\\u200d💻"), spell("\\u202eabc"), spell("\\x07"), spell("\\x00")
    ('👩‹ZWJ›💻', '‹RLO›abc', '‹BEL›', '‹NUL›')
    >>> name("\\u200d"), name("\\x07"), name("é")
    ('zero-width joiner', 'bell', None)
    >>> quote(" the")
    "'·the'"

Subtle: a mark replaces its character, it is never added beside it. A right-to-left override
left in the HTML would reverse the text after it, and a zero-width joiner would glue two emoji
into one picture, hiding the very tokens the learner is looking at.

Scope: one character at a time, as text. Out of scope: bytes that are not whole characters (shown
as ``‹e2 82›`` by :func:`bpe.views.token_html.visible_parts`, which calls :func:`mark` for the rest)
and HTML (callers escape).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

WHITESPACE_GLYPHS: Mapping[str, str] = MappingProxyType({" ": "·", "\t": "→", "\n": "↵", "\r": "␍"})
"""The everyday whitespace, drawn as in a word processor's "show formatting" mode."""

_NAMED: Mapping[str, tuple[str, str]] = MappingProxyType({
    " ": ("·", "space"), "\t": ("→", "tab"), "\n": ("↵", "newline"), "\r": ("␍", "carriage return"),
    "\u00a0": ("‹NBSP›", "no-break space"), "\u00ad": ("‹SHY›", "soft hyphen"),
    "\u061c": ("‹ALM›", "Arabic letter mark"), "\u180e": ("‹MVS›", "Mongolian vowel separator"),
    "\u200b": ("‹ZWSP›", "zero-width space"), "\u200c": ("‹ZWNJ›", "zero-width non-joiner"),
    "\u200d": ("‹ZWJ›", "zero-width joiner"), "\u200e": ("‹LRM›", "left-to-right mark"),
    "\u200f": ("‹RLM›", "right-to-left mark"), "\u2028": ("‹LS›", "line separator"),
    "\u2029": ("‹PS›", "paragraph separator"), "\u202a": ("‹LRE›", "left-to-right embedding"),
    "\u202b": ("‹RLE›", "right-to-left embedding"), "\u202c": ("‹PDF›", "pop directional formatting"),
    "\u202d": ("‹LRO›", "left-to-right override"), "\u202e": ("‹RLO›", "right-to-left override"),
    "\u202f": ("‹NNBSP›", "narrow no-break space"), "\u2060": ("‹WJ›", "word joiner"),
    "\u2066": ("‹LRI›", "left-to-right isolate"), "\u2067": ("‹RLI›", "right-to-left isolate"),
    "\u2068": ("‹FSI›", "first strong isolate"), "\u2069": ("‹PDI›", "pop directional isolate"),
    "\u3000": ("‹IDSP›", "ideographic space"), "\ufeff": ("‹BOM›", "byte order mark (zero-width no-break space)"),
    "\x7f": ("‹DEL›", "delete"),
})
"""Characters with a mark of their own and the name a hover or a legend gives them."""

_C0_ABBREVIATIONS = tuple((
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI "
    "DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split())
"""ASCII's names of the C0 controls, 0x00 to 0x1F (tab, newline and return have marks of their own)."""

# Categories that draw nothing (or only a gap): controls, format characters, separators.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})


def mark(char: str) -> str | None:
    """The visible mark for one character that draws nothing, or ``None`` for a visible one.

    >>> mark("\\x1b"), mark("\\u2003"), mark("\\ufe0f"), mark("a")
    ('‹ESC›', '‹U+2003›', '‹VS16›', None)
    """
    if char in _NAMED:
        return _NAMED[char][0]
    code = ord(char)
    if code < 0x20:
        return f"‹{_C0_ABBREVIATIONS[code]}›"
    if 0xFE00 <= code <= 0xFE0F:  # variation selectors: alone they draw nothing
        return f"‹VS{code - 0xFE00 + 1}›"
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
        return f"‹U+{code:04X}›"
    return None


def name(char: str) -> str | None:
    """What a marked character is called (for hovers and legends); ``None`` for a visible one."""
    if char in _NAMED:
        return _NAMED[char][1]
    if mark(char) is None:
        return None
    code = ord(char)
    if code < 0x20:  # "SYMBOL FOR BELL" -> "bell": the picture's name says what it stands for
        return unicodedata.name(chr(0x2400 + code)).removeprefix("SYMBOL FOR ").lower()
    return unicodedata.name(char, f"U+{code:04X}").lower()


def spell(text: str) -> str:
    """``text`` with every character that draws nothing replaced by its mark."""
    return "".join(mark(char) or char for char in text)


def quote(text: str) -> str:
    """A token's text inside prose: marked and in plain quotes, as the Train page writes it."""
    return f"'{spell(text)}'"
