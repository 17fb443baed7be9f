"""What Check my encoder reads: texts with the ids a learner's encoder gave them, probe texts, and
a tokenizer built from a learner's own merges file.

Scope: reading cases (a JSON list of ``{"text", "ids"}`` objects, ``[text, ids]`` pairs or a
``{text: ids}`` object; JSON Lines of the same; or texts and id lists pasted line by line), the
probe texts that make each classic mistake show (:func:`probe_texts`, derived from the mistakes), and the tokenizer a file
holds (:func:`tokenizer_from_file`: any one-file format, or a learner's merges numbered as minbpe
numbers them, :func:`tokenizer_from_merges`: 256 bytes, then merge k makes id 256 + k).
Out of scope: the check itself (:mod:`bpe.checking.encode_check`). Every refusal is one line that
says what is wrong and shows the shape to write.

    >>> [(case.text, case.ids) for case in read_cases('[{"text": "hi", "ids": [5, 6]}]', name="ids.json")]
    [('hi', (5, 6))]
    >>> [(case.text, case.ids) for case in pasted_cases("hi\\nyo", "[5, 6]\\n7 8")]
    [('hi', (5, 6)), ('yo', (7, 8))]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError, FormatError
from ..formats import all_formats, import_tokenizer
from ..limits import MAX_ENCODE_CHECK_CHARS, MAX_MERGES
from ..tokens.ids import is_whole_number, parse_ids
from ..tokens.vocab import base_tokens
from .learner import read_learner_merges
from .probes import POOL, probes_for

MAX_CASES = 200
EXAMPLE = '[{"text": " embraced", "ids": [1, 2, 3]}, {"text": "Hello, world!", "ids": [4, 5]}]'
PROBE_TEXTS = POOL
"""The texts the probes are chosen from (:data:`bpe.checking.probes.POOL`), under the name earlier releases gave them."""


@dataclass(frozen=True)
class EncodeCase:
    """One text and the ids the learner's encoder gave it."""

    text: str
    ids: tuple[int, ...]


def probe_texts(tokenizer: Tokenizer, mode: str = "allowed") -> list[str]:
    """The texts that make every registered mistake show on ``tokenizer`` and tell every two apart
    (:func:`bpe.checking.probes.probes_for`)."""
    return list(probes_for(tokenizer, mode).texts)


def _refused(problem: str) -> FormatError:
    return FormatError(f"{problem}. Write a JSON list of texts with their ids, e.g. {EXAMPLE}")


def _case(item: object, where: str) -> EncodeCase:
    if isinstance(item, dict) and set(item) >= {"text", "ids"}:
        text, ids = item["text"], item["ids"]
    elif isinstance(item, list) and len(item) == 2:
        text, ids = item
    else:
        raise _refused(f"{where} is {str(item)[:60]}, not a text with its ids")
    if not isinstance(text, str):
        raise _refused(f"{where}'s text is {type(text).__name__}, not a string")
    if not isinstance(ids, list) or not all(is_whole_number(token) for token in ids):
        raise _refused(f"{where}'s ids are {str(ids)[:60]}, not a list of whole numbers")
    return EncodeCase(text, tuple(ids))


def checked_cases(cases: list[EncodeCase], name: str) -> list[EncodeCase]:
    """``cases``, if within the limits of one check (else a :class:`BpeError` naming the limit)."""
    if not cases:
        raise _refused(f"{name} holds no texts")
    if len(cases) > MAX_CASES:
        raise BpeError(f"{name} holds {len(cases):,} texts, over the limit of {MAX_CASES}; check the first {MAX_CASES}")
    chars = sum(len(case.text) for case in cases)
    if chars > MAX_ENCODE_CHECK_CHARS:
        raise BpeError(f"{name}'s texts hold {chars:,} characters, over the limit of {MAX_ENCODE_CHECK_CHARS:,}: a mistaken "
                       "encoder is re-run on each text many times, so check shorter texts (a few sentences is enough)")
    return cases


def read_cases(contents: str | bytes, *, name: str = "ids.json") -> list[EncodeCase]:
    """Cases from a JSON or JSON Lines file (see the module docstring); a :class:`FormatError` says what is wrong."""
    text = contents.decode("utf-8", errors="replace") if isinstance(contents, bytes) else contents
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            value = [json.loads(line) for line in lines]
        except (ValueError, RecursionError):
            raise _refused(f"{name} is neither JSON nor JSON Lines") from None
    if isinstance(value, dict) and "text" not in value:
        value = [[key, ids] for key, ids in value.items()]  # {text: ids}
    elif isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise _refused(f"{name} holds {type(value).__name__}, not a list")
    return checked_cases([_case(item, f"{name} item {number}") for number, item in enumerate(value, start=1)], name)


