"""A tokenizer's checked table of tokens: base symbols, ranked merges, special tokens, each id once.

Scope: turning what a file or a trace says a tokenizer is into the lookups the encoder needs,
refusing anything inconsistent with a :class:`~bpe.errors.FormatError` that says what is wrong
(a byte missing from a byte-level base, a merge of an id nothing defines, an id used
twice, a marker that is both a symbol of its own and glued to others). Out of scope: encoding
and decoding (``tokenizer``) and any file layout (``formats``).

    >>> from bpe.tokens.vocab import base_tokens
    >>> table = build_table(unit="char", base=dict(enumerate(base_tokens(unit="char", alphabet="ab"))),
    ...                     merges=[(0, 1, 2)], special_tokens={"<|end|>": 3}, end_of_word=None)
    >>> table.char_ids, table.ranks, table.tokens[2].data
    ({'a': 0, 'b': 1}, {(0, 1): 0}, b'ab')
    >>> build_table(unit="char", base={0: Token(b"a")}, merges=[(0, 5, 1)], special_tokens={}, end_of_word=None)
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: merge 1 uses token id 5, which neither a base token nor a merge defines
    >>> build_table(unit="char", base={0: Token(b"a")}, merges=[(0, 1, 1)], special_tokens={}, end_of_word=None)
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: merge 1 is built from itself: its parts lead back to id 1
    >>> marked = dict(enumerate(base_tokens(unit="char", alphabet="a", end_of_word="</w>")))
    >>> build_table(unit="char", base=marked, merges=[(1, 0, 2)], special_tokens={}, end_of_word="</w>")
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: merge 1 puts the end-of-word marker before other symbols
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import FormatError
from ..text.pretokenize import validate_special_tokens
from ..tokens.ids import is_whole_number
from ..tokens.vocab import Token
from .packed_tokens import PackedTokens


@dataclass(frozen=True, slots=True)
class TokenTable:
    """Every lookup the encoder and decoder need, built once and checked by :func:`build_table`."""

    tokens: PackedTokens
    """Base, merged, whole-only, special, then byte-fallback tokens, in that order (our JSON relies on it)."""
    base_count: int
    merges: Sequence[tuple[int, int, int]]
    """``(left, right, new_id)`` in rank order."""
    made: Sequence[int]
    """``made[rank]``: the id merge ``rank`` makes (the merge loop's only use of the merges)."""
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
    fallback_ids: list[int]
    """Char-level byte fallback: ``fallback_ids[b]`` is the id of byte ``b`` (empty without it)."""
    whole_only: dict[str, int]
    """Tokens no merge makes, by their text: a chunk spelled like one is that token (see :func:`build_table`)."""
    by_text: Mapping[str, int] | None = None
    """Every token but the special ones whose bytes are text, by that text (a pretrained tokenizer's
    whole-chunk lookup), where the table's builder made it once to share; else None."""
    shared: object = None
    """What this table shares its lookups with (a pretrained table's core, :mod:`bpe.pretrained.table_core`),
    kept alive as long as the table is; None for a table of its own."""


def build_table(
    *,
    unit: str,
    base: dict[int, Token],
    merges: Iterable[tuple[int, int, int]],
    special_tokens: dict[str, int],
    end_of_word: str | None,
    fallback_bytes: dict[int, int] | None = None,
    whole_only: dict[int, bytes] | None = None,
) -> TokenTable:
    """Check and index a tokenizer's tokens; ``merges`` are ``(left, right, new_id)`` in rank order.

    ``fallback_bytes`` (``id -> byte``, char unit only) are tokens of one byte each that no merge
    uses: they spell characters the vocabulary lacks (SentencePiece's ``<0xE2>`` pieces).
    ``whole_only`` (``id -> bytes``) are tokens no merge makes, which a chunk becomes only when it
    is spelled exactly like one: tiktoken looks every chunk up before merging, and 201 of Qwen3.6's
    tokens (俱乐部: 俱 + 乐 + 部, and no two of them make a token) can only come from that lookup.
    """
    if end_of_word is not None and (not isinstance(end_of_word, str) or not end_of_word):
        raise FormatError(f"the end-of-word marker must be text such as </w>, got {end_of_word!r}")
    validate_special_tokens(list(special_tokens))
    tokens: dict[int, Token] = {}
    for token_id, token in base.items():
        _add_id(tokens, token_id, token, "base token")
    marker_id, attached, mode = _check_base(base, unit=unit, end_of_word=end_of_word)

    ranks: dict[tuple[int, int], int] = {}
    merge_list: list[tuple[int, int, int]] = []
    made: dict[int, tuple[int, int, int]] = {}  # new id -> (rank, left, right)
    problems: dict[int, str] = {}  # rank -> what is wrong with that merge, reported in file order below
    for rank, (left, right, new_id) in enumerate(merges):
        if (left, right) in ranks:
            problems.setdefault(rank, f"merge {rank + 1} ({left}, {right}) appears twice: each pair may merge once")
        elif not is_whole_number(new_id):
            problems.setdefault(rank, f"merge {rank + 1} has id {new_id!r}; ids must be whole numbers from 0")
        elif new_id in tokens or new_id in made:
            problems.setdefault(rank, f"merge {rank + 1} reuses id {new_id}: every token needs its own id")
        else:
            made[new_id] = (rank, left, right)
        ranks.setdefault((left, right), rank)
        merge_list.append((left, right, new_id))
    for rank, (left, right, _) in enumerate(merge_list):
        if not ((left in tokens or left in made) and (right in tokens or right in made)):
            part = right if left in tokens or left in made else left
            problems.setdefault(rank, f"merge {rank + 1} uses token id {part}, which neither a base token nor a merge defines")
        if rank in problems:
            raise FormatError(problems[rank])
    spelled = _spell_merged(tokens, made)
    for _, _, new_id in merge_list:  # in rank order, whatever order they were spelled in
        tokens[new_id] = spelled[new_id]
    for token_id, data in (whole_only or {}).items():
        _add_id(tokens, token_id, Token(data), f"whole-chunk token {data!r}")
    special_ids: set[int] = set()
    for text, token_id in special_tokens.items():
        if token_id in special_ids:  # subtle: gpt-oss names id 200018 twice; as in tiktoken, the later name decodes
            tokens[token_id] = Token(text.encode("utf-8"))
            continue
        _add_id(tokens, token_id, Token(text.encode("utf-8")), f"special token {text!r}")
        special_ids.add(token_id)
    fallback_ids = _fallback_ids(tokens, fallback_bytes or {}, unit=unit)
    plain = [(token_id, token) for token_id, token in base.items() if not token.ends_word]
    return TokenTable(
        tokens=PackedTokens.of(tokens), base_count=len(base), merges=merge_list, made=[new_id for _, _, new_id in merge_list],
        ranks=ranks, special_tokens=dict(special_tokens),
        byte_ids=_byte_ids(plain) if unit == "byte" else [],
        char_ids={} if unit == "byte" else {token.data.decode("utf-8"): token_id for token_id, token in plain},
        marker_id=marker_id, attached=attached, end_of_word_mode=mode, fallback_ids=fallback_ids,
        whole_only={text: token_id for token_id, data in (whole_only or {}).items() if (text := _text(data)) is not None},
    )


def _spell_merged(base: dict[int, Token], made: dict[int, tuple[int, int, int]]) -> dict[int, Token]:
    """Every token's spelling, ``base``'s and each merged one's from its parts. A part usually comes
    from an earlier merge, but not always: Qwen3.6's rank file merges 人力 + 资源 into 人力资源 at a
    lower rank than 人力 itself (tiktoken merges whatever pair has the lowest rank *now*), so parts
    are looked up in any order."""
    spelled = dict(base)  # one lookup per part: base and merged tokens alike
    for start, (rank, left, right) in made.items():  # rank order
        if start in spelled:
            continue
        left_token, right_token = spelled.get(left), spelled.get(right)
        if left_token is None or right_token is None:  # a part is a later merge's: spell it first
            _spell_from_later_parts(start, made, spelled)
        else:  # the usual case, on its own path: it is nearly every token of a 200,000-token file
            spelled[start] = _joined(rank, left_token, right_token)
    return spelled


def _spell_from_later_parts(start: int, made: dict[int, tuple[int, int, int]], spelled: dict[int, Token]) -> None:
    """Spell ``start`` into ``spelled`` after the parts it needs, depth first (no recursion limit)."""
    stack, on_stack = [start], {start}
    while stack:
        token_id = stack[-1]
        if token_id in spelled:
            on_stack.discard(stack.pop())
            continue
        rank, left, right = made[token_id]
        missing = [part for part in (left, right) if part not in spelled]
        for part in missing:  # each is a merge's (checked by the caller)
            if part in on_stack:
                raise FormatError(f"merge {rank + 1} is built from itself: its parts lead back to id {token_id}")
        if missing:
            stack += missing
            on_stack.update(missing)
            continue
        spelled[token_id] = _joined(rank, spelled[left], spelled[right])
        on_stack.discard(stack.pop())


def _joined(rank: int, left: Token, right: Token) -> Token:
    if left.ends_word:
        raise FormatError(f"merge {rank + 1} puts the end-of-word marker before other symbols")
    return left.merged_with(right)


def _text(data: bytes) -> str | None:
    """``data`` as text, or None when it is part of a character (no chunk of text is spelled so)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


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


def _fallback_ids(tokens: dict[int, Token], fallback_bytes: dict[int, int], *, unit: str) -> list[int]:
    """``ids[b]``: the id of the byte-fallback token for byte ``b``, each byte once (added after the
    merges, so a merge naming one was already refused as undefined)."""
    if not fallback_bytes:
        return []
    if unit != "char" or sorted(fallback_bytes.values()) != list(range(256)):
        raise FormatError("byte fallback needs a char-level vocabulary and each of the 256 bytes exactly once")
    for token_id, byte in fallback_bytes.items():
        _add_id(tokens, token_id, Token(bytes([byte])), f"byte-fallback token <0x{byte:02X}>")
    by_byte = {byte: token_id for token_id, byte in fallback_bytes.items()}
    return [by_byte[byte] for byte in range(256)]


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
