"""A tokenizer's checked table of tokens: base symbols, ranked merges, special tokens, each id once.

Scope: turning what a file or a trace says a tokenizer is into the lookups the encoder needs,
refusing anything inconsistent with a :class:`~bpe.errors.FormatError` that says what is wrong
(a byte missing from a byte-level base, a merge of an id no earlier line defines, an id used
twice, a marker that is both a symbol of its own and glued to others). Out of scope: encoding
and decoding (``tokenizer``) and any file layout (``formats``).

    >>> from bpe.vocab import base_tokens
    >>> table = build_table(unit="char", base=dict(enumerate(base_tokens(unit="char", alphabet="ab"))),
    ...                     merges=[(0, 1, 2)], special_tokens={"<|end|>": 3}, end_of_word=None)
    >>> table.char_ids, table.ranks, table.tokens[2].data
    ({'a': 0, 'b': 1}, {(0, 1): 0}, b'ab')
    >>> build_table(unit="char", base={0: Token(b"a")}, merges=[(0, 5, 1)], special_tokens={}, end_of_word=None)
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: merge 1 uses token id 5, which no earlier line defines
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import FormatError
from .ids import is_whole_number
from .pretokenize import validate_special_tokens
from .vocab import Token


@dataclass(frozen=True, slots=True)
class TokenTable:
    """Every lookup the encoder and decoder need, built once and checked by :func:`build_table`."""

    tokens: dict[int, Token]
    """Base, then merged, then special tokens, in that order (our JSON relies on it)."""
    base_count: int
    merges: list[tuple[int, int, int]]
    """``(left, right, new_id)`` in rank order."""
    ranks: dict[tuple[int, int], int]
    """``(left, right) -> rank``: the merge loop's lookup."""
    special_tokens: dict[str, int]
    byte_ids: list[int]
    """Byte-level only: ``byte_ids[b]`` is the id of byte ``b`` (GPT-2's are not the byte values)."""
    char_ids: dict[str, int]
    """Char-level only: a character's id."""
    marker_id: int | None
    """The end-of-word marker's own id (mode ``separate``), else None."""
    attached: dict[int, int]
    """Mode ``attached``: a plain symbol's id -> the id of the same symbol carrying the marker."""
    end_of_word_mode: str


def build_table(
    *,
    unit: str,
    base: dict[int, Token],
    merges: Iterable[tuple[int, int, int]],
    special_tokens: dict[str, int],
    end_of_word: str | None,
) -> TokenTable:
    """Check and index a tokenizer's tokens; ``merges`` are ``(left, right, new_id)`` in rank order."""
    if end_of_word is not None and (not isinstance(end_of_word, str) or not end_of_word):
        raise FormatError(f"the end-of-word marker must be text such as </w>, got {end_of_word!r}")
    validate_special_tokens(list(special_tokens))
    tokens: dict[int, Token] = {}
    for token_id, token in base.items():
        _add_id(tokens, token_id, token, "base token")
    marker_id, attached, mode = _check_base(base, unit=unit, end_of_word=end_of_word)

    ranks: dict[tuple[int, int], int] = {}
    merge_list: list[tuple[int, int, int]] = []
    for rank, (left, right, new_id) in enumerate(merges):
        if (left, right) in ranks:
            raise FormatError(f"merge {rank + 1} ({left}, {right}) appears twice: each pair may merge once")
        for part in (left, right):
            if part not in tokens:
                raise FormatError(f"merge {rank + 1} uses token id {part}, which no earlier line defines")
        if tokens[left].ends_word:
            raise FormatError(f"merge {rank + 1} puts the end-of-word marker before other symbols")
        _add_id(tokens, new_id, tokens[left].merged_with(tokens[right]), f"merge {rank + 1}")
        ranks[left, right] = rank
        merge_list.append((left, right, new_id))
    for text, token_id in special_tokens.items():
        _add_id(tokens, token_id, Token(text.encode("utf-8")), f"special token {text!r}")
    plain = [(token_id, token) for token_id, token in base.items() if not token.ends_word]
    return TokenTable(
        tokens=tokens, base_count=len(base), merges=merge_list, ranks=ranks, special_tokens=dict(special_tokens),
        byte_ids=_byte_ids(plain) if unit == "byte" else [],
        char_ids={} if unit == "byte" else {token.data.decode("utf-8"): token_id for token_id, token in plain},
        marker_id=marker_id, attached=attached, end_of_word_mode=mode,
    )


def _add_id(tokens: dict[int, Token], token_id: int, token: Token, what: str) -> None:
    if not is_whole_number(token_id):
        raise FormatError(f"{what} has id {token_id!r}; ids must be whole numbers from 0")
    if token_id in tokens:
        raise FormatError(f"{what} reuses id {token_id}: every token needs its own id")
    tokens[token_id] = token


def _check_base(
    base: dict[int, Token], *, unit: str, end_of_word: str | None
) -> tuple[int | None, dict[int, int], str]:
    """``(marker id, attached forms, end-of-word mode)`` of a base vocabulary whose symbols fit ``unit``."""
    marker_id: int | None = None
    ends: dict[bytes, int] = {}  # attached mode: a symbol's bytes -> its form carrying the marker
    for token_id, token in base.items():
        if token.ends_word:
            if end_of_word is None:
                raise FormatError(f"base token {token_id} carries an end-of-word marker, but the tokenizer has none")
            marker_id = marker_id if token.data else token_id
            ends[token.data] = token_id
        elif unit == "byte":
            if len(token.data) != 1:
                raise FormatError(f"base token {token_id} of a byte-level tokenizer is not a single byte")
        else:
            char = token.data.decode("utf-8", errors="replace")
            if len(char) != 1 or char.encode("utf-8") != token.data:
                raise FormatError(f"base token {token_id} of a char-level tokenizer is not one character")
    plain = {token.data: token_id for token_id, token in base.items() if not token.ends_word}
    ends.pop(b"", None)
    attached = {plain.get(data, -1): token_id for data, token_id in ends.items()}
    if -1 in attached or (end_of_word is not None and (marker_id is None) == (not ends)):
        raise FormatError(
            f"the end-of-word marker {end_of_word!r} needs either one base token of its own (mode 'separate') "
            "or, for each symbol that can end a word, that symbol carrying it (mode 'attached'), not both"
        )
    return marker_id, attached, "attached" if ends else "separate"


def _byte_ids(plain: list[tuple[int, Token]]) -> list[int]:
    """``ids[b]``: the id of byte ``b``; each of the 256 bytes must be there exactly once."""
    by_byte = {token.data[0]: token_id for token_id, token in plain}
    missing = sorted(set(range(256)) - by_byte.keys())
    if missing or len(by_byte) != len(plain):
        raise FormatError(
            "a byte-level tokenizer needs each of the 256 bytes exactly once as a base token"
            + (f"; missing: {', '.join(f'0x{b:02x}' for b in missing[:8])}" if missing else "")
        )
    return [by_byte[value] for value in range(256)]
