"""A table's tokens and merges packed into arrays: ``Token`` objects and merge tuples made when asked for.

Why: held as a ``dict`` of ``Token`` objects and a list of ``(left, right, new_id)`` tuples, a
token costs about 240 bytes before the encoder's own lookups (the dict's slot, the id's int, the
``Token``, its ``bytes``, the tuple); the 14 pretrained tokenizers took 925 MiB in one process
(issue 52). Packed, a token is its bytes inside one ``bytes`` object plus three ints in arrays
(where it starts and ends, found by id; its place in the table's order), and a merge three ints.
Decoding many ids stays in C (``map`` over the arrays, slices of the one ``bytes``), so packing
costs the decoder nothing (``benchmarks/encode_benchmark.py`` times both).

    >>> tokens = PackedTokens.of({5: Token(b"a"), 7: Token(b"bc"), 6: Token(b"", ends_word=True)})
    >>> tokens[7], list(tokens), len(tokens), 6 in tokens, 8 in tokens, tokens.datas([7, 5, 7])
    (Token(data=b'bc', ends_word=False), [5, 7, 6], 3, True, False, [b'bc', b'a', b'bc'])
    >>> tokens.unknown([5, 8, -1, "x"])
    [8, -1, 'x']
    >>> special = tokens.with_tokens({9: b"<|end|>"})
    >>> special.datas([5, 9]), list(special), 9 in tokens
    ([b'a', b'<|end|>'], [5, 7, 6, 9], False)
    >>> merges = PackedMerges(lefts=[0, 2], rights=[1, 1], made=[2, 3])
    >>> merges[1], list(merges), merges[:1]
    ((2, 1, 3), [(0, 1, 2), (2, 1, 3)], [(0, 1, 2)])
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import ItemsView, Iterable, Iterator, Mapping, Sequence, ValuesView
from itertools import accumulate, chain, repeat
from operator import sub

from ..tokens.vocab import Token

_NONE = -1
"""``starts[id]`` of an id with no token (a token may be empty: the end-of-word marker's own)."""


class PackedTokens(Mapping[int, Token]):
    """``id -> Token`` over one ``bytes``: token ``i`` is ``blob[starts[i]:ends[i]]``, iterated in the table's
    order, then the few ``extra`` tokens (``id -> bytes``: a tokenizer's special ones, beside a table it shares).

    Read-only, as every table is once checked; ``ends_word`` is kept for the few ids in ``marked``.
    """

    __slots__ = ("_blob", "_starts", "_ends", "_order", "_extra", "_marked")

    def __init__(
        self, *, blob: bytes, starts: array, ends: array, order: array, extra: Mapping[int, bytes] | None = None,
        marked: frozenset[int] = frozenset(),
    ) -> None:
        self._blob, self._starts, self._ends, self._order, self._marked = blob, starts, ends, order, marked
        self._extra = dict(extra or {})

    @classmethod
    def of(cls, tokens: Mapping[int, Token]) -> "PackedTokens":
        """``tokens`` packed, in their order (ids are whole numbers: the table's checks come first)."""
        datas = [token.data for token in tokens.values()]
        ends_in_order = list(accumulate(map(len, datas)))
        span = max(tokens, default=-1) + 1
        starts, ends = array("i", repeat(_NONE, span)), array("i", repeat(_NONE, span))
        for token_id, end, data in zip(tokens, ends_in_order, datas):
            starts[token_id], ends[token_id] = end - len(data), end
        return cls(blob=b"".join(datas), starts=starts, ends=ends, order=array("i", tokens),
                   marked=frozenset(token_id for token_id, token in tokens.items() if token.ends_word))

    def with_tokens(self, more: Mapping[int, bytes]) -> "PackedTokens":
        """These tokens, then ``more`` (``id -> bytes``, ids no token has) after them; the packed part is shared, not copied."""
        return PackedTokens(blob=self._blob, starts=self._starts, ends=self._ends, order=self._order,
                            extra={**self._extra, **more}, marked=self._marked)

    def __getitem__(self, token_id: int) -> Token:
        start = self._start(token_id)
        if start != _NONE:
            return Token(self._blob[start:self._ends[token_id]], token_id in self._marked)
        data = self._extra.get(token_id)  # type: ignore[call-overload]
        if data is None:
            raise KeyError(token_id)
        return Token(data, token_id in self._marked)

    def _start(self, token_id: object) -> int:
        if not isinstance(token_id, int) or token_id < 0 or token_id >= len(self._starts):
            return _NONE
        return self._starts[token_id]

    def __contains__(self, token_id: object) -> bool:
        return self._start(token_id) != _NONE or token_id in self._extra

    def __iter__(self) -> Iterator[int]:
        return chain(self._order, self._extra)

    def __len__(self) -> int:
        return len(self._order) + len(self._extra)

    def items(self) -> ItemsView[int, Token]:
        return _Items(self)

    def values(self) -> ValuesView[Token]:
        return _Values(self)

    @property
    def packed(self) -> tuple[bytes, array, array]:
        """``(blob, starts, ends)``: the packed tokens (not the extra ones) as a file would hold them."""
        return self._blob, self._starts, self._ends

    def lengths(self, ids: Sequence[int]) -> array:
        """Each packed id's length in bytes, from C."""
        return array("i", map(sub, map(self._ends.__getitem__, ids), map(self._starts.__getitem__, ids)))

    @property
    def order(self) -> array:
        """Every id in the table's order (base, merged, whole-only, special, byte fallback): a new array."""
        return self._order + array("i", self._extra)

    def datas(self, ids: Iterable[int]) -> list[bytes]:
        """Each id's bytes; every id must be a token's (:meth:`unknown` is empty), or the result is wrong."""
        ids = ids if isinstance(ids, (list, tuple, array)) else list(ids)
        extra = self._extra
        if extra and not extra.keys().isdisjoint(ids):  # a special token among them: one at a time
            blob, starts, ends = self._blob, self._starts, self._ends
            return [extra[token_id] if token_id in extra else blob[starts[token_id]:ends[token_id]] for token_id in ids]
        return list(map(self._blob.__getitem__, map(slice, map(self._starts.__getitem__, ids), map(self._ends.__getitem__, ids))))

    def unknown(self, ids: Sequence[object]) -> list[object]:
        """The items of ``ids`` that are no token's id, in order (usually none: checked from C first)."""
        try:
            if not ids or (min(ids) >= 0 and _NONE not in map(self._starts.__getitem__, ids)):  # type: ignore[type-var, arg-type]
                return []
        except (TypeError, IndexError):
            pass  # an id that is no int, one past the packed ones: find them one by one
        return [token_id for token_id in ids if token_id not in self]

    def tokens(self) -> list[Token]:
        """Every token, in the table's order, made in bulk (see :func:`tokens_of`)."""
        order = self.order
        tokens = tokens_of(self.datas(order))
        for index, token_id in enumerate(order) if self._marked else ():
            if token_id in self._marked:
                tokens[index] = Token(tokens[index].data, True)
        return tokens

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedTokens):
            return self.order == other.order and self.tokens() == other.tokens()
        return Mapping.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PackedTokens({len(self):,} tokens, {len(self._blob):,} bytes)"


