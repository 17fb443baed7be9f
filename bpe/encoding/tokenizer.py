"""Encoding and decoding with learned merges, shaped like tiktoken's ``Encoding``.

Scope: a tokenizer built from a trace at any step (or read back from our JSON: ``from_file``,
``save``), its layered encoder, its decoders and a step-by-step encode walkthrough for teaching.
Out of scope: training, checking the token table (``token_table``), the merge loop itself
(``merge_loop``) and every file layout: our own JSON is ``tokenizer_json``, other libraries' are
``formats``.

Encoding is layered as in minbpe: :meth:`Tokenizer.encode` splits out special tokens ->
:meth:`Tokenizer.encode_ordinary` pre-tokenizes -> :meth:`Tokenizer.encode_chunk` looks the chunk up in a cache
whose misses run the merge loop (:func:`~bpe.encoding.merge_loop.merge_ids`).

    >>> from bpe import Corpus, TrainSettings, train
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...                                  TrainSettings(pretokenizer="none", merges=3)))
    >>> tok.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    >>> tok.decode([258, 100])
    'aaabd'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice
from typing import Literal, Protocol

from ..errors import BpeError, FormatError, UnknownTokenError
from ..text.fast_split import ASCII_PATTERNS, split_words
from ..text.local_files import StrPath, read_text, write_text
from ..text.pretokenize import Pretokenizer, SpecialSet
from ..text.special_text import SPECIAL_DEFAULTS, split_special_text
from ..text.surrogates import replace_lone_surrogates
from ..tokens.end_of_word import mark_word
from ..tokens.vocab import UNITS, Token, token_text
from .chunk_cache import ChunkCache
from .merge_loop import AppliedMerge, merge_ids, one_unknown_per_run, walk_merges
from .offsets import decode_with_offsets
from .streaming import encode_iterable
from .token_table import TokenTable, build_table
from .tokenizer_json import read_tokenizer_json, tokenizer_json


class TrainedRun(Protocol):
    """What :meth:`Tokenizer.from_trace` reads of a training run (a :class:`~bpe.training.trace.Trace`):
    the tokenizer's fields after ``step`` merges. Training sits above encoding, so the trace builds them."""

    def tokenizer_fields(self, *, step: int | None = None, pretokenizer: str | None = None, name: str = "") -> dict: ...


@dataclass(frozen=True, slots=True)
class ChunkWalk:
    """How one piece of text became ids: its starting symbols and each merge applied, in rank order."""

    text: str
    kind: Literal["word", "gap", "special"]
    initial: tuple[int, ...]
    merges: tuple[AppliedMerge, ...]

    @property
    def ids(self) -> tuple[int, ...]:
        return self.merges[-1].ids_after if self.merges else self.initial


