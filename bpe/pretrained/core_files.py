"""The pretrained cache's folder and its files of table cores: one file, and one core in memory, per contents.

Scope: where the cache lives (:func:`cache_dir`), files whose JSON header line carries the sha256 of
the whole file (:func:`read_header`, :func:`atomic_write`), and the cores
(:class:`~bpe.pretrained.table_core.TableCore`) kept in them, by the sha256 of their contents
(:func:`content_key`): read once per process (:func:`load_core`) and written once per folder
(:func:`write_core`). Out of scope: the tokenizers' own files, which name their core
(:mod:`bpe.pretrained.merge_cache`).

A core whose tokens and merges begin with another core's whole contents (Llama 3's with GPT-4's)
is written as that core and what follows, whichever of the two was built first: the shorter is
always the one written whole, so a longer one written first is written again on the shorter once
the shorter comes (:func:`write_core`). Found by the contents' sha256, never typed in.

File layout: one JSON header line (unit, the counts below, byte fallback, the parent core's sha256
or null, the core's and the file's sha256), then little-endian int32 arrays: the tokens' ids in
the table's order (base, merged: merge ``k`` makes the ``k``-th merged one, whole-only), the merges'
left ids, right ids, the places of the tokens that are not UTF-8 text, and by id every token's
start and end in the bytes that follow: the tokens' bytes one after another. With a parent, all
but the starts and ends are what follows the parent's.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import threading
import weakref
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_cache_dir

from ..encoding.packed_tokens import PackedTokens
from ..errors import BpeError
from .table_core import TableCore

CACHE_VERSION = 5
"""In every file name too: an older BPE Lab sharing the folder reads and writes its own files, never these."""
CORE_FORMAT = "bpe-lab/table-core"
_ARRAYS = ("ids", "lefts", "rights", "not_text", "starts", "ends")
"""A core file's int32 arrays, in the file's order (``starts`` and ``ends``: by id, every token's)."""


@dataclass(frozen=True)
class Contents:
    """What a core holds, from a built tokenizer's table (``merge_cache.Parts``), before its core is made."""

    unit: str
    base_count: int
    ids: array
    lengths: array
    blob: bytes
    lefts: array
    rights: array
    not_text: array | tuple[int, ...]
    fallback: Mapping[int, int]


def cache_dir() -> Path:
    """Where cache files live: ``$BPE_LAB_CACHE_DIR``, else the per-user cache folder."""
    chosen = os.environ.get("BPE_LAB_CACHE_DIR")
    if chosen:
        return Path(chosen)
    return Path(user_cache_dir("bpe-lab", appauthor=False))

def core_path(key: str) -> Path:
    """The file of the core whose contents' sha256 is ``key``."""
    return cache_dir() / f"core-{key[:24]}-v{CACHE_VERSION}.table"

def file_hash(header: dict, payload: bytes) -> str:
    """The sha256 of everything in a cache file but itself: the header's fields, then the tables."""
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + payload).hexdigest()

def little(numbers: array) -> bytes:
    numbers = array("i", numbers)
    if sys.byteorder != "little":
        numbers.byteswap()
    return numbers.tobytes()

def content_key(table: Contents | TableCore, *, merges: int | None = None) -> str:
    """The sha256 of a core's contents, or of its first ``merges`` merges with the tokens up to theirs
    (what a core that ``table`` extends holds)."""
    whole = merges is None
    merges = len(table.lefts) if whole else merges
    count = len(table.ids) if whole else table.base_count + merges
    lengths = table.lengths[:count]
    digest = hashlib.sha256(json.dumps(
        [CORE_FORMAT, table.unit, table.base_count, count, merges, sorted(table.fallback.items())]).encode("utf-8"))
    for numbers in (table.ids[:count], lengths, table.lefts[:merges], table.rights[:merges]):
        digest.update(little(numbers))
    digest.update(memoryview(table.blob)[:sum(lengths)])
    return digest.hexdigest()


# -- cores: one per contents, in memory and on disk ------------------------------------------------
_CORES: "weakref.WeakValueDictionary[str, TableCore]" = weakref.WeakValueDictionary()
"""The cores in this process, by their contents' sha256: a tokenizer's table keeps its own alive."""
_CORES_LOCK = threading.RLock()  # the Why page loads tokenizers in threads: one reads a core, the others wait


def share_core(key: str, core: TableCore) -> TableCore:
    with _CORES_LOCK:
        return _CORES.setdefault(key, core)


def load_core(key: str) -> TableCore | None:
    """The core of sha256 ``key``: the one this process holds, else read from its file (None: no good file)."""
    with _CORES_LOCK:
        core = _CORES.get(key)
        if core is None:
            core = _read_core(key)
            if core is not None:
                _CORES[key] = core
        return core


def read_header(path: Path, kind: str, **expected: object) -> dict | None:
    """The first line of a cache file of ``kind``, if it holds ``expected`` and the file's sha256 is its own."""
    try:
        with open(path, "rb") as file:
            header = json.loads(file.readline())
            payload = file.read()
    except (OSError, ValueError):
        return None  # no file yet, or one this version cannot read: build from the source instead
    if not isinstance(header, dict):
        return None
    claimed = header.pop("file_sha256", None)
    if (header.get("format"), header.get("version")) != (kind, CACHE_VERSION) or any(
        header.get(field) != value for field, value in expected.items()
    ) or file_hash(header, payload) != claimed:
        return None
    header["payload"] = payload
    return header


