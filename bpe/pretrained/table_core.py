"""The part of a pretrained table that tokenizers reading the same merges share: one copy per process.

Why: four pairs of the 14 pretrained tokenizers hold the same table under other special tokens
(GPT-4o's ``o200k_base`` and gpt-oss's ``o200k_harmony``, Mistral's v3 and v7 ``.model``, the
two Tekken files), and Llama 3's begins with every token and merge of GPT-4's ``cl100k_base``
(100,256 tokens, 100,000 merges, the same ids). A core is what such tokenizers have in common:
the tokens that are not special (base, merged, whole-only) with their ids, the merges, the
byte-fallback ids, and the lookups the encoder builds from them (the pair ranks, each rank's new
id, every token's text, the packed tokens). Each tokenizer adds only its special tokens
(:meth:`TableCore.table`). Which tables share is measured from their contents (the cache names a
core by its sha256, :mod:`bpe.pretrained.merge_cache`), never typed into the registry.

A core that extends another (``parent``) is built on it: the tuples, texts and ints of the
shared part are the parent's own objects, and only the dicts' slots are its own (a dict cannot
be a view of another's first entries without slowing every look-up). The ints themselves come
from one pool for the whole process (:func:`pooled`): id 5,000 is one object, whichever of the
14 tables names it (an int past 256 is 28 bytes, and every table names hundreds of thousands).

    >>> from array import array
    >>> base = TableCore.spelled(unit="byte", base_count=256, ids=array("i", range(258)), blob=bytes(range(256)) + b"abab!",
    ...                          lengths=array("i", [1] * 256 + [2, 3]), lefts=array("i", [97, 256]), rights=array("i", [98, 33]))
    >>> table = base.table(special_tokens={"<|end|>": 258})
    >>> table.ranks, list(table.made), table.tokens[257].data, table.tokens[258].data, base.by_text["ab"]
    ({(97, 98): 0, (256, 33): 1}, [256, 257], b'ab!', b'<|end|>', 256)
    >>> longer = TableCore.spelled(unit="byte", base_count=256, ids=array("i", range(259)), blob=bytes(range(256)) + b"abab!!!",
    ...     lengths=array("i", [1] * 256 + [2, 3, 2]), lefts=array("i", [97, 256, 33]), rights=array("i", [98, 33, 33]), parent=base)
    >>> next(iter(longer.ranks)) is next(iter(base.ranks)), longer.table(special_tokens={}).merges[2]
    (True, (33, 33, 258))

Out of scope: the files (``merge_cache``) and checking a table against its source (the parity
tests do; a core only checks that its arrays fit together, raising :class:`FormatError`).
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterable, Mapping
from functools import cached_property
from itertools import accumulate, repeat

from ..encoding.packed_tokens import PackedMerges, PackedTokens
from ..encoding.token_table import TokenTable
from ..errors import FormatError

class _IntPool:
    """Each whole number as one int object for the whole process, grown under a lock. It holds only
    the numbers themselves, never a user's data: sharing it between sessions shares nothing of theirs."""

    __slots__ = ("_ints", "_lock")

    def __init__(self) -> None:
        self._ints: list[int] = []
        self._lock = threading.Lock()  # two threads growing it at once would append some numbers twice

    def of(self, values: Iterable[int]) -> list[int]:
        values = values if isinstance(values, (list, array, range)) else list(values)
        top = max(values, default=-1)
        if top >= len(self._ints):
            with self._lock:
                self._ints.extend(range(len(self._ints), top + 1))
        try:
            return list(map(self._ints.__getitem__, values))
        except (IndexError, TypeError):
            raise FormatError("a table names a negative or non-integer id") from None


_POOL = _IntPool()


def pooled(values: Iterable[int]) -> list[int]:
    """``values`` as the pool's int objects (each whole number one object per process).

    >>> a, b = pooled(array("i", [70_000])), pooled([69_999 + 1])
    >>> a == b == [70_000], a[0] is b[0]
    (True, True)
    """
    return _POOL.of(values)