def _quoted(line: str) -> str:
    r"""A line written as a JSON string (``"one\n\ntwo"``) read as that string; any other line as it is."""
    if len(line) >= 2 and line.startswith('"') and line.endswith('"'):
        try:
            value = json.loads(line)
        except ValueError:
            return line
        if isinstance(value, str):
            return value
    return line


def text_lines(texts: str) -> list[str]:
    r"""Texts one a line; a line in double quotes is a JSON string, so it can hold line breaks; a JSON list
    of strings is read whole.

    >>> text_lines('hi\n"one\\n\\ntwo"\n'), text_lines('["x", "y\\nz"]')
    (['hi', 'one\n\ntwo'], ['x', 'y\nz'])
    """
    if texts.lstrip().startswith("["):
        try:
            value = json.loads(texts)
        except ValueError:
            value = None
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
    lines = texts.split("\n")
    lines = lines[:len(lines) - (lines[-1] == "")] if lines else []
    return [_quoted(line) for line in lines]


def quoted_line(text: str) -> str:
    """How a text goes on one line of the texts box: as it is, or as a JSON string when it holds a line
    break or looks like one (the inverse of :func:`text_lines`)."""
    needs = "\n" in text or "\r" in text or (text.startswith('"') and text.endswith('"') and len(text) >= 2)
    return json.dumps(text, ensure_ascii=False) if needs else text


def pasted_cases(texts: str, ids: str) -> list[EncodeCase]:
    """Texts one a line (see :func:`text_lines`), and on the same line of ``ids`` the ids the learner's
    encoder gave that text."""
    text_lines_, id_lines = text_lines(texts), [line for line in ids.strip("\n").split("\n")]
    if len(text_lines_) != len(id_lines):
        raise BpeError(f"{len(text_lines_)} text line{'s' * (len(text_lines_) != 1)} but {len(id_lines)} line"
                       f"{'s' * (len(id_lines) != 1)} of ids: give one line of ids per text, in the same order")
    return checked_cases([EncodeCase(text, tuple(parse_ids(line))) for text, line in zip(text_lines_, id_lines)],
                         "the pasted texts")


def tokenizer_from_merges(pairs: Sequence[tuple[bytes, bytes]], *, pretokenizer: str = "gpt2",
                          special_tokens: Sequence[str] = ()) -> Tokenizer:
    """A byte-level tokenizer from a learner's merges, numbered as minbpe numbers them: ids 0-255 are
    the bytes, merge k (from 0) makes id 256 + k; special tokens follow."""
    base = dict(enumerate(base_tokens(unit="byte")))
    id_of = {token.data: token_id for token_id, token in base.items()}
    merges = []
    for number, (left, right) in enumerate(pairs[:MAX_MERGES], start=1):
        for part in (left, right):
            if part not in id_of:
                raise FormatError(f"merge {number} uses {part!r}, which no byte nor earlier merge makes (a merges file "
                                  "with an end-of-word marker needs the tokenizer itself: train --save, then check with it)")
        new_id = 256 + len(merges)
        if left + right in id_of:
            continue  # the same token made again (a trainer's bug): the first merge makes it
        merges.append((id_of[left], id_of[right], new_id))
        id_of[left + right] = new_id
    specials = {token: 256 + len(merges) + index for index, token in enumerate(special_tokens)}
    return Tokenizer(unit="byte", pretokenizer=pretokenizer, base=base, merges=merges, special_tokens=specials,
                     name="your merges")


def tokenizer_from_file(data: bytes, *, name: str, pretokenizer: str, special_tokens: tuple[str, ...] = ()) -> Tokenizer:
    """A tokenizer file any one-file format recognizes (its own ids kept), else a merges file a learner
    wrote (:func:`~bpe.checking.encode_cases.tokenizer_from_merges`)."""
    for entry in all_formats():
        if entry.reads == 1 and entry.recognizes is not None and entry.recognizes(data):
            return import_tokenizer(format=entry.name, files={name: data}, pretokenizer=pretokenizer)
    return tokenizer_from_merges(read_learner_merges(data, name=name).pairs, pretokenizer=pretokenizer,
                                 special_tokens=special_tokens)
