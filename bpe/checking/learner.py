"""A learner's merges, read from whatever file their trainer wrote.

Scope: turning a merges file into one list of ``(left, right)`` spellings, each a byte string with
any end-of-word marker spelled out (``b"es"``, ``b"t</w>"``), which is how the comparison and the
reference's tokens (:func:`bpe.vocab.token_sort_bytes`) spell them. Out of scope: comparing them.

The shapes, one entry each in :data:`SHAPES`, tried in order (the first whose ``detect`` says yes):

* ``minbpe``: a minbpe ``.model`` (``minbpe v1`` on line 1), read by :mod:`bpe.formats.minbpe`.
* ``hf``: a Hugging Face ``tokenizer.json`` (a JSON object with a ``model``), by :mod:`bpe.formats.huggingface`.
* ``bpe-lab``: a BPE Lab tokenizer file, or the output of ``python -m bpe train --json``.
* ``gpt2``: ``left right`` lines in GPT-2's byte-to-unicode characters (``Ġ`` for a space), the
  layout of GPT-2's ``vocab.bpe``, Hugging Face's ``merges.txt`` and CS336's reference files.
* ``text``: ``left right`` lines of plain text, for character-level runs (``e s``, ``es t</w>``).

Both line shapes may start with a ``#version`` header. Telling them apart: ``gpt2`` when every
token is in GPT-2's alphabet and one uses a stand-in above U+00FF (``Ġ``, ``Ċ``) or UTF-8 read as
Latin-1 (``Ã©`` for ``é``); otherwise ``text`` (for ASCII the two readings are the same bytes).

    >>> read_learner_merges("#version: 0.2\\nĠ t\\nĠt he\\n", name="merges.txt").pairs
    ((b' ', b't'), (b' t', b'he'))
    >>> read_learner_merges("e s\\nes t</w>\\n", name="merges.txt").pairs
    ((b'e', b's'), (b'es', b't</w>'))
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

from ..byte_level import UNICODE_TO_BYTE, gpt2_text_to_bytes
from ..errors import FormatError
from ..formats.common import as_text
from ..formats.gpt2 import parse_vocab_bpe
from ..formats.huggingface import HF, from_hf
from ..formats.minbpe import MINBPE, MINBPE_HEADER, from_minbpe
from ..formats.ours import OURS, from_ours
from ..limits import MAX_MERGES
from ..tokenizer import Tokenizer
from ..vocab import token_sort_bytes

Spelled = tuple[bytes, bytes]


@dataclass(frozen=True)
class LearnerMerges:
    pairs: tuple[Spelled, ...]
    shape: str
    """The :data:`SHAPES` entry that read the file."""
    hints: dict = field(default_factory=dict, compare=False)
    """What the file says about how it was trained: ``unit``, ``pretokenizer``, ``end_of_word``."""


@dataclass(frozen=True)
class Shape:
    name: str
    title: str
    detect: Callable[[str], bool]
    read: Callable[[str, str], LearnerMerges]


def _json_object(text: str) -> dict | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _from_tokenizer(tokenizer: Tokenizer, shape: str) -> LearnerMerges:
    tokens = tokenizer.tokens
    marker = tokenizer.end_of_word
    pairs = tuple(
        (token_sort_bytes(tokens[left], marker), token_sort_bytes(tokens[right], marker))
        for left, right, _ in tokenizer.merges
    )
    hints = {"unit": tokenizer.unit, "pretokenizer": tokenizer.pretokenizer.name, "end_of_word": marker}
    return LearnerMerges(pairs, shape, hints)


def _read_bpe_lab(text: str, source: str) -> LearnerMerges:
    data = _json_object(text) or {}
    if "format" in data:
        return _from_tokenizer(from_ours(text, source=source), "bpe-lab")
    try:  # the output of `python -m bpe train --json`
        pairs = tuple((bytes.fromhex(m["left_hex"]), bytes.fromhex(m["right_hex"])) for m in data["merges"])
        settings = data.get("settings") or {}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise FormatError(
            f"{source}: a JSON object that is neither a BPE Lab tokenizer nor `train --json` output "
            "(whose merges carry left_hex and right_hex)"
        ) from None
    marker = settings.get("end_of_word")
    if marker:  # train --json spells the marker in "left"/"right" but not in the hex
        pairs = tuple(
            (l + (marker.encode() if m["left"].endswith(marker) else b""), r + (marker.encode() if m["right"].endswith(marker) else b""))
            for (l, r), m in zip(pairs, data["merges"])
        )
    hints = {name: settings[name] for name in ("unit", "pretokenizer", "end_of_word") if name in settings}
    return LearnerMerges(pairs, "bpe-lab", hints)


def _gpt2_spelled(token: str) -> bool:
    return all(char in UNICODE_TO_BYTE for char in token)


def _line_pairs(text: str, source: str) -> list[tuple[str, str]]:
    header = text.split("\n", 1)[0]
    if header.startswith("#") and not header.startswith("#version"):
        text = text.split("\n", 1)[1] if "\n" in text else ""  # another comment line: drop it
    elif header.startswith("#version"):  # any version: the lines after it are what counts
        text = "#version: 0.2\n" + (text.split("\n", 1)[1] if "\n" in text else "")
    return [(left, right) for _, left, right in parse_vocab_bpe(text, source=source)]


def _looks_gpt2(text: str) -> bool:
    try:
        tokens = [token for pair in _line_pairs(text, "merges") for token in pair]
    except FormatError:
        return False  # not lines of pairs: the plain-text reader says what is wrong, naming the file
    if not all(map(_gpt2_spelled, tokens)):
        return False
    joined = "".join(tokens)
    # Ġ, Ċ... (stand-ins above U+00FF) only appear in GPT-2 spelling; so does UTF-8 read as Latin-1
    # ("é" spelled "Ã©": a lead byte C2-F4 right before a continuation byte 80-BF).
    return any(ord(char) > 0xFF for char in joined) or any(
        0xC2 <= ord(a) <= 0xF4 and 0x80 <= ord(b) <= 0xBF for a, b in zip(joined, joined[1:])
    )


def _read_lines(text: str, source: str, *, gpt2: bool) -> LearnerMerges:
    pairs = _line_pairs(text, source)
    spell = gpt2_text_to_bytes if gpt2 else (lambda token: token.encode("utf-8"))
    hints = {"unit": "byte"} if gpt2 else {}
    return LearnerMerges(tuple((spell(left), spell(right)) for left, right in pairs), "gpt2" if gpt2 else "text", hints)


SHAPES: MappingProxyType[str, Shape] = MappingProxyType({
    shape.name: shape
    for shape in (
        Shape("minbpe", MINBPE.title, lambda text: text.startswith(MINBPE_HEADER),
              lambda text, source: _from_tokenizer(from_minbpe(text, source=source), "minbpe")),
        Shape("hf", HF.title, lambda text: "model" in (_json_object(text) or {}),
              lambda text, source: _from_tokenizer(from_hf(text, source=source), "hf")),
        Shape("bpe-lab", OURS.title, lambda text: _json_object(text) is not None, _read_bpe_lab),
        Shape("gpt2", "merges lines in GPT-2's byte-to-unicode characters", _looks_gpt2,
              lambda text, source: _read_lines(text, source, gpt2=True)),
        Shape("text", "merges lines of plain text", lambda text: True,
              lambda text, source: _read_lines(text, source, gpt2=False)),
    )
})


def read_learner_merges(contents: str | bytes, *, name: str = "merges.txt") -> LearnerMerges:
    """Read a learner's merges file in any of :data:`SHAPES`; a :class:`FormatError` says what is wrong."""
    text = as_text(contents, source=name)
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark from a Windows editor is not part of the first token
    for shape in SHAPES.values():
        if shape.detect(text):
            merges = shape.read(text, name)
            break
    if not merges.pairs:
        raise FormatError(f"{name} holds no merges: expected lines like 'e s' or a tokenizer file with merges")
    if len(merges.pairs) > MAX_MERGES:
        raise FormatError(f"{name} holds {len(merges.pairs):,} merges, over the limit of {MAX_MERGES:,}; check the first {MAX_MERGES:,}")
    return merges


def spelled_text(data: bytes) -> str:
    """A spelled token as text for people: invalid UTF-8 as backslash escapes.

    >>> spelled_text(b"es"), spelled_text(b"\\xe2\\x82")
    ('es', '\\\\xe2\\\\x82')
    """
    return data.decode("utf-8", errors="backslashreplace")