class TableCore:
    """A table's tokens but the special ones, its merges and lookups, shared by every tokenizer reading them.

    ``ids`` are the tokens in the table's order (base, merged: merge ``k`` makes ``ids[base_count +
    k]``, whole-only), ``tokens`` the same tokens packed, their bytes in that order in one ``bytes``;
    ``lefts`` and ``rights`` the merges. ``not_text`` lists the places of tokens whose bytes are not
    UTF-8 text (a piece of a character), which no chunk of text spells. A ``parent`` is a core that
    this one begins with, all of it (its caller has checked): the lookups start as copies of the
    parent's, so the objects in them are the parent's own.
    """

    def __init__(
        self, *, unit: str, base_count: int, ids: array, tokens: PackedTokens, lefts: array, rights: array,
        fallback: Mapping[int, int] | None = None, not_text: Iterable[int] = (), parent: "TableCore | None" = None,
        key: str = "",
    ) -> None:
        self.key, self.unit, self.base_count, self.parent = key, unit, base_count, parent
        self.ids, self.tokens, self.lefts, self.rights = ids, tokens, lefts, rights
        self.fallback, self.not_text = dict(fallback or {}), tuple(not_text)
        merges = len(lefts)
        self.whole_only_count = len(ids) - base_count - merges
        if self.whole_only_count < 0 or len(rights) != merges or len(tokens) != len(ids):
            raise FormatError("the table's counts do not fit together")
        self._check()
        shared = len(parent.lefts) if parent is not None else 0
        self.made = (parent.made if parent is not None else []) + pooled(ids[base_count + shared:base_count + merges])
        """``made[k]``: the id merge ``k`` makes."""
        ranks = dict(parent.ranks) if parent is not None else {}
        ranks.update(zip(zip(pooled(lefts[shared:]), pooled(rights[shared:])), pooled(range(shared, merges))))
        self.ranks = ranks
        """``(left, right) -> rank``, in rank order."""

    @classmethod
    def spelled(cls, *, ids: array, blob: bytes, lengths: array, **fields) -> "TableCore":
        """The core of tokens ``ids[k]`` spelled by ``lengths[k]`` bytes each, one after another in ``blob``."""
        if len(lengths) != len(ids) or sum(lengths) != len(blob) or 0 in lengths:
            raise FormatError("the table's tokens do not fit their bytes")
        return cls(ids=ids, tokens=_packed(ids, lengths, blob), **fields)

    @property
    def blob(self) -> bytes:
        """Every token's bytes, in the table's order."""
        return self.tokens.packed[0]

    @property
    def lengths(self) -> array:
        """Each token's length in bytes, in the table's order."""
        return self.tokens.lengths(self.ids)

    def _check(self) -> None:
        """The checks :func:`~bpe.encoding.token_table.build_table` made when the table was first built
        that the encoder relies on, made again in bulk: each merge's parts are tokens, the base is each
        byte (or character) once, no id twice."""
        tokens, base = self.tokens, self.tokens.datas(self.ids[:self.base_count])
        starts = tokens.packed[1]
        if tokens.unknown(self.ids) or len(starts) - starts.count(-1) != len(self.ids):
            raise FormatError("the table names an id twice, or one its tokens' bytes do not hold")
        if tokens.unknown(self.lefts) or tokens.unknown(self.rights):
            raise FormatError("a merge uses an id no token has")
        if len(set(base)) != self.base_count:
            raise FormatError("the table repeats a base symbol")
        if self.unit == "byte" and sorted(base) != [bytes([value]) for value in range(256)]:
            raise FormatError("a byte-level table needs each of the 256 bytes as a base token")
        if self.unit == "char" and any(len(data.decode("utf-8", "replace")) != 1 for data in base):
            raise FormatError("a char-level table's base tokens are one character each")
        if self.fallback and (sorted(self.fallback.values()) != list(range(256)) or not tokens.keys().isdisjoint(self.fallback)):
            raise FormatError("byte fallback needs each of the 256 bytes once, at ids no other token has")

    @cached_property
    def by_text(self) -> dict[str, int]:
        """Every token whose bytes are text, by that text, in the table's order (a later one of the same
        text wins, as when a dict is filled in order): a pretrained tokenizer's whole-chunk look-up."""
        parent = self.parent
        shared = len(parent.ids) if parent is not None else 0
        found = dict(parent.by_text) if parent is not None else {}
        # From C: pieces of characters decode to lone surrogates (which no chunk of text holds), then leave
        texts = list(map(bytes.decode, self.tokens.datas(self.ids[shared:]), repeat("utf-8"), repeat("surrogateescape")))
        merged_end = self.base_count + len(self.lefts)  # the merged ids are pooled already, in self.made
        ids = (pooled(self.ids[shared:self.base_count]) + self.made[max(shared - self.base_count, 0):]
               + pooled(self.ids[max(shared, merged_end):]))
        found.update(zip(texts, ids))
        for position in self.not_text:
            if position >= shared:
                found.pop(texts[position - shared], None)
        return found

    def table(self, *, special_tokens: Mapping[str, int]) -> TokenTable:
        """The table of a tokenizer with this core and ``special_tokens`` (``text -> id``; two names of one
        id: the later decodes, as in tiktoken). Only the special tokens are its own."""
        specials = {token_id: text.encode("utf-8") for text, token_id in special_tokens.items()}
        fallback = {token_id: bytes([byte]) for token_id, byte in self.fallback.items()}
        if not self.tokens.keys().isdisjoint(specials) or not specials.keys().isdisjoint(fallback):
            raise FormatError("a special token's id is another token's")
        base_ids = self.ids[:self.base_count]
        base = self.tokens.datas(base_ids)
        by_fallback = {byte: token_id for token_id, byte in self.fallback.items()}
        merged_end = self.base_count + len(self.lefts)
        whole_only = {}
        for token_id, data in zip(self.ids[merged_end:], self.tokens.datas(self.ids[merged_end:])):
            try:
                whole_only[data.decode("utf-8")] = token_id
            except UnicodeDecodeError:
                pass  # part of a character: no chunk of text is spelled like it
        texts = [data.decode("utf-8") for data in base] if self.unit == "char" else []
        by_byte = dict(zip((data[0] for data in base), base_ids)) if self.unit == "byte" else {}
        return TokenTable(
            tokens=self.tokens.with_tokens({**specials, **fallback}), base_count=self.base_count,
            merges=PackedMerges(lefts=self.lefts, rights=self.rights, made=self.made), made=self.made, ranks=self.ranks,
            special_tokens=dict(special_tokens), byte_ids=[by_byte[value] for value in range(256)] if by_byte else [],
            char_ids=dict(zip(texts, base_ids)), marker_id=None, attached={}, end_of_word_mode="separate",
            fallback_ids=[by_fallback[value] for value in range(256)] if by_fallback else [], whole_only=whole_only,
            shared=self,
        )