class Tokenizer:
    """A BPE tokenizer: base symbols, ranked merges and special tokens."""

    user_defined: frozenset[str] = frozenset()
    """Special tokens cut from every text whatever ``encode`` is told (a SentencePiece model's; none here)."""

    def __init__(
        self,
        *,
        unit: str,
        pretokenizer: str,
        base: dict[int, Token],
        merges: Iterable[tuple[int, int, int]],
        special_tokens: dict[str, int] | None = None,
        end_of_word: str | None = None,
        name: str = "",
        specials_in_text: str = "refuse",
        unknown_token: str | None = None,
        fallback_bytes: dict[int, int] | None = None,
        whole_only: dict[int, bytes] | None = None,
    ) -> None:
        """Build and validate (see :func:`~bpe.encoding.token_table.build_table`); ``merges`` are ``(left, right, new_id)`` in rank order.

        ``specials_in_text`` picks what ``encode`` does with special-token text when not told
        (:data:`SPECIAL_DEFAULTS`). Char-level only: characters outside the vocabulary become their
        UTF-8 bytes' ids from ``fallback_bytes`` (``id -> byte``, all 256; SentencePiece's byte
        fallback) or else the special token ``unknown_token`` (a run of them one token), and raise
        without either. ``whole_only`` (``id -> bytes``) are tokens no merge makes, which a chunk
        spelled exactly like one becomes (tiktoken's lookup; see :func:`~bpe.encoding.token_table.build_table`).
        """
        if unit not in UNITS:  # before build_table, whose checks assume a known unit
            raise FormatError(f"unknown unit {unit!r}: use 'byte' or 'char'")
        table = build_table(
            unit=unit, base=base, merges=merges, special_tokens=dict(special_tokens or {}), end_of_word=end_of_word,
            fallback_bytes=fallback_bytes, whole_only=whole_only,
        )
        self._adopt(table, unit=unit, pretokenizer=pretokenizer, end_of_word=end_of_word, name=name,
                    specials_in_text=specials_in_text, unknown_token=unknown_token)

    @classmethod
    def from_table(
        cls, table: TokenTable, *, unit: str, pretokenizer: str, name: str = "", specials_in_text: str = "refuse",
        unknown_token: str | None = None,
    ) -> "Tokenizer":
        """A tokenizer without an end-of-word marker on a ``table`` checked before (e.g. a pretrained core's, :mod:`bpe.pretrained.table_core`)."""
        tokenizer = cls.__new__(cls)
        tokenizer._adopt(table, unit=unit, pretokenizer=pretokenizer, end_of_word=None, name=name, specials_in_text=specials_in_text,
                         unknown_token=unknown_token)
        return tokenizer

    def _adopt(
        self, table: TokenTable, *, unit: str, pretokenizer: str, end_of_word: str | None, name: str, specials_in_text: str,
        unknown_token: str | None,
    ) -> None:
        """Take ``table`` as this tokenizer's, with the settings a table does not hold."""
        if unit not in UNITS:
            raise FormatError(f"unknown unit {unit!r}: use 'byte' or 'char'")
        if specials_in_text not in SPECIAL_DEFAULTS:
            raise FormatError(f"unknown specials_in_text {specials_in_text!r}: use one of {', '.join(SPECIAL_DEFAULTS)}")
        if unknown_token is not None and unknown_token not in table.special_tokens:
            raise FormatError(f"the unknown token {unknown_token!r} must be one of the special tokens")
        self.unit, self.name = unit, name
        self.pretokenizer = Pretokenizer.parse(pretokenizer)
        self.specials_in_text, self.unknown_token = specials_in_text, unknown_token
        self._unknown_id = None if unknown_token is None else table.special_tokens[unknown_token]
        order = table.tokens.order  # base, merged, whole-only, special, byte fallback: the table's order
        specials = len(set(table.special_tokens.values()))  # subtle: two names may share an id (gpt-oss's 200018)
        self._whole_only_ids = tuple(order[table.base_count + len(table.merges):len(order) - specials - len(table.fallback_ids)])
        self.end_of_word = end_of_word
        self.end_of_word_mode = table.end_of_word_mode
        self.special_tokens: dict[str, int] = table.special_tokens
        self._table = table
        self._tokens, self._merges, self._ranks, self._made = table.tokens, table.merges, table.ranks, table.made
        self._special_ids = {token_id: text for text, token_id in self.special_tokens.items()}
        self._word_cache = ChunkCache(self._merge_chunk)
        # Without a marker a word and a gap with the same text encode alike: share one cache.
        self._gap_cache = self._word_cache if end_of_word is None else ChunkCache(partial(self._merge_chunk, is_word=False))
        # Subtle: GPT-2's and GPT-4's patterns match every character (letters, numbers, other
        # symbols, whitespace each have a branch), so their splits have no gaps and the words
        # alone are every piece; ``none`` gives the whole text as one word.
        self._split_words: Callable[[str], list[str]] | None = None
        if self.pretokenizer.name in ASCII_PATTERNS:
            self._split_words = partial(split_words, self.pretokenizer)
        elif self.pretokenizer.name == "none" or self.pretokenizer.gapless:
            self._split_words = self.pretokenizer.words

    @classmethod
    def from_trace(
        cls, trace: TrainedRun, *, step: int | None = None, pretokenizer: str | None = None, name: str = ""
    ) -> "Tokenizer":
        """The tokenizer after ``step`` merges of ``trace`` (all of them by default).

        Ids stay those of the full run, so special tokens keep their ids at every step.
        ``pretokenizer`` replaces the run's split, e.g. ``"none"`` to segment a word-table word whole.
        """
        return cls(**trace.tokenizer_fields(step=step, pretokenizer=pretokenizer, name=name))

    def continued(self, trace: TrainedRun, *, name: str = "") -> "Tokenizer":
        """What ``trace``, a run continuing this one (:func:`~bpe.training.extend.extend`), ends with: a plain
        Tokenizer, as new merges may break what a subclass relies on (a pretrained one's whole-token lookup)."""
        return Tokenizer.from_trace(trace, name=name)

    # -- vocabulary -----------------------------------------------------------------------------
    @property
    def n_vocab(self) -> int:
        """Number of tokens, special tokens included."""
        return len(self._tokens)

    @property
    def merges(self) -> list[tuple[int, int, int]]:
        """``(left, right, new_id)`` in rank order (a copy)."""
        return list(self._merges)

    @property
    def tokens(self) -> Mapping[int, Token]:
        """``id -> Token``, read-only: the table's own, packed (each Token is made when asked for; ``dict(...)`` copies)."""
        return self._tokens

    @property
    def whole_only(self) -> dict[int, bytes]:
        """``id -> bytes`` of the tokens no merge makes (empty for all but a few rank files)."""
        return {token_id: self._tokens[token_id].data for token_id in self._whole_only_ids}

    @property
    def fallback_bytes(self) -> dict[int, int]:
        """``id -> byte`` of a char-level vocabulary's byte-fallback tokens (empty without them)."""
        return {token_id: byte for byte, token_id in enumerate(self._table.fallback_ids)}

    @property
    def base(self) -> dict[int, Token]:
        """``id -> Token`` of the symbols before any merge, in the order given (a copy)."""
        return {token_id: self._tokens[token_id] for token_id in islice(self._tokens, self._table.base_count)}  # listed first

    def token_text(self, token_id: int) -> str:
        """How token ``token_id`` is spelled (invalid UTF-8 as ``\\x..`` escapes)."""
        return token_text(self._token(token_id), self.end_of_word)

    def byte_ids(self, data: bytes) -> list[int]:
        """The base token of each byte of ``data`` (byte-level; GPT-2 numbers its bytes otherwise):
        ``load_pretrained("gpt2").byte_ids(b"\\xe2\\x82")``, two of the bytes of "€", is ``[158, 224]``."""
        return [self._table.byte_ids[value] for value in data]

    def is_special(self, token_id: int) -> bool:
        return token_id in self._special_ids

    def _token(self, token_id: int) -> Token:
        token = self._tokens.get(token_id)
        if token is None:
            raise UnknownTokenError(f"unknown token id {token_id!r}: this tokenizer has no such id")
        return token

    # -- encoding -------------------------------------------------------------------------------
    def encode(
        self, text: str, *, allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None
    ) -> list[int]:
        """Text -> ids (the pre-tokenizer's normalization first). Special-token text raises unless
        allowed, tiktoken's safe default; a tokenizer whose owner does otherwise (Qwen, DeepSeek,
        SentencePiece) says so in ``specials_in_text``, which an argument left out follows.

        Lone surrogates (text that is not valid Unicode) are read as U+FFFD, as tiktoken reads them
        (:mod:`bpe.text.surrogates`); so are they by every other encode and by training.
        """
        ids: list[int] = []
        for piece, is_special in self._split_special(self._read(text), allowed_special, disallowed_special):
            if is_special:
                ids.append(self.special_tokens[piece])
            else:
                ids.extend(self._encode_unicode(piece))
        return self._one_unknown_per_run(ids)

    def encode_iterable(
        self, texts: Iterable[str], *, allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None
    ) -> Iterator[int]:
        """The ids of ``"".join(texts)``, yielded lazily in bounded memory (see :mod:`bpe.encoding.streaming`)."""
        return encode_iterable(self, texts, allowed_special=allowed_special, disallowed_special=disallowed_special)

    def encode_ordinary(self, text: str) -> list[int]:
        """Text -> ids, treating special-token text as plain text (lone surrogates as U+FFFD)."""
        return self._one_unknown_per_run(self._encode_unicode(self._read(text)))

    def _read(self, text: str) -> str:
        """``text`` as its owner reads it: normalized, then surrogate pairs joined and lone ones U+FFFD (Qwen
        normalizes before tiktoken joins a pair: U+1D15E as two code units stays, not NFC's two characters)."""
        return replace_lone_surrogates(self.pretokenizer.normalize(text))

    def _encode_unicode(self, text: str) -> list[int]:
        """:meth:`encode_ordinary` of text known to be valid Unicode and normalized (no check: it costs a copy)."""
        if self._split_words is not None:  # the hot path: one cache lookup per chunk, from C
            return list(chain.from_iterable(map(self._word_cache.__getitem__, self._split_words(text))))
        ids: list[int] = []
        for piece, is_word in self.pretokenizer.split(text):
            ids.extend(self.encode_chunk(piece, is_word))
        return ids

    def _one_unknown_per_run(self, ids: list[int]) -> list[int]:
        return one_unknown_per_run(ids, self._unknown_id)

    def encode_walkthrough(
        self, text: str, *, allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None, walk: bool = True
    ) -> list[ChunkWalk]:
        """Like :meth:`encode`, but returns every chunk with each merge applied to it, in order (``walk=False``: none)."""
        walks: list[ChunkWalk] = []
        for piece, is_special in self._split_special(self._read(text), allowed_special, disallowed_special):
            if is_special:
                walks.append(ChunkWalk(piece, "special", (self.special_tokens[piece],), ()))
                continue
            for chunk, is_word in self.pretokenizer.split(piece):
                whole = self._table.whole_only.get(chunk)
                initial = [whole] if whole is not None else self._initial_ids(chunk, is_word)
                walks.append(ChunkWalk(chunk, "word" if is_word else "gap", tuple(initial), walk_merges(initial, self._ranks, self._merges) if walk else ()))
        return walks

    def special_defaults(
        self, allowed_special: SpecialSet | None, disallowed_special: SpecialSet | None
    ) -> tuple[SpecialSet, SpecialSet]:
        """The arguments as given, each one left out taken from ``specials_in_text``."""
        allowed, disallowed = SPECIAL_DEFAULTS[self.specials_in_text]
        return (
            allowed if allowed_special is None else allowed_special,
            disallowed if disallowed_special is None else disallowed_special,
        )

    def _split_special(
        self, text: str, allowed_special: SpecialSet | None, disallowed_special: SpecialSet | None
    ) -> list[tuple[str, bool]]:
        return split_special_text(text, self.special_tokens, *self.special_defaults(allowed_special, disallowed_special))

    def _initial_ids(self, chunk: str, is_word: bool) -> list[int]:
        if self.unit == "byte":
            ids = list(map(self._table.byte_ids.__getitem__, chunk.encode("utf-8")))
        else:
            try:
                ids = [self._table.char_ids[char] for char in chunk]
            except KeyError:
                ids = self._unknown_characters(chunk)
        if is_word and self.end_of_word is not None:
            ids = mark_word(ids, mode=self.end_of_word_mode, marker_id=self._table.marker_id, attached=self._table.attached,
                            spell=lambda token_id: repr(self.token_text(token_id)))
        return ids

    def _unknown_characters(self, chunk: str) -> list[int]:
        """A chunk's ids when some of its characters are outside a char-level vocabulary."""
        known, fallback = self._table.char_ids, self._table.fallback_ids
        if fallback:
            return [i for char in chunk for i in ([known[char]] if char in known else map(fallback.__getitem__, char.encode("utf-8")))]
        if self._unknown_id is not None:
            return [known.get(char, self._unknown_id) for char in chunk]
        unknown = sorted({char for char in chunk if char not in known})
        shown = ", ".join(f"{char!r} (U+{ord(char):04X})" for char in unknown[:5])
        why = " (a lone surrogate, which is not Unicode text, becomes U+FFFD, as in tiktoken)" if "\ufffd" in unknown else ""
        raise UnknownTokenError(
            f"{shown} {'is' if len(unknown) == 1 else 'are'} not in this char-level vocabulary{why}; "
            "train on text that contains them, or use the byte unit, which covers every text"
        )

    def encode_chunk(self, chunk: str, is_word: bool = True) -> tuple[int, ...]:
        """One chunk's ids, as training sees a corpus word (``is_word``: the end-of-word marker after it)."""
        return (self._word_cache if is_word else self._gap_cache)[chunk]

    def _merge_chunk(self, chunk: str, is_word: bool = True) -> tuple[int, ...]:
        """A chunk cache's miss: a token no merge makes if the chunk is spelled like one, else the
        chunk's starting ids and the merge loop (subclasses may look up first)."""
        whole = self._table.whole_only.get(chunk)
        if whole is not None:
            return (whole,)
        return tuple(merge_ids(self._initial_ids(chunk, is_word), self._ranks, self._made))

    # -- decoding -------------------------------------------------------------------------------
    def decode_single_token_bytes(self, token_id: int) -> bytes:
        return self._token(token_id).data

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """Each id's bytes separately (for showing tokens; may split a character)."""
        ids = list(ids)
        self._check_ids(ids)
        return self._tokens.datas(ids)

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        return b"".join(self.decode_tokens_bytes(ids))

    decode_with_offsets = decode_with_offsets  # tiktoken's: the text and where each token starts (bpe.encoding.offsets)

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Ids -> text. ``errors="replace"`` shows a partial UTF-8 sequence as U+FFFD (�)."""
        data = self.decode_bytes(ids)
        try:
            return self.pretokenizer.denormalize(data.decode("utf-8", errors=errors))
        except UnicodeDecodeError as error:
            raise BpeError(
                f"the ids decode to bytes that are not valid UTF-8 ({data[error.start:error.end]!r} at byte "
                f"{error.start}: part of a character); decode with errors='replace' to show it as \ufffd"
            ) from None
        except LookupError:
            raise BpeError(f"unknown errors mode {errors!r}: use 'replace' or 'strict'") from None

    def _check_ids(self, ids: list[int]) -> None:
        unknown = self._tokens.unknown(ids)
        if unknown:
            shown = ", ".join(map(repr, list(dict.fromkeys(unknown))[:10]))
            raise UnknownTokenError(
                f"unknown token id{'s' if len(unknown) > 1 else ''} {shown}: ids run from 0 to "
                f"{max(self._tokens)} and must be in this tokenizer's vocabulary"
            )

    # -- our own JSON (the layout: ``tokenizer_json``) ------------------------------------------
    def to_json(self) -> str:
        """This tokenizer as BPE Lab JSON, the text :meth:`save` writes."""
        return tokenizer_json(
            name=self.name, unit=self.unit, pretokenizer=self.pretokenizer.name, end_of_word=self.end_of_word,
            base=self.base, merges=self._merges, special_tokens=self.special_tokens,
            specials_in_text=self.specials_in_text, unknown_token=self.unknown_token,
            fallback_bytes=self.fallback_bytes, whole_only=self.whole_only,
        )

    @classmethod
    def from_json(cls, text: str) -> "Tokenizer":
        """The tokenizer a BPE Lab JSON text holds (of its ``kind``); FormatError (naming the problem) if it holds none."""
        return read_tokenizer_json(text, build=cls, kinds=Tokenizer)

    def save(self, path: StrPath) -> None:
        """Write this tokenizer to ``path`` as BPE Lab JSON (Hugging Face's and minbpe's name).

        Other libraries' files: :func:`bpe.formats.export_tokenizer`.
        """
        write_text(path, self.to_json())

    @classmethod
    def from_file(cls, path: StrPath) -> "Tokenizer":
        """The tokenizer :meth:`save` wrote to ``path`` (Hugging Face's name); other libraries'
        files: :func:`bpe.formats.import_tokenizer`."""
        return cls.from_json(read_text(path))
