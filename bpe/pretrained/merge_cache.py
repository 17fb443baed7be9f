"""A per-user disk cache of pretrained tokenizers' tables, checked against their source files.

Why: a tiktoken rank file stores ranks, not merges. Recovering GPT-4o's merges from its ranks
replays tiktoken's merge loop for every token, in pure Python. And even with the merges known,
checking them and spelling every merged token one at a time (``build_table``) is a Python step
per token. Both follow from the files alone, so the first load saves the checked table
here (every token's bytes as well as the merges) and later loads rebuild it in bulk
(:class:`~bpe.pretrained.table_core.TableCore`), in about the time tiktoken takes to read its rank file.

Why it is safe: only data derived from the installed package's files is written, never user text.
A cache file is used only if its header names the same source sha256 (the files' pinned hashes,
which a build checks the files against) and the file's own sha256 matches: it covers the header's
other fields (counts, special tokens) as well as the tables, so no edit is used silently; a core's
file must carry the sha256 its tokenizer's file names, and the core still checks that its tables
fit together. Anything else (an old version, a
truncated or edited file, a read-only or missing folder) falls back to building from the source
and, if possible, rewriting the cache. Processes sharing the folder build each file once: the
first holds a lock beside it while it builds, the others wait and read it. ``BPE_LAB_CACHE_DIR``
picks the folder (the tests give each run one of its own, so that a change to a file reader is
always tested: a warm per-user cache would hide it); by default it is the per-user cache folder of
each system, as ``platformdirs`` names it: ``$XDG_CACHE_HOME/bpe-lab`` or ``~/.cache/bpe-lab`` on
Linux, ``~/Library/Caches/bpe-lab`` on macOS, ``%LOCALAPPDATA%\\bpe-lab\\Cache`` on Windows.

Shared, not copied: a table's tokens that are not special, its merges and byte fallback are its
*core* (:mod:`bpe.pretrained.table_core`), kept in a file of its own named by the sha256 of its
contents, so tables with the same contents (GPT-4o's and gpt-oss's, Mistral's v3 and v7, the two
Tekken files) write one file and share one core in memory. A core whose tokens and merges begin
with another core's whole contents (Llama 3's with GPT-4's) is written as that core and what
follows, whichever of the two was built first: the shorter is always the one written whole, so a
longer one found first is written again on the shorter once it comes. What each tokenizer adds,
its special tokens, is the small file of its own that names its core.

File layout: a tokenizer's file is one JSON line (name, the source's sha256, its core's sha256,
special tokens, unknown token, user-defined pieces, the file's own sha256); a core's file is laid
out in :mod:`bpe.pretrained.core_files`. The version is in the file names too: an older BPE Lab
sharing the folder reads and writes its own files, never these::

    cached_tokenizer(name="o200k_base", source_hash=..., build=lambda: from_tiktoken(...))

Out of scope: tokenizers with an end-of-word marker (no pretrained one has one), and evicting old
files (one per tokenizer and source version, a few MB each).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: tables are built without a lock (see _building)
    fcntl = None  # type: ignore[assignment]

from ..collector import collector_paused
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from .core_files import (
    CACHE_VERSION, Contents, atomic_write, cache_dir, content_key, core_of, load_core, read_header, share_core, write_core,
)
from .table_core import TableCore, not_text

__all__ = ["CACHE_FORMAT", "CACHE_VERSION", "Parts", "cache_dir", "cache_path", "cached_tokenizer"]

CACHE_FORMAT = "bpe-lab/merge-cache"


def cache_path(name: str, source_hash: str) -> Path:
    """A tokenizer's own file (it names its core's)."""
    return cache_dir() / f"{name}-{source_hash[:16]}-v{CACHE_VERSION}.merges"


@dataclass(frozen=True)
class Parts:
    """A built tokenizer's table: its core's contents, whole, and what is its own."""

    contents: Contents
    special_tokens: dict[str, int]
    """The ones the source itself holds (GPT-2's ``<|endoftext|>`` is in its encoder.json)."""
    unknown_token: str | None
    user_defined: tuple[str, ...]


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
        key = content_key(parts.contents)
        core = load_core(key) or share_core(key, core_of(parts.contents, key))  # its file, or none could be written
        return _make(factory, core, parts.special_tokens, parts.unknown_token, parts.user_defined, **options)


def _cached(factory: type[Tokenizer], path: Path, source_hash: str, options: dict) -> Tokenizer | None:
    header = read_header(path, CACHE_FORMAT, source_sha256=source_hash)
    if header is None:
        return None
    try:
        core = load_core(header["core"])
        if core is None:
            return None
        return _make(factory, core, dict(header["special_tokens"]), header["unknown_token"], tuple(header["user_defined"]),
                     **options)
    except (BpeError, KeyError, TypeError, ValueError):
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
    factory: type[Tokenizer], core: TableCore, file_specials: dict[str, int], unknown_token: str | None,
    user_defined: tuple[str, ...], *, name: str, pretokenizer: str, special_tokens: dict[str, int], specials_in_text: str,
) -> Tokenizer:
    table = core.table(special_tokens={**file_specials, **special_tokens})
    own = {"user_defined": user_defined} if user_defined else {}  # a .model's pieces cut from every text
    return factory.from_table(table, unit=core.unit, pretokenizer=pretokenizer, name=name, specials_in_text=specials_in_text,
                              unknown_token=unknown_token, **own)


def _parts(tokenizer: Tokenizer) -> Parts:
    if tokenizer.end_of_word is not None:
        raise BpeError(f"the merge cache holds tokenizers without an end-of-word marker, not {tokenizer.name!r}")
    fallback, merges, base_count = tokenizer.fallback_bytes, tokenizer.merges, len(tokenizer.base)
    spelled = [(token_id, token.data) for token_id, token in tokenizer.tokens.items()
               if not tokenizer.is_special(token_id) and token_id not in fallback]
    ids = array("i", (token_id for token_id, _ in spelled))
    if ids[base_count:base_count + len(merges)] != array("i", (new_id for _, _, new_id in merges)):
        raise BpeError(f"the merge cache holds tables in build_table's order; {tokenizer.name!r}'s is not")
    contents = Contents(
        unit=tokenizer.unit, base_count=base_count, ids=ids, lengths=array("i", (len(data) for _, data in spelled)),
        blob=b"".join(data for _, data in spelled), lefts=array("i", (left for left, _, _ in merges)),
        rights=array("i", (right for _, right, _ in merges)), not_text=array("i", not_text(data for _, data in spelled)),
        fallback=fallback,
    )
    return Parts(
        contents=contents, special_tokens=dict(tokenizer.special_tokens), unknown_token=tokenizer.unknown_token,
        user_defined=tuple(sorted(tokenizer.user_defined)),
    )


def _write(path: Path, parts: Parts, source_hash: str, name: str) -> None:
    """Save the core (unless its file is there) and the tokenizer's own file; a folder we cannot write is no error."""
    key = write_core(parts.contents)
    header = {
        "format": CACHE_FORMAT, "version": CACHE_VERSION, "source_sha256": source_hash, "name": name, "core": key,
        "special_tokens": parts.special_tokens, "unknown_token": parts.unknown_token, "user_defined": list(parts.user_defined),
    }
    atomic_write(path, header, b"")
