"""A token table rebuilt from every token's bytes, for tables :func:`~bpe.encoding.token_table.build_table`
has already checked once (the pretrained merge cache holds them).

Why: ``build_table`` checks each merge and spells each merged token from its two parts, one
Python step per token. A table that passed those checks once is rebuilt from its tokens' bytes
in bulk, as a :class:`~bpe.pretrained.table_core.TableCore` (which the merge cache now builds
itself, sharing it between tokenizers); this function is that for a table of its own, kept for
code written against it.

    >>> table = spelled_table(unit="byte", ids=[*range(256), 256], spelled=[bytes([b]) for b in range(256)] + [b"ab"],
    ...                       base_count=256, lefts=[97], rights=[98], special_tokens={"<|end|>": 257})
    >>> list(table.merges), table.tokens[256].data, table.ranks[97, 98], table.byte_ids[97], table.special_tokens
    ([(97, 98, 256)], b'ab', 0, 97, {'<|end|>': 257})
    >>> spelled_table(unit="byte", ids=[*range(256), 256], spelled=[bytes([b]) for b in range(256)] + [b"ab"],
    ...               base_count=256, lefts=[97], rights=[300], special_tokens={})
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: a merge uses an id no token has
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from ..encoding.packed_tokens import tokens_of
from ..encoding.token_table import TokenTable
from .table_core import TableCore, not_text

__all__ = ["spelled_table", "tokens_of"]


def spelled_table(
    *,
    unit: str,
    ids: Sequence[int],
    spelled: Sequence[bytes],
    base_count: int,
    lefts: Sequence[int],
    rights: Sequence[int],
    special_tokens: dict[str, int],
    fallback_bytes: dict[int, int] | None = None,
) -> TokenTable:
    """The table whose non-special tokens are ``ids[i]`` spelled ``spelled[i]``, in the table's
    order: the base (``base_count``), the merged ones (merge ``k`` joins ``lefts[k]`` and
    ``rights[k]`` into ``ids[base_count + k]``), then the whole-only ones; then the special tokens
    and the byte-fallback ones (``id -> byte``)."""
    core = TableCore.spelled(
        unit=unit, base_count=base_count, ids=array("i", ids), lengths=array("i", map(len, spelled)), blob=b"".join(spelled),
        lefts=array("i", lefts), rights=array("i", rights), fallback=fallback_bytes, not_text=not_text(spelled),
    )
    return core.table(special_tokens=special_tokens)