def _read_core(key: str) -> TableCore | None:
    header = read_header(core_path(key), CORE_FORMAT, core_sha256=key)
    if header is None:
        return None
    try:
        parent = None if header["parent"] is None else load_core(header["parent"])
        if header["parent"] is not None and parent is None:
            return None
        payload, sizes = header["payload"], header["sizes"]
        numbers = array("i")
        numbers.frombytes(payload[:4 * sum(sizes)])
        if sys.byteorder != "little":
            numbers.byteswap()
        arrays, start = {}, 0
        for field, size in zip(_ARRAYS, sizes):
            arrays[field], start = numbers[start:start + size], start + size
        blob, ids, lefts, rights, not_text = payload[4 * start:], *(arrays[field] for field in _ARRAYS[:4])
        if parent is not None:  # the file holds what follows the parent's
            blob, ids, lefts, rights = parent.blob + blob, parent.ids + ids, parent.lefts + lefts, parent.rights + rights
            not_text = [*parent.not_text, *(place + len(parent.ids) for place in not_text)]
        if max(arrays["ends"], default=0) > len(blob):
            return None
        tokens = PackedTokens(blob=blob, starts=arrays["starts"], ends=arrays["ends"], order=ids)
        return TableCore(unit=header["unit"], base_count=header["base_count"], ids=ids, tokens=tokens, lefts=lefts,
                         rights=rights, fallback=dict(header["fallback"]), not_text=not_text, parent=parent, key=key)
    except (BpeError, KeyError, TypeError, ValueError):
        return None


def core_of(parts: Contents, key: str, parent: TableCore | None = None) -> TableCore:
    """``parts``'s core, on ``parent`` (a core its contents begin with) when given."""
    return TableCore.spelled(
        unit=parts.unit, base_count=parts.base_count, ids=parts.ids, lengths=parts.lengths, blob=parts.blob,
        lefts=parts.lefts, rights=parts.rights, not_text=parts.not_text, fallback=parts.fallback, parent=parent, key=key,
    )


def write_core(contents: Contents) -> str:
    """Save a core of ``contents`` unless a good file of them is there, on the longest core it begins
    with, and write again on it the longer ones that begin with it; its key. Nothing is lost where
    the folder cannot be written (the next build tries again)."""
    key = content_key(contents)
    if read_header(core_path(key), CORE_FORMAT, core_sha256=key) is None:  # no good file of these contents yet
        _write_core_file(core_of(contents, key, _longest_core_before(contents)))
        if contents.lefts and len(contents.ids) == contents.base_count + len(contents.lefts):  # no whole-only tokens
            _rewrite_longer_on(key, contents)
    return key


def _core_headers() -> Iterator[tuple[str, dict]]:
    """Every readable core file's key and header (its payload not yet checked)."""
    for path in sorted(cache_dir().glob(f"core-*-v{CACHE_VERSION}.table")):
        try:
            with open(path, "rb") as file:
                header = json.loads(file.readline())
            yield header["core_sha256"], header
        except (OSError, ValueError, KeyError, TypeError):
            continue


def _same_kind(header: dict, parts: Contents) -> bool:
    return (header.get("unit"), header.get("base_count"), dict(header.get("fallback") or {})) == (
        parts.unit, parts.base_count, parts.fallback)


def _longest_core_before(parts: Contents) -> TableCore | None:
    """The longest core on disk that ``parts`` begins with (all its tokens and merges, the same ids), if any."""
    best = None
    for key, header in _core_headers():
        merges = header.get("merges", -1)
        if (_same_kind(header, parts) and header.get("tokens") == parts.base_count + merges and 0 < merges < len(parts.lefts)
                and (best is None or merges > len(best.lefts)) and content_key(parts, merges=merges) == key):
            best = load_core(key) or best
    return best


def _rewrite_longer_on(key: str, parts: Contents) -> None:
    """Write again, as this core and what follows, each core on disk that begins with all of it but was
    written whole or on a shorter one (it was built first): the shorter is always the one written whole."""
    merges, headers = len(parts.lefts), dict(_core_headers())
    for other_key, header in headers.items():
        if not (_same_kind(header, parts) and header.get("merges", 0) > merges):
            continue
        if headers.get(header.get("parent"), {}).get("merges", 0) >= merges:
            continue  # written on one at least as long: leave it
        longer = load_core(other_key)
        if longer is not None and content_key(longer, merges=merges) == key:
            base = load_core(key)
            if base is not None:
                _write_core_file(longer, on=base)


def _write_core_file(core: TableCore, *, on: TableCore | None = None) -> None:
    """``core``'s file: what follows ``on`` (default: its parent), or all of it."""
    parent = on if on is not None else core.parent
    tokens, merges, data = (len(parent.ids), len(parent.lefts), len(parent.blob)) if parent is not None else (0, 0, 0)
    blob, starts, ends = core.tokens.packed
    arrays = {
        "ids": core.ids[tokens:], "lefts": core.lefts[merges:], "rights": core.rights[merges:],
        "not_text": array("i", (p - tokens for p in core.not_text if p >= tokens)), "starts": starts, "ends": ends,
    }
    header = {
        "format": CORE_FORMAT, "version": CACHE_VERSION, "core_sha256": core.key, "unit": core.unit,
        "base_count": core.base_count, "tokens": len(core.ids), "merges": len(core.lefts),
        "fallback": sorted(core.fallback.items()), "parent": parent.key if parent is not None else None,
        "sizes": [len(arrays[field]) for field in _ARRAYS],
    }
    atomic_write(core_path(core.key), header, b"".join(little(arrays[field]) for field in _ARRAYS) + blob[data:])


def atomic_write(path: Path, header: dict, payload: bytes) -> None:
    """Save atomically (a reader never sees half a file); a folder we cannot write is no error."""
    header["file_sha256"] = file_hash(header, payload)
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=path.name, delete=False) as file:
            temporary = file.name
            file.write(json.dumps(header).encode("utf-8") + b"\n" + payload)
        os.replace(temporary, path)
    except OSError:  # read-only home, full disk: the next load builds from the source again
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
