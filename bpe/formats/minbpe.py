"""minbpe's files: ``.model`` (what ``load`` reads) and ``.vocab`` (for people, never read back).

Scope: karpathy/minbpe's ``minbpe v1`` format. A ``.model`` file is::

    minbpe v1
    <split pattern, empty for BasicTokenizer>
    <number of special tokens>
    <special text> <id>        (one line per special token)
    <left id> <right id>       (one line per merge; merge k makes id 256 + k)

Ids 0..255 are the byte values and merge k (from 0) makes id 256 + k, so only tokenizers laid out
that way can be written (any tokenizer trained here is; GPT-2's is not, its byte ids are
shuffled). Only byte-level tokenizers without an end-of-word marker can be written. The ``.vocab``
file spells each token as minbpe's ``render_token`` does: ``[le][ft] -> [left] 300``.

Deliberately left out: minbpe splits with ``regex.findall``, which drops text the pattern does
not match, while we keep it as gaps; for gpt2, gpt4 and none (which match everything) the two
agree. Patterns are written as our pre-tokenizer spells them (tiktoken's spelling for gpt2 and
gpt4) and read back by exact match; minbpe's own GPT-4 spelling lacks tiktoken's ``\\s++$`` branch
and splits ``"x \\n "`` differently, so any other pattern reads back as ``regex:PATTERN``, as is.
"""

from __future__ import annotations

import unicodedata

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..text.pretokenize import NAMED_PATTERNS
from ..tokens.vocab import Token
from .common import (
    TokenizerFormat, as_text, build_tokenizer, one_file, parse_id, pretokenizer_name,
)

MINBPE_HEADER = "minbpe v1"
_ALIASES = (("", "none"),)  # minbpe's BasicTokenizer writes an empty pattern: no split


def from_minbpe(contents: str | bytes, *, name: str = "", source: str = "tokenizer.model") -> Tokenizer:
    """Read a ``.model`` file; ``source`` names it in error messages."""
    lines = as_text(contents, source=source).split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    lines = [line.rstrip("\r") for line in lines]
    if not lines or lines[0] != MINBPE_HEADER:
        found = repr(lines[0][:40]) if lines else "an empty file"
        raise FormatError(f"{source} line 1: expected {MINBPE_HEADER!r}, found {found}; is it a minbpe .model file?")
    if len(lines) < 3:
        raise FormatError(f"{source} ends after line {len(lines)}: a .model file needs a pattern line and a count line")
    pattern = lines[1]
    special_count = parse_id(lines[2].strip(), where=f"{source} line 3", what="number of special tokens")
    if len(lines) < 3 + special_count:
        raise FormatError(f"{source} ends after line {len(lines)}, before its {special_count} special tokens")
    special_tokens: dict[str, int] = {}
    for index in range(3, 3 + special_count):
        text, _, id_text = lines[index].rpartition(" ")
        if not text:
            raise FormatError(f"{source} line {index + 1}: expected '<special token> <id>', got {lines[index][:60]!r}")
        token_id = parse_id(id_text, where=f"{source} line {index + 1}")
        if text in special_tokens:
            raise FormatError(f"{source} line {index + 1}: the special token {text!r} is listed twice")
        special_tokens[text] = token_id

    merges: list[tuple[int, int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    for index in range(3 + special_count, len(lines)):
        where = f"{source} line {index + 1}"
        parts = lines[index].split()
        if len(parts) != 2:
            raise FormatError(f"{where}: expected a merge as two ids '<left> <right>', got {lines[index][:60]!r}")
        left, right = (parse_id(part, where=where) for part in parts)
        new_id = 256 + len(merges)
        for part in (left, right):
            if part >= new_id:
                raise FormatError(f"{where}: merges id {part}, but only ids below {new_id} exist at this line")
        if (left, right) in seen:
            raise FormatError(f"{where}: repeats the merge {left} {right} of line {seen[left, right]}")
        seen[left, right] = index + 1
        merges.append((left, right, new_id))
    return build_tokenizer(
        source=source, unit="byte", pretokenizer=pretokenizer_name(pattern, aliases=_ALIASES),
        base={byte: Token(bytes([byte])) for byte in range(256)}, merges=merges,
        special_tokens=special_tokens, name=name,
    )


def _problem(tokenizer: Tokenizer) -> str | None:
    """Why minbpe cannot hold a byte-level ``tokenizer``; None if it can."""
    if any(token_id != token.data[0] for token_id, token in tokenizer.base.items()) or any(
        new_id != 256 + rank for rank, (_, _, new_id) in enumerate(tokenizer.merges)
    ):
        return (
            "minbpe .model numbers bytes 0-255 by value and merges 256, 257, ... in order, and this "
            "tokenizer's ids differ (GPT-2's byte ids, for one, are shuffled). Export it as Hugging Face "
            "tokenizer.json, tiktoken or GPT-2 files, which store ids"
        )
    pattern = _pattern_line(tokenizer)
    if "\n" in pattern or "\r" in pattern or pattern != pattern.strip():
        return (
            "minbpe .model keeps the split pattern on one stripped line, and this pattern has a line "
            "break or spaces at an end; write them as \\n or \\x20 in the pattern"
        )
    if any(text != "".join(text.split()) for text in tokenizer.special_tokens):
        return (
            "minbpe's loader splits special-token lines at whitespace, so it cannot read a special token "
            "that contains spaces or line breaks; rename the special token"
        )
    return None


def _pattern_line(tokenizer: Tokenizer) -> str:
    name = tokenizer.pretokenizer.name
    if name == "none":
        return ""
    return NAMED_PATTERNS.get(name) or name[len("regex:"):]


def _write(tokenizer: Tokenizer) -> tuple[str, str]:
    """``(.model text, .vocab text)``."""
    model = [MINBPE_HEADER, _pattern_line(tokenizer), str(len(tokenizer.special_tokens))]
    model += [f"{text} {token_id}" for text, token_id in tokenizer.special_tokens.items()]
    model += [f"{left} {right}" for left, right, _ in tokenizer.merges]

    tokens = tokenizer.tokens
    parents = {new_id: (left, right) for left, right, new_id in tokenizer.merges}
    vocab = []
    for token_id, token in tokens.items():
        if tokenizer.is_special(token_id):
            continue
        shown = render_token(token.data)
        if token_id in parents:
            left, right = parents[token_id]
            vocab.append(f"[{render_token(tokens[left].data)}][{render_token(tokens[right].data)}] -> [{shown}] {token_id}")
        else:
            vocab.append(f"[{shown}] {token_id}")
    return "\n".join(model) + "\n", "\n".join(vocab) + "\n"


def render_token(data: bytes) -> str:
    """minbpe's ``render_token``: bytes as text, control characters escaped.

    >>> render_token(b"a\\nb\\xe2")
    'a\\\\u000ab�'
    """
    text = data.decode("utf-8", errors="replace")
    return "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char)[0] == "C" else char for char in text
    )


MINBPE = TokenizerFormat(
    name="minbpe", title="minbpe .model", file_names=("tokenizer.model", "tokenizer.vocab"),
    note="Karpathy's minbpe `RegexTokenizer.load()`; the `.vocab` file is for people to read.",
    write=_write, read=one_file(from_minbpe), problem=_problem,
    recognizes=lambda contents: contents.startswith(MINBPE_HEADER.encode()),
)


def to_minbpe(tokenizer: Tokenizer) -> tuple[str, str]:
    """``(.model text, .vocab text)``; FormatError (saying why) if minbpe cannot hold ``tokenizer``."""
    return MINBPE.texts(tokenizer)  # type: ignore[return-value]
