"""A token table rebuilt from every token's bytes, for tables :func:`~bpe.encoding.token_table.build_table`
has already checked once (the pretrained merge cache holds them).

Why: ``build_table`` checks each merge and spells each merged token from its two parts, one
Python step per token, the bulk of a large vocabulary's load. A table that passed those
checks once can be saved with every token's bytes and rebuilt from them in bulk (C-level ``map``,
``zip`` and ``dict`` over whole lists), which is what lets a pretrained tokenizer load in about
the time tiktoken takes (``benchmarks/pretrained_load.py`` measures both).

What is still checked, in bulk: every part of a merge is a token, the base is one byte (or one
character) per token with none twice, and no id is used twice, so the encoder never meets an id it
cannot look up; a :class:`FormatError` if not (the cache then builds from the source). That each
merged token is spelled as its parts joined is not: a cache file is our own output, and its sha256
guards it against damage.

    >>> table = spelled_table(unit="byte", ids=[*range(256), 256], spelled=[bytes([b]) for b in range(256)] + [b"ab"],
    ...                       base_count=256, lefts=[97], rights=[98], special_tokens={"<|end|>": 257})
    >>> table.merges, table.tokens[256].data, table.ranks[97, 98], table.byte_ids[97], table.special_tokens
    ([(97, 98, 256)], b'ab', 0, 97, {'<|end|>': 257})
    >>> spelled_table(unit="byte", ids=[*range(256), 256], spelled=[bytes([b]) for b in range(256)] + [b"ab"],
    ...               base_count=256, lefts=[97], rights=[300], special_tokens={})
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: merge 1 uses an id no token has
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from itertools import repeat

from ..encoding.token_table import TokenTable
from ..errors import FormatError
from ..tokens.vocab import Token


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
    merged_end = base_count + len(lefts)
    one_int = dict(zip(ids, ids))  # each id one int object, shared by every place that names it (MBs for GPT-4o)
    try:
        lefts, rights = list(map(one_int.__getitem__, lefts)), list(map(one_int.__getitem__, rights))
    except KeyError as error:
        at = (list(lefts) + list(rights)).index(error.args[0]) % max(len(lefts), 1)
        raise FormatError(f"merge {at + 1} uses an id no token has") from None
    made = ids[base_count:merged_end]
    tokens = dict(zip(ids, tokens_of(spelled)))
    base = spelled[:base_count]
    tokens.update((token_id, Token(text.encode("utf-8"))) for text, token_id in special_tokens.items())
    tokens.update((token_id, Token(bytes([byte]))) for token_id, byte in (fallback_bytes or {}).items())
    texts = [data.decode("utf-8") for data in base] if unit == "char" else []
    if (
        len(tokens) != len(ids) + len(set(special_tokens.values())) + len(fallback_bytes or {})  # gpt-oss names 200018 twice
        or len(made) != len(lefts) or len(lefts) != len(rights)
        or len(set(base)) != base_count
        or (unit == "byte" and sorted(base) != [bytes([value]) for value in range(256)])
        or (unit == "char" and any(len(text) != 1 for text in texts))
        or (fallback_bytes and sorted(fallback_bytes.values()) != list(range(256)))
    ):
        raise FormatError("the spelled tokens repeat an id or a base symbol")
    by_byte = {data[0]: token_id for token_id, data in zip(ids, base)} if unit == "byte" else {}
    by_fallback = {byte: token_id for token_id, byte in (fallback_bytes or {}).items()}
    whole_only = {}
    for token_id, data in zip(ids[merged_end:], spelled[merged_end:]):
        try:
            whole_only[data.decode("utf-8")] = token_id
        except UnicodeDecodeError:
            pass  # part of a character: no chunk of text is spelled like it
    return TokenTable(
        tokens=tokens, base_count=base_count, merges=list(zip(lefts, rights, made)),
        ranks=dict(zip(zip(lefts, rights), range(len(lefts)))), special_tokens=dict(special_tokens),
        byte_ids=[by_byte[value] for value in range(256)] if unit == "byte" else [],
        char_ids=dict(zip(texts, ids[:base_count])), marker_id=None, attached={}, end_of_word_mode="separate",
        fallback_ids=[by_fallback[value] for value in range(256)] if by_fallback else [], whole_only=whole_only,
    )


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
