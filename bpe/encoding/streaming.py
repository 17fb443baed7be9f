"""Streaming encode: ids from an iterable of text pieces, lazily, in bounded memory.

Scope: :func:`encode_iterable` (``Tokenizer.encode_iterable`` calls it) and :func:`read_text_chunks`,
which decodes a binary stream piece by piece. Out of scope: the encoding itself; every settled
stretch of text goes through ``Tokenizer.encode`` unchanged.

The promise: ``list(encode_iterable(tok, pieces)) == tok.encode("".join(pieces))`` for any way the
text is cut into pieces. Pieces are gathered until a *safe cut* is found, a place where encoding
the two sides apart gives the same ids as encoding them together:

* never inside a special token, nor anywhere a special token could still begin (the last
  ``longest special - 1`` characters are held back until more text comes);
* at the start or end of an allowed special token (pre-tokenization never crosses one);
* or where the pre-tokenizer is known to cut whatever follows (:data:`SAFE_CUTS`): for GPT-2,
  GPT-4, GPT-4o, Qwen and DeepSeek a space between two non-spaces (``fast_split`` explains why);
  for ``whitespace`` and ``space`` a change between word and gap characters, with the character
  after it already read;
* and, for a pre-tokenizer that normalizes its text, only where its normalization allows it:
  NFC before an ASCII character (no character composes with the one before it when that one is
  ASCII, so NFC of the parts is NFC of the whole); SentencePiece's nowhere (its dummy prefix and
  space rules read the whole text).

Deliberately left out: ``none``, ``sentencepiece`` and custom patterns have no safe cut inside
plain text, so their text is held until a special token or the end (memory grows with the longest
such stretch; SentencePiece's, with the whole text).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> tok = load_pretrained("gpt2")
    >>> list(encode_iterable(tok, ["hello wo", "rld<|endof", "text|>"], allowed_special="all"))
    [31373, 995, 50256]
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import chain
from types import MappingProxyType
from typing import BinaryIO, Protocol

import regex

from ..errors import BpeError
from ..text.corpus import BOM, looks_like_utf16, unreadable, utf16_error
from ..text.fast_split import SAFE_CUT
from ..text.pretokenize import Pretokenizer, SpecialSet, special_token_pattern, split_special


class Encoder(Protocol):
    """What streaming needs of a tokenizer (a :class:`~bpe.encoding.tokenizer.Tokenizer` is one; the
    tokenizer imports this module, so this one names only what it uses)."""

    special_tokens: dict[str, int]
    pretokenizer: Pretokenizer

    def encode(
        self, text: str, *, allowed_special: SpecialSet | None, disallowed_special: SpecialSet | None
    ) -> list[int]: ...

    def special_defaults(
        self, allowed_special: SpecialSet | None, disallowed_special: SpecialSet | None
    ) -> tuple[SpecialSet, SpecialSet]: ...


SAFE_CUTS: Mapping[str, "regex.Pattern | object"] = MappingProxyType({
    "gpt2": SAFE_CUT,
    "gpt4": SAFE_CUT,
    "gpt4o": SAFE_CUT,
    "qwen2": SAFE_CUT,
    "qwen3.5": SAFE_CUT,
    "deepseek": SAFE_CUT,
    "whitespace": regex.compile(r"(?<=\S)(?=\s)|(?<=\s)(?=\S)"),
    "space": regex.compile(r"(?<=[^ \r\n])(?=[ \r\n])|(?<=[ \r\n])(?=[^ \r\n])"),
})
"""Per named pre-tokenizer: a pattern whose (empty) matches are places no chunk crosses."""
GATHER_CHARS = 1 << 16
"""Characters gathered before a cut is looked for: fewer, larger calls to ``encode``."""
_BOM_BYTES = BOM.encode()
_WINDOW = 4096  # the last safe cut is looked for in the buffer's last few thousand characters first


def encode_iterable(
    tokenizer: Encoder, texts: Iterable[str], *,
    allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None,
) -> Iterator[int]:
    """Yield the ids of ``"".join(texts)`` as :meth:`Tokenizer.encode` would, piece by piece.

    Bad special-token arguments raise at once; a disallowed special token in the text raises
    when it is reached, after the ids before it.
    """
    allowed_special, disallowed_special = tokenizer.special_defaults(allowed_special, disallowed_special)
    tokenizer.encode("", allowed_special=allowed_special, disallowed_special=disallowed_special)  # checks the sets
    # chain from C: a Python frame per id would cost a large share of the encoding itself
    return chain.from_iterable(_encoded_stretches(tokenizer, texts, allowed_special, disallowed_special))


def _encoded_stretches(
    tokenizer: Encoder, texts: Iterable[str], allowed_special: SpecialSet, disallowed_special: SpecialSet,
) -> Iterator[list[int]]:
    """The ids of each settled stretch of text, a list at a time."""
    allowed = set(tokenizer.special_tokens) if allowed_special == "all" else set(allowed_special)
    every = special_token_pattern(set(tokenizer.special_tokens))
    held_back = max(map(len, tokenizer.special_tokens), default=1) - 1
    pretokenizer_cut = SAFE_CUTS.get(tokenizer.pretokenizer.name)
    normalization = tokenizer.pretokenizer.normalization
    if normalization is not None and not normalization.streams:
        yield tokenizer.encode("".join(_checked(texts)), allowed_special=allowed_special, disallowed_special=disallowed_special)
        return
    before_ascii = normalization is not None
    parts: list[str] = []
    size, wanted = 0, GATHER_CHARS
    for text in _checked(texts):
        parts.append(text)
        size += len(text)
        if size < wanted:
            continue
        buffer = "".join(parts)
        cut = _last_safe_cut(buffer, len(buffer) - held_back, every, allowed, pretokenizer_cut, before_ascii)
        if cut:
            yield tokenizer.encode(buffer[:cut], allowed_special=allowed_special, disallowed_special=disallowed_special)
            buffer = buffer[cut:]
        parts, size = [buffer], len(buffer)
        wanted = max(GATHER_CHARS, 2 * size)  # no cut found: wait for twice as much (linear time overall)
    yield tokenizer.encode("".join(parts), allowed_special=allowed_special, disallowed_special=disallowed_special)


def _checked(texts: Iterable[str]) -> Iterator[str]:
    for text in texts:
        if not isinstance(text, str):
            raise BpeError(f"encode_iterable reads text, got a {type(text).__name__}; decode bytes first")
        yield text


def _last_safe_cut(buffer: str, horizon: int, every, allowed: set[str], pretokenizer_cut, before_ascii: bool = False) -> int:
    """The last safe cut at or before ``horizon`` (0 if none); see the module docstring."""
    if horizon <= 0:
        return 0
    # Special tokens that start before the horizon are whole in the buffer, longer rivals included.
    inside = set()  # positions strictly inside some special token's occurrence
    if every is not None:
        for match in every.finditer(buffer, overlapped=True):
            inside.update(range(match.start() + 1, match.end()))
    candidates: list[int] = []
    if every is not None and allowed:
        position = 0
        for piece, _ in split_special(buffer, every, allowed):  # as encode splits it
            candidates.append(position)
            position += len(piece)
    if pretokenizer_cut is not None:
        for start in (max(0, horizon - _WINDOW), 0):
            found = [m.start() for m in pretokenizer_cut.finditer(buffer, start, horizon + 1)]
            found = [cut for cut in found if cut < len(buffer) and cut not in inside]
            if found or start == 0:
                candidates += found
                break
    cuts = [
        cut for cut in candidates
        if 0 < cut <= horizon and cut not in inside and (not before_ascii or cut < len(buffer) and buffer[cut].isascii())
    ]
    return max(cuts, default=0)


def read_text_chunks(
    stream: BinaryIO, *, name: str, chunk_bytes: int = 1 << 20, on_bom: Callable[[], None] | None = None,
) -> Iterator[str]:
    """Decode a binary stream as UTF-8 a chunk at a time (a character cut between chunks is
    completed by the next), by :func:`bpe.text.corpus.decode_text_file`'s rules: any valid UTF-8 is
    text (NUL included), UTF-16 is named, a leading byte-order mark is dropped (``on_bom`` is told),
    and bad input raises a :class:`BpeError` naming the byte."""
    decoder = codecs.getincrementaldecoder("utf-8")()

    def read() -> bytes:
        try:
            return stream.read(chunk_bytes)
        except OSError as error:  # it opened, yet reading failed (a device, /proc/self/mem, a disk error)
            raise unreadable(name, error) from None

    head = read()
    while 0 < len(head) < 4 and (more := read()):  # enough to see a mark or UTF-16
        head += more
    if looks_like_utf16(head):
        raise utf16_error(name)
    offset = 0
    if head.startswith(_BOM_BYTES):
        head, offset = head[len(_BOM_BYTES):], len(_BOM_BYTES)
        if on_bom is not None:
            on_bom()
    for data in chain([head], iter(read, b"")):
        # subtle: an error's start counts from the bytes of a character the last chunk left unfinished
        pending = len(decoder.getstate()[0])
        try:
            text = decoder.decode(data)
        except UnicodeDecodeError as error:
            raise _not_utf8(name, offset - pending + error.start) from None
        if text:
            yield text
        offset += len(data)
    pending = len(decoder.getstate()[0])
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as error:
        raise _not_utf8(name, offset - pending + error.start) from None


def _not_utf8(name: str, where: int) -> BpeError:
    return BpeError(f"{name} is not UTF-8 text (near byte {where}); save it as UTF-8 and try again")