class _Items(ItemsView):
    def __iter__(self):
        return zip(self._mapping, self._mapping.tokens())


class _Values(ValuesView):
    def __iter__(self):
        return iter(self._mapping.tokens())


class PackedMerges(Sequence[tuple[int, int, int]]):
    """Merge ``k`` is ``(lefts[k], rights[k], made[k])``, a tuple made when asked for; iterating is from C."""

    __slots__ = ("_lefts", "_rights", "_made")

    def __init__(self, *, lefts: Sequence[int], rights: Sequence[int], made: Sequence[int]) -> None:
        self._lefts, self._rights, self._made = lefts, rights, made

    def __getitem__(self, rank):  # type: ignore[override]
        if isinstance(rank, slice):
            return list(zip(self._lefts[rank], self._rights[rank], self._made[rank]))
        return self._lefts[rank], self._rights[rank], self._made[rank]

    def __len__(self) -> int:
        return len(self._made)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return zip(self._lefts, self._rights, self._made)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(other) == len(self) and list(self) == list(map(tuple, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PackedMerges({len(self):,} merges)"


def tokens_of(datas: Iterable[bytes]) -> list[Token]:
    """``[Token(data) for data in datas]``, made in bulk.

    Why: a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, a Python
    call per field per token; filling the slots of bare instances from C (``map`` over the slots'
    own setters) is faster (``benchmarks/pretrained_load.py``).

    >>> tokens_of([b"ab", b"c"]) == [Token(b"ab"), Token(b"c")]
    True
    """
    datas = list(datas)
    tokens = list(map(object.__new__, repeat(Token, len(datas))))
    deque(map(Token.data.__set__, tokens, datas), maxlen=0)
    deque(map(Token.ends_word.__set__, tokens, repeat(False)), maxlen=0)
    return tokens


def datas_of(tokens: Mapping[int, Token], ids: Sequence[int]) -> list[bytes]:
    """Each of ``ids``' bytes in ``tokens``: from a packed table in one call, with no Token made for
    each (a page that reads a whole vocabulary reads 100,000-200,000 of them); from any other mapping,
    token by token.

    >>> datas_of(PackedTokens.of({0: Token(b"a"), 1: Token(b"bc")}), [1, 0]), datas_of({5: Token(b"x")}, [5])
    ([b'bc', b'a'], [b'x'])
    """
    if isinstance(tokens, PackedTokens):
        return tokens.datas(ids)
    return [tokens[token_id].data for token_id in ids]
