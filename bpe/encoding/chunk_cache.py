"""A tokenizer's cache of encoded chunks: ``chunk -> ids``, looked up from C on a hit.

Why: text repeats its words, and a chunk seen before needs no merge loop. ``Tokenizer`` encodes
a text's chunks with one ``map`` over this dict's ``__getitem__``, so a hit costs no Python call;
only a miss runs the merge loop, in ``__missing__``. Bounded: a chunk over
:data:`CACHE_CHUNK_CHARS` is not kept, and a full cache (:data:`CACHE_LIMIT`) starts over.

    >>> cache = ChunkCache(lambda chunk: (len(chunk),))
    >>> cache["abc"], "abc" in cache, "a" * 300 in (cache["a" * 300] and cache)
    ((3,), True, False)
"""

from __future__ import annotations

from collections.abc import Callable

CACHE_LIMIT = 100_000
CACHE_CHUNK_CHARS = 256


class ChunkCache(dict):
    """``chunk -> ids``, computed on a miss by ``__missing__``, so that hits are looked up from C."""

    __slots__ = ("_encode",)

    def __init__(self, encode: Callable[[str], tuple[int, ...]]) -> None:
        super().__init__()
        self._encode = encode

    def __missing__(self, chunk: str) -> tuple[int, ...]:
        ids = self._encode(chunk)
        if len(chunk) <= CACHE_CHUNK_CHARS:
            if len(self) >= CACHE_LIMIT:
                self.clear()
            self[chunk] = ids
        return ids
