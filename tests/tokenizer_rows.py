"""The rows of the tokenizer matrix: every pretrained entry, an imported tokenizer of each file format, and
small runs of ours, each with its owner (the library whose results it must equal), from the registries.

* ``pretrained:<name>`` for each entry of ``PRETRAINED``; its owner is ``tests/owners.py``'s;
* ``imported:<format>`` for each of ``FORMATS``: the first of our runs the format holds
  (``tests/format_samples.py``), exported and read back by BPE Lab; its owner is the format's own library
  reading those files (``tests/file_owners.py``), where one is installed;
* ``ours:<kind>``: a byte-level run, a char-level one with an end-of-word marker, a SentencePiece-style one
  (no owner: the exports' columns check them in the owners' libraries).

A new registry entry is a new row, with no edit here. The benchmark (``benchmarks/tokenizer_matrix.py``)
reads the same rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import FORMATS, export_tokenizer, import_tokenizer
from bpe.pretrained.registry import PRETRAINED

from .file_owners import FILE_OWNERS
from .format_samples import run_held_by, sample_runs
from .owners import owner_of
from .shared_tokenizers import shared_pretrained

OURS = ("bytes", "chars with </w>", "sentencepiece")
"""Our runs, in :func:`~tests.format_samples.sample_runs`' order."""
ROWS: tuple[str, ...] = (
    *(f"pretrained:{name}" for name in PRETRAINED), *(f"imported:{name}" for name in FORMATS), *(f"ours:{kind}" for kind in OURS),
)


@dataclass(frozen=True)
class RowOwner:
    """What the row's owner makes of a text, where it says (``None``: it does not)."""

    library: str
    ids: Callable[[str], list[int]] | None = None
    decode: Callable[[list[int]], str] | None = None
    offsets: Callable[[list[int]], tuple[str, list[int]]] | None = None


def _kind(row: str) -> tuple[str, str]:
    kind, _, name = row.partition(":")
    return kind, name


@functools.cache
def _imported(format: str) -> tuple[Tokenizer, Tokenizer, dict[str, bytes]]:
    """``(the run, its import, the files)`` of the ``imported:<format>`` row."""
    run = Tokenizer.from_trace(run_held_by(FORMATS[format]), name=f"a run for {format}")
    files = {name: text.encode("utf-8") if isinstance(text, str) else text for name, text in export_tokenizer(run, format=format).items()}
    return run, read_back(format, files, run, name=f"imported {format}"), files


def read_back(format: str, files: dict[str, bytes], tokenizer: Tokenizer, **options) -> Tokenizer:
    """``files`` of ``format`` read by BPE Lab, told what they lack (the split, the special tokens) from ``tokenizer``."""
    entry = FORMATS[format]
    told = {} if entry.stores_pattern else {"pretokenizer": tokenizer.pretokenizer.name}
    told |= {} if entry.stores_special_tokens else {"special_tokens": tokenizer.special_tokens}
    return import_tokenizer(format=format, files=files, **told, **options)


@functools.cache
def row_tokenizer(row: str) -> Tokenizer:
    kind, name = _kind(row)
    if kind == "pretrained":
        return shared_pretrained(name)
    if kind == "imported":
        return _imported(name)[1]
    return Tokenizer.from_trace(sample_runs()[OURS.index(name)], name=f"ours: {name}")


@functools.cache
def row_owner(row: str) -> RowOwner | None:
    kind, name = _kind(row)
    if kind == "pretrained":
        owner = owner_of(name)
        encoding = owner.encoding
        offsets = getattr(encoding, "decode_with_offsets", None) if owner.library.endswith("tiktoken") or owner.library == "tiktoken" else None
        return RowOwner(owner.library, owner.default, owner.decode, offsets)
    if kind == "imported" and name in FILE_OWNERS and name not in ("subword-nmt", "sentencepiece"):  # these give no ids
        run, _, files = _imported(name)
        return RowOwner(f"{name}'s library", FILE_OWNERS[name](files, run))
    return None
