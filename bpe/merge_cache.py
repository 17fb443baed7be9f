"""A per-user disk cache of pretrained tokenizers' merges, checked against their source files.

Why: a tiktoken rank file stores ranks, not merges. Recovering GPT-4o's 199,742 merges from its
ranks replays tiktoken's merge loop for every token: seconds of pure Python. The merges follow
from the file alone, so the first load saves them here and later loads read them back (a fraction
of a second) and only rebuild the :class:`~bpe.tokenizer.Tokenizer`.

Why it is safe: only data derived from the installed package's files is written, never user text.
A cache file is used only if its header names the same source sha256 (the files' pinned hashes,
which the loader has just checked) and the file's own sha256 matches: it covers the header's other
fields (base ids, special tokens) as well as the merges, so no edit is used silently. Anything else
(an old version, a truncated or edited file, a read-only or missing folder) falls back to building
from the source and, if possible, rewriting the cache. ``BPE_LAB_CACHE_DIR`` picks the folder (tests
use a temporary one); by default it is the per-user cache folder of each system, as ``platformdirs``
names it: ``$XDG_CACHE_HOME/bpe-lab`` or ``~/.cache/bpe-lab`` on Linux, ``~/Library/Caches/bpe-lab``
on macOS, ``%LOCALAPPDATA%\\bpe-lab\\Cache`` on Windows.

File layout: one JSON header line (name, special tokens, the 256 base ids in byte order, the
source's sha256, the file's own sha256; ``whole_only``, the tokens no merge makes as ``[id, hex]``
pairs, only in the files of tokenizers that have them), then the merges as little-endian int32
``left, right, new_id`` triples. The version is in the file name too: an older BPE Lab sharing the
folder reads and writes its own files, never these::

    cached_tokenizer(name="o200k_base", source_hash=..., build=lambda: from_tiktoken(...))

Out of scope: tokenizers that are not byte-level without an end-of-word marker (pretrained ones
all are), and evicting old files (one per tokenizer and source version, a few MB each).
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_cache_dir

from .errors import BpeError
from .tokenizer import Tokenizer
from .vocab import Token

CACHE_FORMAT = "bpe-lab/merge-cache"
CACHE_VERSION = 2


def cache_dir() -> Path:
    """Where cache files live: ``$BPE_LAB_CACHE_DIR``, else the per-user cache folder."""
    chosen = os.environ.get("BPE_LAB_CACHE_DIR")
    if chosen:
        return Path(chosen)
    return Path(user_cache_dir("bpe-lab", appauthor=False))


def cache_path(name: str, source_hash: str) -> Path:
    return cache_dir() / f"{name}-{source_hash[:16]}-v{CACHE_VERSION}.merges"


def _file_hash(header: dict, payload: bytes) -> str:
    """The sha256 of everything in a cache file but itself: the header's fields, then the merges."""
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + payload).hexdigest()


Parts = tuple[dict[int, Token], list[tuple[int, int, int]], dict[str, int], dict[int, bytes]]
"""``(base id -> Token, merges, special tokens, whole-only tokens)``: what a cache file holds."""


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
    parts = _read(path, source_hash)
    options = {"name": name, "pretokenizer": pretokenizer, "special_tokens": special_tokens, "specials_in_text": specials_in_text}
    if parts is not None:
        try:
            return _make(factory, parts, **options)
        except BpeError:
            pass  # subtle: a well-formed file whose merges do not fit together; rebuild it from the source
    parts = _parts(build())
    _write(path, parts, source_hash, name)
    return _make(factory, parts, **options)


def _make(
    factory: type[Tokenizer], parts: Parts, *, name: str, pretokenizer: str, special_tokens: dict[str, int],
    specials_in_text: str,
) -> Tokenizer:
    base, merges, stored_special, whole_only = parts
    return factory(
        unit="byte", pretokenizer=pretokenizer, base=base, merges=merges,
        special_tokens={**stored_special, **special_tokens}, name=name, specials_in_text=specials_in_text,
        whole_only=whole_only,
    )


def _parts(tokenizer: Tokenizer) -> Parts:
    return tokenizer.base, tokenizer.merges, dict(tokenizer.special_tokens), tokenizer.whole_only


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
        flat = array.array("i")
        flat.frombytes(payload)
        if sys.byteorder != "little":
            flat.byteswap()
        values = flat.tolist()
        base = {token_id: Token(bytes([byte])) for byte, token_id in enumerate(header["base"])}
        whole_only = {token_id: bytes.fromhex(data) for token_id, data in header.get("whole_only", ())}
        return base, list(zip(values[0::3], values[1::3], values[2::3])), dict(header["special_tokens"]), whole_only
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None  # no file yet, or one this version cannot read: build from the source instead


def _write(path: Path, parts: Parts, source_hash: str, name: str) -> None:
    """Save atomically (a reader never sees half a file); a folder we cannot write is no error."""
    base, merges, special_tokens, whole_only = parts
    by_byte = {token.data[0]: token_id for token_id, token in base.items()}
    flat = array.array("i", [value for merge in merges for value in merge])
    if sys.byteorder != "little":
        flat.byteswap()
    payload = flat.tobytes()
    header = {
        "format": CACHE_FORMAT, "version": CACHE_VERSION, "source_sha256": source_hash, "name": name,
        "base": [by_byte[byte] for byte in range(256)], "special_tokens": special_tokens,
    }
    if whole_only:
        header["whole_only"] = [[token_id, data.hex()] for token_id, data in whole_only.items()]
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
