"""tiktoken's rank files: one ``base64(token bytes) rank`` line per token, rank = id.

Scope: reading and writing the ``.tiktoken`` rank files that ``tiktoken.load.load_tiktoken_bpe``
reads, recovering the merges a rank file implies, and the ``pat_str`` to build a
``tiktoken.Encoding`` that encodes like our tokenizer::

    ranks = tiktoken.load.load_tiktoken_bpe("my.tiktoken")   # a local path works offline
    enc = tiktoken.Encoding(name="mine", pat_str=tiktoken_pattern(tokenizer),
                            mergeable_ranks=ranks, special_tokens=tokenizer.special_tokens)

A rank file stores no merges: tiktoken merges the adjacent pair whose *concatenation* has the
lowest rank. To get our ``(left, right)`` merges back, each token is split the way tiktoken itself
would build it: its bytes go through tiktoken's merge loop until two parts remain (minbpe's
``recover_merges`` does the same for GPT-4). Subtle: the parts usually have lower ranks than the
token, but not always (Qwen3.6's 人力资源, rank 99,655, is 人力, rank 108,583, plus 资源): tiktoken
merges whatever pair ranks lowest at the moment, so the loop is not limited to lower ranks. Run
as tiktoken writes it, the loop is O(L²) per token of L bytes; :mod:`~bpe.formats.merge_recovery`
replays it exactly in O(L log L).

Deliberately left out: the split pattern and special tokens are not in the file. Reading, they
are parameters (GPT-2's pattern by default); writing, pass them to ``tiktoken.Encoding`` yourself
(:func:`tiktoken_pattern` gives the pattern). Only byte-level tokenizers without an end-of-word
marker can be written, with no two ids decoding to the same bytes (the file is keyed by bytes)
and merged ids rising in merge order (the rank is the id and also the merge priority).
"""

from __future__ import annotations

import base64
import binascii
import re

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..text.pretokenize import Pretokenizer
from ..tokens.vocab import Token
from .common import (
    FOREIGN_SYNTAX, TokenizerFormat, as_text, build_tokenizer, duplicate_bytes_problem,
    foreign_syntax_problem, one_file, parse_id, rank_order_problem,
)
from .merge_recovery import split_tokens

# The first lines as tiktoken writes them: a token in base64 (whole groups of four), a space, its rank.
_RANK_LINES = re.compile(rb"(?:(?=[A-Za-z0-9+/])(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)? \d{1,18}\r?\n){3}")


def from_tiktoken(
    contents: str | bytes,
    *,
    pretokenizer: str = "gpt2",
    special_tokens: dict[str, int] | None = None,
    name: str = "",
    source: str = "rank file",
) -> Tokenizer:
    """Read a rank file; ``source`` names it in error messages."""
    ranks = parse_tiktoken(as_text(contents, source=source), source=source)
    return from_ranks(ranks, pretokenizer=pretokenizer, special_tokens=special_tokens, name=name, source=source)


def from_ranks(
    ranks: dict[bytes, int],
    *,
    id_offset: int = 0,
    pretokenizer: str = "gpt2",
    special_tokens: dict[str, int] | None = None,
    name: str = "",
    source: str = "rank file",
) -> Tokenizer:
    """The tokenizer of ``token bytes -> rank``; a token's id is its rank plus ``id_offset``
    (Mistral's Tekken puts its special tokens first, so its ids are ranks + 1,000)."""
    missing = [byte for byte in range(256) if bytes([byte]) not in ranks]
    if missing:
        raise FormatError(
            f"{source}: {len(missing)} of the 256 single bytes have no rank (e.g. 0x{missing[0]:02x}); "
            "a byte-level BPE must rank every byte"
        )
    base = {ranks[bytes([byte])] + id_offset: Token(bytes([byte])) for byte in range(256)}
    recovered = recover_merges(ranks)
    merges = [(ranks[left] + id_offset, ranks[right] + id_offset, rank + id_offset) for left, right, rank in recovered]
    made = {rank for _, _, rank in recovered}
    whole_only = {rank + id_offset: data for data, rank in ranks.items() if len(data) > 1 and rank not in made}
    return build_tokenizer(
        source=source, unit="byte", pretokenizer=pretokenizer, base=base, merges=merges,
        special_tokens=special_tokens, name=name, whole_only=whole_only,
    )


def parse_tiktoken(text: str, *, source: str = "rank file") -> dict[bytes, int]:
    """``token bytes -> rank``; every line ``base64 rank``, every token and rank distinct."""
    ranks: dict[bytes, int] = {}
    owner: dict[int, int] = {}
    for index, line in enumerate(text.split("\n")):
        line = line.rstrip("\r")
        if not line:
            continue
        where = f"{source} line {index + 1}"
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"{where}: expected 'base64-token rank', got {line[:60]!r}")
        try:
            data = base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(f"{where}: {parts[0][:40]!r} is not base64") from None
        if not data:
            raise FormatError(f"{where}: the token is empty")
        rank = parse_id(parts[1], where=where, what="rank")
        if data in ranks:
            raise FormatError(f"{where}: the token {data!r} was already ranked on line {owner[ranks[data]]}")
        if rank in owner:
            raise FormatError(f"{where}: rank {rank} was already given on line {owner[rank]}")
        ranks[data] = rank
        owner[rank] = index + 1
    return ranks


