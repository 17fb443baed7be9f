"""A per-user disk cache of pretrained tokenizers' tables, checked against their source files.

Why: a tiktoken rank file stores ranks, not merges. Recovering GPT-4o's merges from its ranks
replays tiktoken's merge loop for every token, in pure Python. And even with the merges known,
checking them and spelling every merged token one at a time (``build_table``) is a Python step
per token. Both follow from the files alone, so the first load saves the checked table
here (every token's bytes as well as the merges) and later loads rebuild it in bulk
(:func:`~bpe.pretrained.spelled_table.spelled_table`), in about the time tiktoken takes to read its rank file.

Why it is safe: only data derived from the installed package's files is written, never user text.
A cache file is used only if its header names the same source sha256 (the files' pinned hashes,
which the loader has just checked) and the file's own sha256 matches: it covers the header's other
fields (counts, special tokens) as well as the tables, so no edit is used silently, and
``spelled_table`` still checks that the tables fit together. Anything else (an old version, a
truncated or edited file, a read-only or missing folder) falls back to building from the source
and, if possible, rewriting the cache. Processes sharing the folder build each file once: the
first holds a lock beside it while it builds, the others wait and read it. ``BPE_LAB_CACHE_DIR``
picks the folder (the tests give each run one of its own, so that a change to a file reader is
always tested: a warm per-user cache would hide it); by default it is the per-user cache folder of
each system, as ``platformdirs`` names it: ``$XDG_CACHE_HOME/bpe-lab`` or ``~/.cache/bpe-lab`` on
Linux, ``~/Library/Caches/bpe-lab`` on macOS, ``%LOCALAPPDATA%\\bpe-lab\\Cache`` on Windows.

File layout: one JSON header line (name, unit, the counts below, special tokens, the unknown token
and the byte-fallback ids of a SentencePiece model, the source's sha256, the file's own sha256),
then little-endian int32 arrays: the merges' left ids and right ids, and the ids of the other
non-special tokens in the table's order (base, merged, tokens no merge makes: merge ``k`` makes
the ``k``-th merged one); then those tokens' lengths as a ``struct`` format (``1s1s2s...``, so
that one ``struct.unpack`` cuts them all out); then their bytes, one after another. The version is in the file name too:
an older BPE Lab sharing the folder reads and writes its own files, never these::

    cached_tokenizer(name="o200k_base", source_hash=..., build=lambda: from_tiktoken(...))

Out of scope: tokenizers with an end-of-word marker (no pretrained one has one), and evicting old
files (one per tokenizer and source version, a few MB each).
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import struct
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: tables are built without a lock (see _building)
    fcntl = None  # type: ignore[assignment]

from platformdirs import user_cache_dir

from ..collector import collector_paused
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from .spelled_table import spelled_table

CACHE_FORMAT = "bpe-lab/merge-cache"
CACHE_VERSION = 4


def cache_dir() -> Path:
    """Where cache files live: ``$BPE_LAB_CACHE_DIR``, else the per-user cache folder."""
    chosen = os.environ.get("BPE_LAB_CACHE_DIR")
    if chosen:
        return Path(chosen)
    return Path(user_cache_dir("bpe-lab", appauthor=False))


def cache_path(name: str, source_hash: str) -> Path:
    return cache_dir() / f"{name}-{source_hash[:16]}-v{CACHE_VERSION}.merges"


def _file_hash(header: dict, payload: bytes) -> str:
    """The sha256 of everything in a cache file but itself: the header's fields, then the tables."""
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + payload).hexdigest()


@dataclass(frozen=True)
class Parts:
    """What a cache file holds: a checked table, spelled out (see :func:`~bpe.pretrained.spelled_table.spelled_table`)."""

    unit: str
    ids: list[int]
    """Every token but the special and byte-fallback ones, in the table's order."""
    spelled: list[bytes]
    base_count: int
    lefts: list[int]
    """Merge ``k`` joins ``lefts[k]`` and ``rights[k]`` into ``ids[base_count + k]`` (the table's order)."""
    rights: list[int]
    special_tokens: dict[str, int]
    """The ones the source itself holds (GPT-2's ``<|endoftext|>`` is in its encoder.json)."""
    unknown_token: str | None
    fallback_bytes: dict[int, int]


def cached_tokenizer(
    *, name: str, source_hash: str, pretokenizer: str, special_tokens: dict[str, int],
    build: Callable[[], Tokenizer], factory: type[Tokenizer] = Tokenizer, specials_in_text: str = "refuse",
) -> Tokenizer:
    """A ``factory`` tokenizer from the cache if it holds ``source_hash``; else ``build()`` it and save it.

    ``pretokenizer`` and ``special_tokens`` come from the caller's registry, not the file, so that
    editing the registry never needs a cache bump; the file adds the special tokens the source
    itself holds (GPT-2's ``<|endoftext|>`` is in its encoder.json).
    """
    path = cache_path(name, source_hash)
    options = {"name": name, "pretokenizer": pretokenizer, "special_tokens": special_tokens, "specials_in_text": specials_in_text}
    with collector_paused():  # a table is hundreds of thousands of objects
        cached = _cached(factory, path, source_hash, options)
        if cached is not None:
            return cached
        with _building(path):  # one process builds, the others wait for its file instead of building too
            cached = _cached(factory, path, source_hash, options)  # built by another process meanwhile?
            if cached is not None:
                return cached
            parts = _parts(build())
            _write(path, parts, source_hash, name)
        return _make(factory, parts, **options)


