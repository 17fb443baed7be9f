"""How a learner reads tokens and characters as plain text: one notation, no HTML.

Every page, lab, quiz, notebook view and CLI message spells tokens the same way, so a learner
never meets an empty token or a blank cell, and never meets a Python literal like ``b' '`` or
``'\\xc3'``:

* space ``·``, tab ``→``, newline ``↵``, carriage return ``␍`` (as on the Train page);
* the other C0 controls and DEL by their ASCII abbreviations in guillemets, each its own: BEL
  ``‹BEL›``, NUL ``‹NUL›`` (Unicode's control pictures, ␀ ␇, came out as specks or empty boxes
  at table and chip sizes);
* format, zero-width and bidirectional characters, other spaces, C1 controls and variation
  selectors as a short name in guillemets: ``‹ZWJ›``, ``‹RLO›``, ``‹NBSP›``, else ``‹U+0085›``;
* bytes that are not whole UTF-8 characters as hex in guillemets, never dropped:
  ``b"\\xe2\\x82"`` (two thirds of "€") -> ``‹e2 82›``;
* a token ending a word gets the end-of-word marker spelled out: ``est</w>``.

    >>> spell("a b\\tc\\n")
    'a·b→c↵'
    >>> spell("👩\\u200d💻"), spell("\\u202eabc"), spell("\\x07"), spell("\\x00")
    ('👩‹ZWJ›💻', '‹RLO›abc', '‹BEL›', '‹NUL›')
    >>> name("\\u200d"), name("\\x07"), name("é")
    ('zero-width joiner', 'bell', None)
    >>> quote(" the")
    "'·the'"
    >>> visible_text(b"\\x00\\xe2\\x80\\x8d"), visible_text(b"\\xe2\\x82")  # marked, never empty
    ('‹NUL›‹ZWJ›', '‹e2 82›')

Subtle: a mark replaces its character, it is never added beside it. A right-to-left override
left in the HTML would reverse the text after it, and a zero-width joiner would glue two emoji
into one picture, hiding the very tokens the learner is looking at.

Why here, in the engine: the teaching aids (``bpe.teaching``) word their questions and answers
with it and the views (``bpe.views``) draw it, and a lower layer never imports a higher one.
Out of scope: HTML. :mod:`bpe.views.token_html` draws these spellings as chips and escapes them;
callers that put them in HTML or Markdown escape them too. Programs that need an exact, reversible
spelling use :func:`bpe.tokens.vocab.token_text` (Python escapes) instead.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

from ..training.trace import Trace

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


def visible_parts(data: bytes) -> list[tuple[str, str]]:
    """Split ``data`` into ``(kind, text)`` runs: ``"text"``, ``"ws"`` (a glyph) or ``"hex"``.

    >>> visible_parts(b"a \\xe2\\x82")
    [('text', 'a'), ('ws', '·'), ('hex', '‹e2 82›')]
    """
    parts: list[tuple[str, str]] = []
    position = 0
    while position < len(data):
        try:
            decoded, bad = data[position:].decode("utf-8"), b""
            position = len(data)
        except UnicodeDecodeError as error:
            # Subtle: error.end covers only the first bad sequence; keep going after it, so a
            # token like b"\xe2\x82a" shows both the broken character and the "a".
            decoded = data[position:position + error.start].decode("utf-8")
            bad = data[position + error.start:position + error.end]
            position += error.end
        run = ""
        for char in decoded:
            shown = mark(char)  # spaces, controls, zero-width and format characters: one notation
            if shown is not None:
                if run:
                    parts.append(("text", run))
                    run = ""
                parts.append(("ws", shown))
            else:
                run += char
        if run:
            parts.append(("text", run))
        if bad:
            if parts and parts[-1][0] == "hex":  # one ‹..› per run of broken bytes
                parts[-1] = ("hex", parts[-1][1][:-1] + " " + bad.hex(" ") + "›")
            else:
                parts.append(("hex", f"‹{bad.hex(' ')}›"))
    return parts


def visible_text(data: bytes, end_of_word: str | None = None, ends_word: bool = False) -> str:
    """Plain-text version of a token as the chips show it (for tables and chart labels)."""
    shown = "".join(text for _, text in visible_parts(data))
    return shown + (end_of_word or "") if ends_word else shown


def spelled(trace: Trace, token_id: int, names: Mapping[int, str] | None = None) -> str:
    """A token of ``trace`` as the chips spell it (``·the``, ``‹e2 82›``, ``est</w>``), or its name in ``names``.

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> spelled(trace, 256), spelled(trace, 256, {256: "Z"}), spelled(trace, 32)
    ('aa', 'Z', '·')
    """
    if names and token_id in names:
        return names[token_id]
    token = trace.tokens[token_id]
    return visible_text(token.data, trace.settings.end_of_word, token.ends_word)