def recover_merges(ranks: dict[bytes, int]) -> list[tuple[bytes, bytes, int]]:
    """``(left bytes, right bytes, rank)`` for every multi-byte token that two others make, lowest
    rank first (tiktoken's merge loop on the token's bytes, replayed in O(n log n) by
    :func:`~bpe.formats.merge_recovery.split_tokens`). A token no two tokens make is left out:
    tiktoken only ever gives it to a chunk spelled exactly like it (the tokenizer keeps it as
    ``whole_only``).

    >>> recover_merges({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4, b"ac": 5, b"bac": 6})
    [(b'a', b'b', 3), (b'ab', b'c', 4), (b'a', b'c', 5), (b'b', b'ac', 6)]
    """
    splits = split_tokens(ranks)
    return [(*splits[data], rank) for data, rank in sorted(ranks.items(), key=lambda item: item[1]) if data in splits]


def _problem(tokenizer: Tokenizer) -> str | None:
    """Why a rank file cannot hold a byte-level ``tokenizer``; None if it can."""
    title = TIKTOKEN.title
    return (
        one_regex_problem(tokenizer.pretokenizer)
        or foreign_syntax_problem(tokenizer, title=title, engine="tiktoken's regex engine (fancy-regex)", cannot=FOREIGN_SYNTAX)
        or duplicate_bytes_problem(tokenizer, title=title) or rank_order_problem(tokenizer, title=title)
    )


def _write(tokenizer: Tokenizer) -> str:
    """The rank file: every non-special token as ``base64 id``, in id order."""
    lines = [
        f"{base64.b64encode(token.data).decode('ascii')} {token_id}"
        for token_id, token in sorted(tokenizer.tokens.items())
        if not tokenizer.is_special(token_id)
    ]
    return "\n".join(lines) + "\n"


def tiktoken_pattern(tokenizer: Tokenizer) -> str:
    """A ``pat_str`` under which tiktoken cuts text exactly as our pre-tokenizer does; FormatError (saying
    why) for a split that no one regex makes (DeepSeek's three rules in turn, SentencePiece's).

    tiktoken encodes only the pattern's matches and drops the rest, while we keep the text between
    matches as gaps. So patterns that can leave gaps (``whitespace``, custom ones) get a second
    branch matching a run of characters where the pattern does not match: ``P|(?:(?!P)[\\s\\S])+``.
    ``none`` (the whole text is one chunk) becomes ``[\\s\\S]+``. A normalization (Qwen's NFC) is the
    caller's to run first, as Qwen's own tokenizer does before tiktoken.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> tiktoken_pattern(load_pretrained("qwen2.5"))[:20]
    "(?i:'s|'t|'re|'ve|'m"
    """
    problem = one_regex_problem(tokenizer.pretokenizer)
    if problem:
        raise FormatError(problem)
    return pattern_with_gaps(tokenizer.pretokenizer)


def one_regex_problem(pretokenizer: Pretokenizer) -> str | None:
    """Why no one tiktoken pattern splits as ``pretokenizer`` does; None if one does."""
    entry = pretokenizer.entry
    if entry is None or not (entry.rules or entry.splitter):
        return None
    how = f"{len(entry.rules)} split rules applied in turn" if entry.rules else "its own code, not a regex"
    return (f"tiktoken cuts text with one regex, and {entry.title} splits with {how}, which no one regex reproduces: "
            "export it as a Hugging Face tokenizer.json, which holds the rules")


def pattern_with_gaps(pretokenizer: Pretokenizer) -> str:
    entry = pretokenizer.entry
    if pretokenizer.name == "none":
        return r"[\s\S]+"
    pattern = entry.pattern if entry is not None else pretokenizer.name[len("regex:"):]
    if entry is not None and entry.gapless:
        return pattern  # type: ignore[return-value]  # it covers every character
    return f"(?:{pattern})|(?:(?!(?:{pattern}))[\\s\\S])+"


TIKTOKEN = TokenizerFormat(
    name="tiktoken", title="tiktoken rank file", file_names=("tokenizer.tiktoken",),
    note="`tiktoken.Encoding(..., mergeable_ranks=load_tiktoken_bpe(path))`; the split pattern is not stored.",
    write=_write, read=one_file(from_tiktoken), problem=_problem, stores_pattern=False, stores_special_tokens=False,
    recognizes=lambda contents: _RANK_LINES.match(contents) is not None,
)


def to_tiktoken(tokenizer: Tokenizer) -> str:
    """The rank file: every non-special token as ``base64 id``, in id order; FormatError (saying why)
    if a rank file cannot hold ``tokenizer``."""
    return TIKTOKEN.texts(tokenizer)  # type: ignore[return-value]