def _cached(factory: type[Tokenizer], path: Path, source_hash: str, options: dict) -> Tokenizer | None:
    parts = _read(path, source_hash)
    if parts is None:
        return None
    try:
        return _make(factory, parts, **options)
    except BpeError:
        return None  # subtle: a well-formed file whose tables do not fit together; rebuild it from the source


@contextmanager
def _building(path: Path) -> Iterator[None]:
    """Hold ``<file>.lock`` beside the cache file while building it, so that processes sharing the
    folder (a test run's workers and its app server, an app's replicas) build each table once. No
    lock where none can be had (no ``fcntl``, as on Windows; a folder we cannot write): then two
    processes may both build, which costs time, never correctness (each writes atomically)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_name(path.name + ".lock"), "w")
    except OSError:
        lock = None
    try:
        if lock is not None and fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield
    finally:
        if lock is not None:
            lock.close()


def _make(
    factory: type[Tokenizer], parts: Parts, *, name: str, pretokenizer: str, special_tokens: dict[str, int],
    specials_in_text: str,
) -> Tokenizer:
    table = spelled_table(
        unit=parts.unit, ids=parts.ids, spelled=parts.spelled, base_count=parts.base_count, lefts=parts.lefts, rights=parts.rights,
        special_tokens={**parts.special_tokens, **special_tokens}, fallback_bytes=parts.fallback_bytes,
    )
    return factory.from_table(
        table, unit=parts.unit, pretokenizer=pretokenizer, name=name, specials_in_text=specials_in_text,
        unknown_token=parts.unknown_token,
    )


def _parts(tokenizer: Tokenizer) -> Parts:
    if tokenizer.end_of_word is not None:
        raise BpeError(f"the merge cache holds tokenizers without an end-of-word marker, not {tokenizer.name!r}")
    fallback, merges, base_count = tokenizer.fallback_bytes, tokenizer.merges, len(tokenizer.base)
    spelled = [(token_id, token.data) for token_id, token in tokenizer.tokens.items()
               if not tokenizer.is_special(token_id) and token_id not in fallback]
    ids = [token_id for token_id, _ in spelled]
    if ids[base_count:base_count + len(merges)] != [new_id for _, _, new_id in merges]:
        raise BpeError(f"the merge cache holds tables in build_table's order; {tokenizer.name!r}'s is not")
    return Parts(
        unit=tokenizer.unit, ids=ids, spelled=[data for _, data in spelled], base_count=base_count,
        lefts=[left for left, _, _ in merges], rights=[right for _, right, _ in merges],
        special_tokens=dict(tokenizer.special_tokens), unknown_token=tokenizer.unknown_token, fallback_bytes=fallback,
    )


def _read(path: Path, source_hash: str) -> Parts | None:
    try:
        with open(path, "rb") as file:
            header = json.loads(file.readline())
            payload = file.read()
        claimed = header.pop("file_sha256", None)
        if (header.get("format"), header.get("version"), header.get("source_sha256")) != (
            CACHE_FORMAT, CACHE_VERSION, source_hash
        ) or _file_hash(header, payload) != claimed:
            return None
        merges, tokens, layout_size = header["merges"], header["tokens"], header["layout"]
        numbers = array.array("i")
        numbers.frombytes(payload[:4 * (2 * merges + tokens)])
        if sys.byteorder != "little":
            numbers.byteswap()
        lefts, rights, ids = (numbers[start:start + size].tolist() for start, size in (
            (0, merges), (merges, merges), (2 * merges, tokens)))
        layout_end = 4 * len(numbers) + layout_size
        # One C call cuts every token's bytes out of the rest: the layout is a struct format, "1s1s2s...".
        spelled = struct.unpack(payload[4 * len(numbers):layout_end].decode("ascii"), payload[layout_end:])
        return Parts(
            unit=header["unit"], ids=ids, spelled=list(spelled), base_count=header["base_count"], lefts=lefts,
            rights=rights, special_tokens=dict(header["special_tokens"]), unknown_token=header["unknown_token"],
            fallback_bytes=dict(header["fallback"]),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError, struct.error):
        return None  # no file yet, or one this version cannot read: build from the source instead


def _write(path: Path, parts: Parts, source_hash: str, name: str) -> None:
    """Save atomically (a reader never sees half a file); a folder we cannot write is no error."""
    numbers = array.array("i", parts.lefts + parts.rights + parts.ids)
    if sys.byteorder != "little":
        numbers.byteswap()
    layout = "".join(f"{len(data)}s" for data in parts.spelled).encode("ascii")
    payload = numbers.tobytes() + layout + b"".join(parts.spelled)
    header = {
        "format": CACHE_FORMAT, "version": CACHE_VERSION, "source_sha256": source_hash, "name": name, "unit": parts.unit,
        "merges": len(parts.lefts), "tokens": len(parts.ids), "layout": len(layout), "base_count": parts.base_count,
        "special_tokens": parts.special_tokens, "unknown_token": parts.unknown_token,
        "fallback": [[token_id, byte] for token_id, byte in parts.fallback_bytes.items()],
    }
    header["file_sha256"] = _file_hash(header, payload)
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