def not_text(datas: Iterable[bytes]) -> list[int]:
    """The places of the tokens that are not UTF-8 text (pieces of a character).

    >>> not_text([b"a", b"\\xe2\\x82", "€".encode()])
    [1]
    """
    places = []
    for position, data in enumerate(datas):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            places.append(position)
    return places


def _packed(ids: array, lengths: array, blob: bytes) -> PackedTokens:
    """The tokens ``ids[k]`` of ``lengths[k]`` bytes each, one after another in ``blob``, found by id."""
    ends_in_order = array("i", accumulate(lengths))
    starts_in_order = array("i", [0]) + ends_in_order[:-1]
    by_id = sorted(range(len(ids)), key=ids.__getitem__)  # from C; ids nearly in order already (ranks)
    sorted_ids = list(map(ids.__getitem__, by_id))
    if not sorted_ids:
        return PackedTokens(blob=blob, starts=array("i"), ends=array("i"), order=ids)
    first, span = sorted_ids[0], sorted_ids[-1] + 1
    if first < 0:
        raise FormatError("a table names a negative id")
    starts, ends = array("i", [-1]) * span, array("i", [-1]) * span
    if sorted_ids == list(range(first, span)):  # every id from the first on: one slice each, from C
        starts[first:] = array("i", map(starts_in_order.__getitem__, by_id))
        ends[first:] = array("i", map(ends_in_order.__getitem__, by_id))
    else:  # gaps (special ids between the others'): one at a time
        for position in by_id:
            token_id = ids[position]
            if starts[token_id] != -1:
                raise FormatError(f"the table names id {token_id} twice")
            starts[token_id], ends[token_id] = starts_in_order[position], ends_in_order[position]
    return PackedTokens(blob=blob, starts=starts, ends=ends, order=ids)
