"""The merges files a learner's own code writes: lines, quoted strings, tab-separated, JSON lists.

Scope: reading each shape into ``(left bytes, right bytes)`` pairs, **repeats kept** (a merge that
repeats is evidence of a replacement bug, see :mod:`bpe.checking.rules`), and refusing anything
else with the shape to write and a one-line example. Out of scope: other libraries' tokenizer
files (each read by its entry in :data:`bpe.formats.FORMATS`) and choosing a reader
(:mod:`bpe.checking.learner`).

The shapes, tried in this order (:data:`HANDWRITTEN`):

* ``json``: a JSON list of merges, or an object whose ``merges`` is one. A merge is two strings
  (``[" t", "he"]``), two lists of byte values (``[[32, 116], [104, 101]]``), two ids in minbpe's
  numbering (``[256, 98]``: id 256 + k is merge k), a ``"left right"`` string, or a record of
  ``train --json`` (``left_hex``, ``right_hex``; its ``settings`` are hints for a guess);
* ``quoted``: Python literals, as ``print`` writes them: ``(b' t', b'he')``, ``' t' 'he'``;
* ``tab``: one merge per line, the two tokens separated by a tab, spaces kept;
* ``gpt2``: ``left right`` lines in GPT-2's byte-to-unicode characters (``Ġ`` for a space): GPT-2's
  ``vocab.bpe``, Hugging Face's and CS336's ``merges.txt``;
* ``text``: ``left right`` lines of plain text (``e s``, ``es t</w>``). A line with more than one
  space (a token that *is* a space: ``␠␠t``) is cut where both sides are tokens the file already
  has (one character, or made by an earlier line); if that leaves a choice, the line is refused.

Strings in any shape are GPT-2's characters when every one is in GPT-2's alphabet and one uses a
stand-in above U+00FF (``Ġ``) or UTF-8 read as Latin-1 (``Ã©`` for ``é``); otherwise UTF-8 text.

    >>> read_handwritten("#version: 0.2\\nĠ t\\nĠt he\\n", source="merges.txt")[:2]
    ('gpt2', ((b' ', b't'), (b' t', b'he')))
    >>> read_handwritten("  t\\nt h\\n t h\\n", source="merges.txt")[:2]
    ('text', ((b' ', b't'), (b't', b'h'), (b' t', b'h')))
    >>> read_handwritten('[[" t", "he"], [" t", "he"]]', source="m.json", value=[[" t", "he"], [" t", "he"]])[:2]
    ('json', ((b' t', b'he'), (b' t', b'he')))
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from ..errors import BpeError, FormatError
from ..notation.spelling import quote
from ..tokens.byte_level import UNICODE_TO_BYTE, gpt2_text_to_bytes
from ..tokens.ids import is_whole_number
from ..training.settings import TrainSettings

Spelled = tuple[bytes, bytes]
"""A merge as a learner's file names it: the bytes of its left and right token."""
HINTED = ("unit", "pretokenizer", "end_of_word", "end_of_word_mode", "special_tokens")
"""The settings a file may state about how it was trained (hints for a guess, never imposed)."""
_LITERAL = regex.compile(r"""[bB]?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_BETWEEN = regex.compile(r"[\s,()\[\]]*")
MARKER_END = regex.compile(r"</?[^<>\s]{0,8}>$")
"""How learners spell a word's end at the end of a token: ``</w>``, ``<w>``, ``</s>``."""


@dataclass(frozen=True)
class Shape:
    name: str
    title: str
    example: str
    """One line of the shape, for refusals and ``--help``."""
    detect: Callable[[str, object], bool]
    """``detect(text, json_value)``: ``json_value`` is the parsed JSON, or None when the text is not JSON."""
    read: Callable[[str, object, str], tuple[tuple[Spelled, ...], dict]]
    """``read(text, json_value, source) -> (pairs, hints)``; a :class:`FormatError` says what is wrong."""

    def refusal(self, problem: str) -> FormatError:
        return FormatError(f"{problem}. Write it as {self.title}, e.g. {self.example}")


def _looks_gpt2(tokens: Sequence[str]) -> bool:
    if not tokens or not all(char in UNICODE_TO_BYTE for token in tokens for char in token):
        return False
    joined = "".join(tokens)
    # Ġ, Ċ... (stand-ins above U+00FF) only appear in GPT-2 spelling; so does UTF-8 read as Latin-1
    # ("é" spelled "Ã©": a lead byte C2-F4 right before a continuation byte 80-BF).
    return any(ord(char) > 0xFF for char in joined) or any(
        0xC2 <= ord(a) <= 0xF4 and 0x80 <= ord(b) <= 0xBF for a, b in zip(joined, joined[1:])
    )


def _spelled(pairs: Sequence[tuple[str, str]]) -> tuple[Spelled, ...]:
    tokens = [token for pair in pairs for token in pair]
    spell = gpt2_text_to_bytes if _looks_gpt2(tokens) else (lambda token: token.encode("utf-8", errors="surrogatepass"))
    return tuple((spell(left), spell(right)) for left, right in pairs)


def _lines(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of the merge lines: empty lines and a header left out. A header is a first
    line that starts with ``#`` and is no merge (``#version: 0.2``); ``# #``, a learner's first merge of two
    ``#``, is a merge.

    >>> _lines("#version: 0.2\\ne s\\n"), _lines("# #\\n## #\\n")
    ([(2, 'e s')], [(1, '# #'), (2, '## #')])
    """
    lines = text.split("\n")
    return [(number, line.removesuffix("\r")) for number, line in enumerate(lines, start=1)
            if line.strip("\r") and not (number == 1 and _is_header(line.removesuffix("\r")))]


def _is_header(line: str) -> bool:
    """A first line that starts with ``#`` and is not two symbols a first merge joins (one character each,
    a marker allowed: ``# #``, ``#\\t#``, ``# #</w>``)."""
    parts = line.split("\t") if "\t" in line else line.split(" ")
    return line.startswith("#") and not (len(parts) == 2 and all(parts) and all(_known(part, set()) for part in parts))


# -- lines ---------------------------------------------------------------------------------------
def _known(token: str, made: set[str]) -> bool:
    """A token a line may use: one character, made by an earlier line, or one of these with a marker (``t</w>``)."""
    bare = MARKER_END.sub("", token) if len(token) > 2 else token
    return len(bare) <= 1 or bare in made or token in made


def _split_text_line(line: str, made: set[str], where: str) -> tuple[str, str]:
    parts = line.split(" ")
    if len(parts) == 2 and all(parts):
        return parts[0], parts[1]
    cuts = [(line[:i], line[i + 1:]) for i, char in enumerate(line) if char == " " and 0 < i < len(line) - 1]
    fitting = cuts if len(cuts) == 1 else [(left, right) for left, right in cuts if _known(left, made) and _known(right, made)]
    if len(fitting) == 1:
        return fitting[0]
    if not fitting:
        raise FormatError(f"{where}: expected two tokens separated by one space, got {quote(line[:60])}")
    shown = " or ".join(f"{quote(left)} + {quote(right)}" for left, right in fitting[:3])
    raise FormatError(f"{where}: cannot tell which space separates the two tokens of {quote(line[:60])} ({shown})")


def _read_text(text: str, value: object, source: str) -> tuple[tuple[Spelled, ...], dict]:
    made: set[str] = set()
    pairs = []
    for number, line in _lines(text):
        left, right = _split_text_line(line, made, f"{source} line {number}")
        made.add(left + right)
        pairs.append((left, right))
    return _spelled(pairs), {}


def _split_lines(text: str, separator: str, source: str, *, what: str = "line") -> list[tuple[str, str]]:
    pairs = []
    for number, line in _lines(text) if what == "line" else enumerate(text.split("\n"), start=1):
        parts = line.split(separator)
        if len(parts) != 2 or not all(parts):
            how = "a tab" if separator == "\t" else "one space"
            raise FormatError(f"{source} {what} {number}: expected two tokens separated by {how}, got {quote(line[:60])}")
        pairs.append((parts[0], parts[1]))
    return pairs


def _tab_separated(text: str, value: object) -> bool:
    lines = _lines(text)
    return bool(lines) and all("\t" in line for _, line in lines)


def _gpt2_lines(text: str, value: object) -> bool:
    lines = _lines(text)
    return bool(lines) and all(len(line.split(" ")) == 2 for _, line in lines) and _looks_gpt2(
        [token for _, line in lines for token in line.split(" ")])


# -- Python literals -----------------------------------------------------------------------------
def _literals(text: str) -> list[tuple[int, str]] | None:
    """``(offset, literal)`` of every string literal, when nothing but brackets, commas and spaces lies between."""
    found, position = [], 0
    for match in _LITERAL.finditer(text):
        if not _BETWEEN.fullmatch(text, position, match.start()):
            return None
        found.append((match.start(), match.group()))
        position = match.end()
    return found if found and _BETWEEN.fullmatch(text, position) else None


def _quoted(text: str, value: object) -> bool:
    return value is None and text.lstrip()[:2].lstrip("bB")[:1] in ("'", '"', "(", "[") and _literals(text) is not None


def _read_quoted(text: str, value: object, source: str) -> tuple[tuple[Spelled, ...], dict]:
    literals = _literals(text) or []
    if len(literals) % 2:
        offset, literal = literals[-1]
        raise FormatError(f"{source} line {text.count(chr(10), 0, offset) + 1}: {literal[:40]} has no partner: "
                          "each merge is two quoted tokens")
    values = []
    for offset, literal in literals:
        try:
            values.append(ast.literal_eval(literal))  # a single literal: never code
        except (ValueError, SyntaxError) as error:
            raise FormatError(f"{source} line {text.count(chr(10), 0, offset) + 1}: cannot read {literal[:40]} "
                              f"({error.msg if isinstance(error, SyntaxError) else error})") from None
    if all(isinstance(v, bytes) for v in values):
        return tuple(zip(values[::2], values[1::2])), {}
    if all(isinstance(v, str) for v in values):
        return _spelled(list(zip(values[::2], values[1::2]))), {}
    raise FormatError(f"{source}: mixes bytes (b'...') and text ('...'); write every token the same way")


# -- JSON ----------------------------------------------------------------------------------------
def merges_value(value: object) -> list | None:
    """The list of merges a JSON value holds (itself, or under ``"merges"``), else ``None``."""
    merges = value.get("merges") if isinstance(value, dict) else value
    return merges if isinstance(merges, list) else None


def _json_merges(text: str, value: object) -> bool:
    return merges_value(value) is not None


def _byte_list(part: object) -> bytes | None:
    if isinstance(part, list) and part and all(is_whole_number(b) and b <= 255 for b in part):
        return bytes(part)
    return None


_JSON_KINDS: tuple[tuple[str, Callable[[object], bool]], ...] = (
    ("strings", lambda item: isinstance(item, list) and len(item) == 2 and all(isinstance(p, str) for p in item)),
    ("byte lists", lambda item: isinstance(item, list) and len(item) == 2 and None not in map(_byte_list, item)),
    ("ids", lambda item: isinstance(item, list) and len(item) == 2 and all(is_whole_number(p) for p in item)),
    ("lines", lambda item: isinstance(item, str)),
    ("records", lambda item: isinstance(item, dict)),
)
"""What a JSON merge can be: ``[" t", "he"]``, ``[[32, 116], [104, 101]]``, ``[256, 98]``, ``"Ġt he"`` or a
``train --json`` record; every merge of a file is the kind its first one is."""


def _read_json(text: str, value: object, source: str) -> tuple[tuple[Spelled, ...], dict]:
    items = merges_value(value)
    if not items:
        return (), {}
    hints = _hints(value.get("settings"), source) if isinstance(value, dict) else {}
    kind = next((name for name, fits in _JSON_KINDS if fits(items[0])), None)
    for number, item in enumerate(items, start=1):
        if kind is None or not dict(_JSON_KINDS)[kind](item):
            expected = f"like the first, {kind}" if kind else "a pair"
            raise FormatError(f"{source}: merge {number} is {str(item)[:60]}, not {expected}")
    if kind == "records":
        return _train_json_pairs(items, hints.get("end_of_word"), source), hints
    if kind == "byte lists":
        return tuple((_byte_list(left), _byte_list(right)) for left, right in items), hints
    if kind == "ids":
        return _minbpe_ids(items, source), hints
    if kind == "lines":
        return _spelled(_split_lines("\n".join(items), " ", source, what="merge")), hints
    return _spelled([tuple(item) for item in items]), hints


def _minbpe_ids(pairs: list[tuple[int, int]], source: str) -> tuple[Spelled, ...]:
    """Ids in minbpe's numbering: 0-255 are bytes, 256 + k is what merge k makes."""
    vocab = [bytes([byte]) for byte in range(256)]
    for number, (left, right) in enumerate(pairs, start=1):
        for part in (left, right):
            if part >= len(vocab):
                raise FormatError(f"{source}: merge {number} uses id {part}, which no byte nor earlier merge makes "
                                  f"(ids 0-255 are bytes, 256 + k is merge k)")
        vocab.append(vocab[left] + vocab[right])
    return tuple((vocab[left], vocab[right]) for left, right in pairs)


def _train_json_pairs(records: list, marker: str | None, source: str) -> tuple[Spelled, ...]:
    """``train --json`` records: bytes from the hex; the marker, spelled in ``left``/``right`` but not in the hex, put back."""
    pairs = []
    for number, record in enumerate(records, start=1):
        try:
            left, right = bytes.fromhex(record["left_hex"]), bytes.fromhex(record["right_hex"])
        except (KeyError, TypeError, ValueError, AttributeError):
            raise FormatError(f"{source}: merge {number} is {str(record)[:60]}, not a record with left_hex and "
                              "right_hex as train --json writes") from None
        if marker:
            left += marker.encode() if str(record.get("left", "")).endswith(marker) else b""
            right += marker.encode() if str(record.get("right", "")).endswith(marker) else b""
        pairs.append((left, right))
    return tuple(pairs)


def _hints(settings: object, source: str) -> dict:
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise FormatError(f"{source}: its settings are {type(settings).__name__}, not an object as train --json writes")
    hints = {name: settings[name] for name in HINTED if name in settings}
    if isinstance(hints.get("special_tokens"), list):
        hints["special_tokens"] = tuple(hints["special_tokens"])
    try:
        TrainSettings(**hints)
    except (BpeError, TypeError) as error:
        raise FormatError(f"{source}: its settings cannot be train --json's: {error}") from None
    return hints


HANDWRITTEN: tuple[Shape, ...] = (
    Shape("json", "a JSON list of pairs", '[[" t", "he"], [" th", "e"]] (or byte values: [[[32, 116], [104, 101]]])',
          _json_merges, _read_json),
    Shape("quoted", "quoted Python strings, two a line", "b' t' b'he' (or (' t', 'he'))", _quoted, _read_quoted),
    Shape("tab", "tab-separated lines, spaces kept", "' t' and 'he' with a tab between them", _tab_separated,
          lambda text, value, source: (_spelled(_split_lines(text, "\t", source)), {})),
    Shape("gpt2", "merges lines in GPT-2's byte-to-unicode characters", "Ġt he", _gpt2_lines,
          lambda text, value, source: (_spelled(_split_lines(text, " ", source)), {"unit": "byte"})),
    Shape("text", "merges lines of plain text, two tokens separated by one space", "e s", lambda text, value: True,
          _read_text),
)
"""The shapes learners write, tried in order; ``text`` reads anything left."""


def read_handwritten(text: str, *, source: str, value: object = None, shape: str | None = None,
                     ) -> tuple[str, tuple[Spelled, ...], dict]:
    """``(shape name, pairs, hints)`` of the first shape that fits ``text`` (``value``: its parsed JSON;
    ``shape``: that one, whether it fits or not)."""
    chosen = next(entry for entry in HANDWRITTEN if entry.name == shape or shape is None and entry.detect(text, value))
    try:
        pairs, hints = chosen.read(text, value, source)
    except FormatError as error:
        raise chosen.refusal(str(error)) from None
    return chosen.name, pairs, hints
