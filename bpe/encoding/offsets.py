"""Where each token starts in the decoded text, and decoding ids that arrive one at a time.

Scope: tiktoken's ``decode_with_offsets`` (:func:`decode_with_offsets`, the same semantics), and
the two ways to decode ids as a model emits them, one at a time (:func:`stream_steps`): the
naive way, each id decoded alone, which shows ``�`` for a token that holds part of a character,
and the buffered way (:class:`StreamDecoder`), which holds those bytes back until the character
is whole. Out of scope: decoding itself (``Tokenizer.decode``) and how a page draws the lesson.

An offset is a character index into the decoded text. A token that starts in the middle of a
character (its first byte is a UTF-8 continuation byte, ``0x80``-``0xBF``) gets the index of that
character, the one it shares with the token before it; so offsets can repeat, and they never
decrease. That is tiktoken's rule, checked against tiktoken itself on every pretrained tokenizer
(``tests/test_offsets.py``, with tiktoken's own expected offsets for "நடிகர் சூர்யா").

    >>> from bpe.pretrained.registry import load_pretrained
    >>> gpt4 = load_pretrained("gpt-4")
    >>> decode_with_offsets(gpt4, gpt4.encode("hello world"))
    ('hello world', [0, 5])
    >>> ids = gpt4.encode("😀!")                      # 😀 is two tokens: the second starts mid-character
    >>> [gpt4.decode_single_token_bytes(token) for token in ids], decode_with_offsets(gpt4, ids)
    ([b'\xf0\x9f\x98', b'\x80', b'!'], ('😀!', [0, 0, 1]))
    >>> [(step.naive, step.shown) for step in stream_steps(gpt4, ids)]
    [('\ufffd', ''), ('\ufffd', '😀'), ('!', '!')]

Like tiktoken's, the ids must decode to whole UTF-8 characters: a :class:`~bpe.errors.BpeError`
says so otherwise (offsets into text with ``�`` in it would point at characters that are not
there). A tokenizer whose decoding undoes a normalization (SentencePiece's ``▁`` and its leading
space) has its offsets moved with the text.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..errors import BpeError
from ..text.pretokenize import Pretokenizer


class Decoder(Protocol):
    """What offsets and streaming need of a tokenizer (a :class:`~bpe.encoding.tokenizer.Tokenizer` is one)."""

    pretokenizer: Pretokenizer

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]: ...

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str: ...

    def decode_single_token_bytes(self, token_id: int) -> bytes: ...


def _is_continuation(byte: int) -> bool:
    return 0x80 <= byte < 0xC0


def token_offsets(tokens: Sequence[bytes]) -> list[int]:
    """Each token's character offset, from the tokens' bytes (tiktoken's rule, see the module docstring).

    >>> token_offsets([b"h", b"\\xe6\\x88", b"\\x91x"])   # "h", then 我 in two tokens, then "x"
    [0, 1, 1]
    """
    offsets, characters = [], 0
    for data in tokens:
        # subtle: a token that begins with a continuation byte starts inside the character before it
        offsets.append(max(0, characters - (bool(data) and _is_continuation(data[0]))))
        characters += len(data) - sum(map(_is_continuation, data))
    return offsets


def decode_with_offsets(tokenizer: Decoder, ids: Iterable[int]) -> tuple[str, list[int]]:
    """``(text, offsets)``: the decoded text and the character where each token starts in it."""
    ids = list(ids)
    tokens = tokenizer.decode_tokens_bytes(ids)  # unknown ids raise here, with the tokenizer's message
    raw = b"".join(tokens)
    try:
        characters = len(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise BpeError(
            f"these ids decode to bytes that are not whole UTF-8 characters ({raw[error.start:error.end]!r} at byte "
            f"{error.start}), so they have no character offsets; decode them with errors='replace' to see the text"
        ) from None
    text = tokenizer.decode(ids, errors="strict")
    offsets = token_offsets(tokens)
    # subtle: undoing a normalization only drops leading characters (SentencePiece's ▁ before the text)
    stripped = characters - len(text)
    return text, [max(0, offset - stripped) for offset in offsets] if stripped else offsets


class StreamDecoder:
    """Decode ids one at a time, as a model emits them: text comes out as soon as it is whole.

    The bytes of a character split over several tokens are held until its last byte arrives
    (Python's incremental UTF-8 decoder, ``errors="replace"``: a sequence that can never be
    whole still shows as ``�``). A normalization the tokenizer undoes on decoding is undone as
    the text grows, so the pieces join to exactly ``tokenizer.decode(ids)``.

        >>> from bpe.pretrained.registry import load_pretrained
        >>> gpt2 = load_pretrained("gpt2")
        >>> stream = StreamDecoder(gpt2)
        >>> ids = gpt2.encode("我!")                      # 我: b"\\xe6\\x88" then b"\\x91"
        >>> stream.feed(ids[0]), stream.held, stream.feed(ids[1]), stream.feed(ids[2]), stream.finish()
        ('', b'\xe6\x88', '我', '!', '')
    """

    def __init__(self, tokenizer: Decoder) -> None:
        self._tokenizer = tokenizer
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        # decoding undoes no normalization (most tokenizers): pieces pass through as they come
        self._plain = _undoes_nothing(tokenizer)
        self._raw: list[str] = []
        self._shown = ""

    @property
    def held(self) -> bytes:
        """The bytes held back: the start of a character whose other bytes have not come yet."""
        return self._utf8.getstate()[0]

    def feed(self, token_id: int) -> str:
        """The text this id completes (empty while a character is still partial)."""
        return self.feed_bytes(self._tokenizer.decode_single_token_bytes(token_id))

    def feed_bytes(self, data: bytes) -> str:
        return self._show(self._utf8.decode(data))

    def finish(self) -> str:
        """What is left at the end: held bytes that never became a character show as ``�``."""
        return self._show(self._utf8.decode(b"", final=True))

    def _show(self, piece: str) -> str:
        if self._plain or not piece:
            return piece
        self._raw.append(piece)
        # subtle: undoing SentencePiece's ▁ (a leading space dropped) only ever extends what was shown
        shown = self._tokenizer.pretokenizer.denormalize("".join(self._raw))
        new, self._shown = shown[len(self._shown):], shown
        return new


def _undoes_nothing(tokenizer: Decoder) -> bool:
    """Whether decoding hands the bytes' text back unchanged (everything but SentencePiece's ▁)."""
    probe = "\u2581 a"
    return tokenizer.pretokenizer.denormalize(probe) == probe


@dataclass(frozen=True)
class StreamStep:
    """One id of a stream, decoded both ways."""

    token_id: int
    data: bytes
    """The token's bytes."""
    naive: str
    """The id decoded alone (``decode([id])``): ``�`` for each piece of a partial character."""
    shown: str
    """What the buffered decoder adds to the text at this id (empty while it holds bytes)."""
    held: bytes
    """The bytes it holds after this id."""


def stream_steps(tokenizer: Decoder, ids: Iterable[int]) -> list[StreamStep]:
    """Each id of ``ids`` as a model streams it: decoded alone, and by a :class:`StreamDecoder`."""
    stream = StreamDecoder(tokenizer)
    steps = []
    for token_id in ids:
        shown = stream.feed(token_id)
        steps.append(StreamStep(token_id, tokenizer.decode_single_token_bytes(token_id),
                                tokenizer.decode([token_id]), shown, stream.held))
    return steps
