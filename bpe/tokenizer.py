"""Encoding and decoding with learned merges, shaped like tiktoken's ``Encoding``.

Scope: a tokenizer built from a trace at any step (or from a file), its layered encoder, its
decoders, a step-by-step encode walkthrough for teaching, and its own versioned JSON. Out of
scope: training, and other libraries' file formats (``formats``).

Encoding is layered as in minbpe: :meth:`Tokenizer.encode` splits out special tokens ->
:meth:`Tokenizer.encode_ordinary` pre-tokenizes -> ``_encode_chunk`` runs the merge loop. The merge
loop applies the lowest-ranked merge present, everywhere in the chunk left to right, until none
applies; this replays training exactly, because a merged pair can never re-form later.

    >>> from bpe import Corpus, TrainSettings, train
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...                                  TrainSettings(pretokenizer="none", merges=3)))
    >>> tok.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    >>> tok.decode([258, 100])
    'aaabd'
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import chain, repeat
from typing import Literal

from .display import TokenizerDisplay
from .end_of_word import mark_word
from .errors import BpeError, FormatError, SpecialTokenError, UnknownTokenError
from .fast_split import ASCII_PATTERNS, split_words
from .pair_replace import pair_positions, replace_pair
from .ids import parse_ids  # noqa: F401  (kept importable from here: one rule, in bpe/ids.py)
from .pretokenize import Pretokenizer, special_token_pattern, split_special, validate_special_tokens
from .streaming import encode_iterable
from .trace import Trace
from .versioned_json import read_versioned_json
from .vocab import UNITS, Token, token_text

TOKENIZER_FORMAT = "bpe-lab/tokenizer"
TOKENIZER_VERSION = 1
_NO_MERGE = float("inf")
_NO_RANK = 1 << 62  # "no merge" for the hot loop: an int, so ``min`` never compares int with float
_LONG_CHUNK = 48  # from this many symbols on, a heap beats rescanning the chunk for every merge
_CACHE_LIMIT = 100_000
_CACHE_CHUNK_CHARS = 256

SpecialSet = Literal["all"] | Collection[str]


@dataclass(frozen=True, slots=True)
class AppliedMerge:
    """One merge applied while encoding a chunk: ``left`` + ``right`` -> ``new_id`` at ``positions``."""

    rank: int
    left: int
    right: int
    new_id: int
    positions: tuple[int, ...]
    """Where the pair stood in the chunk's ids before this merge."""
    ids_after: tuple[int, ...]


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


class _ChunkCache(dict):
    """``chunk -> ids``, computed on a miss by ``__missing__``, so that hits are looked up from C.

    Chunks longer than ``_CACHE_CHUNK_CHARS`` are not kept, and a full cache starts over.
    """

    __slots__ = ("_encode",)

    def __init__(self, encode: Callable[[str], tuple[int, ...]]) -> None:
        super().__init__()
        self._encode = encode

    def __missing__(self, chunk: str) -> tuple[int, ...]:
        ids = self._encode(chunk)
        if len(chunk) <= _CACHE_CHUNK_CHARS:
            if len(self) >= _CACHE_LIMIT:
                self.clear()
            self[chunk] = ids
        return ids


class Tokenizer(TokenizerDisplay):
    """A BPE tokenizer: base symbols, ranked merges and special tokens."""

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
    ) -> None:
        """Build and validate; ``merges`` are ``(left, right, new_id)`` in rank order."""
        if unit not in UNITS:
            raise FormatError(f"unknown unit {unit!r}: use 'byte' or 'char'")
        self.unit = unit
        self.name = name
        if end_of_word is not None and (not isinstance(end_of_word, str) or not end_of_word):
            raise FormatError(f"the end-of-word marker must be text such as </w>, got {end_of_word!r}")
        self.end_of_word = end_of_word
        self.pretokenizer = Pretokenizer.parse(pretokenizer)
        special_tokens = dict(special_tokens or {})
        validate_special_tokens(list(special_tokens))

        self._tokens: dict[int, Token] = {}  # base, then merged, then special: the JSON relies on it
        self._base_count = len(base)
        for token_id, token in base.items():
            self._add_id(token_id, token, "base token")
        self._marker_id: int | None = None
        self._byte_ids: list[int] = []
        self._char_ids: dict[str, int] = {}
        ends: dict[bytes, int] = {}  # attached mode: a symbol's bytes -> its form carrying the marker
        for token_id, token in base.items():
            if token.ends_word:
                if end_of_word is None:
                    raise FormatError(f"base token {token_id} carries an end-of-word marker, but the tokenizer has none")
                self._marker_id = self._marker_id if token.data else token_id
                ends[token.data] = token_id
            elif unit == "byte":
                if len(token.data) != 1:
                    raise FormatError(f"base token {token_id} of a byte-level tokenizer is not a single byte")
            else:
                char = token.data.decode("utf-8", errors="replace")
                if len(char) != 1 or char.encode("utf-8") != token.data:
                    raise FormatError(f"base token {token_id} of a char-level tokenizer is not one character")
                self._char_ids[char] = token_id
        if unit == "byte":
            by_byte = {token.data[0]: token_id for token_id, token in base.items() if not token.ends_word}
            missing = sorted(set(range(256)) - by_byte.keys())
            if missing or len(by_byte) != sum(not t.ends_word for t in base.values()):
                raise FormatError(
                    "a byte-level tokenizer needs each of the 256 bytes exactly once as a base token"
                    + (f"; missing: {', '.join(f'0x{b:02x}' for b in missing[:8])}" if missing else "")
                )
            self._byte_ids = [by_byte[value] for value in range(256)]
        plain = {token.data: token_id for token_id, token in base.items() if not token.ends_word}
        ends.pop(b"", None)
        self._attached = {plain.get(data, -1): token_id for data, token_id in ends.items()}
        self.end_of_word_mode = "attached" if ends else "separate"
        if -1 in self._attached or (end_of_word is not None and (self._marker_id is None) == (not ends)):
            raise FormatError(
                f"the end-of-word marker {end_of_word!r} needs either one base token of its own (mode 'separate') "
                "or, for each symbol that can end a word, that symbol carrying it (mode 'attached'), not both"
            )

        self._ranks: dict[tuple[int, int], int] = {}
        self._merges: list[tuple[int, int, int]] = []
        for rank, (left, right, new_id) in enumerate(merges):
            if (left, right) in self._ranks:
                raise FormatError(f"merge {rank + 1} ({left}, {right}) appears twice: each pair may merge once")
            for part in (left, right):
                if part not in self._tokens:
                    raise FormatError(f"merge {rank + 1} uses token id {part}, which no earlier line defines")
            if self._tokens[left].ends_word:
                raise FormatError(f"merge {rank + 1} puts the end-of-word marker before other symbols")
            self._add_id(new_id, self._tokens[left].merged_with(self._tokens[right]), f"merge {rank + 1}")
            self._ranks[left, right] = rank
            self._merges.append((left, right, new_id))
        self.special_tokens: dict[str, int] = {}
        for text, token_id in special_tokens.items():
            self._add_id(token_id, Token(text.encode("utf-8")), f"special token {text!r}")
            self.special_tokens[text] = token_id
        self._special_ids = {token_id: text for text, token_id in self.special_tokens.items()}
        # A byte-level word needs no marker or alphabet check: the hot miss path skips them.
        plain_bytes = unit == "byte" and end_of_word is None
        self._word_cache = _ChunkCache(self._merge_bytes if plain_bytes else self._merge_word)
        # Without a marker a word and a gap with the same text encode alike: share one cache.
        self._gap_cache = self._word_cache if end_of_word is None else _ChunkCache(self._merge_gap)
        # Subtle: GPT-2's and GPT-4's patterns match every character (letters, numbers, other
        # symbols, whitespace each have a branch), so their splits have no gaps and the words
        # alone are every piece; ``none`` gives the whole text as one word.
        self._split_words: Callable[[str], list[str]] | None = None
        if self.pretokenizer.name in ASCII_PATTERNS:
            self._split_words = partial(split_words, self.pretokenizer)
        elif self.pretokenizer.name == "none":
            self._split_words = self.pretokenizer.words

    def _add_id(self, token_id: int, token: Token, what: str) -> None:
        if isinstance(token_id, bool) or not isinstance(token_id, int) or token_id < 0:
            raise FormatError(f"{what} has id {token_id!r}; ids must be whole numbers from 0")
        if token_id in self._tokens:
            raise FormatError(f"{what} reuses id {token_id}: every token needs its own id")
        self._tokens[token_id] = token

    @classmethod
    def from_trace(
        cls, trace: Trace, *, step: int | None = None, pretokenizer: str | None = None, name: str = ""
    ) -> "Tokenizer":
        """The tokenizer after ``step`` merges of ``trace`` (all of them by default).

        Ids stay those of the full run, so special tokens keep their ids at every step.
        ``pretokenizer`` replaces the run's split, e.g. ``"none"`` to segment a word-table word whole.
        """
        merges = len(trace.steps) if step is None else trace.check_step(step)
        settings = trace.settings
        return cls(
            unit=settings.unit,
            pretokenizer=settings.pretokenizer if pretokenizer is None else pretokenizer,
            end_of_word=settings.end_of_word,
            base=dict(enumerate(trace.base)),
            merges=[(s.left, s.right, s.new_id) for s in trace.steps[:merges]],
            special_tokens=trace.special_ids,
            name=name,
        )

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
    def tokens(self) -> dict[int, Token]:
        """``id -> Token`` (a copy)."""
        return dict(self._tokens)

    @property
    def marker_id(self) -> int | None:
        return self._marker_id

    def token_text(self, token_id: int) -> str:
        """How token ``token_id`` is spelled (invalid UTF-8 as ``\\x..`` escapes)."""
        return token_text(self._token(token_id), self.end_of_word)

    def is_special(self, token_id: int) -> bool:
        return token_id in self._special_ids

    def _token(self, token_id: int) -> Token:
        token = self._tokens.get(token_id)
        if token is None:
            raise UnknownTokenError(f"unknown token id {token_id!r}: this tokenizer has no such id")
        return token

    # -- encoding -------------------------------------------------------------------------------
    def encode(
        self, text: str, *, allowed_special: SpecialSet = frozenset(), disallowed_special: SpecialSet = "all"
    ) -> list[int]:
        """Text -> ids. Special-token text raises unless allowed (tiktoken's safe default)."""
        ids: list[int] = []
        for piece, is_special in self._split_special(text, allowed_special, disallowed_special):
            if is_special:
                ids.append(self.special_tokens[piece])
            else:
                ids.extend(self.encode_ordinary(piece))
        return ids

    def encode_iterable(
        self, texts: Iterable[str], *, allowed_special: SpecialSet = frozenset(), disallowed_special: SpecialSet = "all"
    ) -> Iterator[int]:
        """The ids of ``"".join(texts)``, yielded lazily in bounded memory (see :mod:`bpe.streaming`)."""
        return encode_iterable(self, texts, allowed_special=allowed_special, disallowed_special=disallowed_special)

    def encode_ordinary(self, text: str) -> list[int]:
        """Text -> ids, treating special-token text as plain text."""
        if self._split_words is not None:  # the hot path: one cache lookup per chunk, from C
            return list(chain.from_iterable(map(self._word_cache.__getitem__, self._split_words(text))))
        ids: list[int] = []
        for piece, is_word in self.pretokenizer.split(text):
            ids.extend(self._encode_chunk(piece, is_word))
        return ids

    def encode_walkthrough(
        self, text: str, *, allowed_special: SpecialSet = frozenset(), disallowed_special: SpecialSet = "all"
    ) -> list[ChunkWalk]:
        """Like :meth:`encode`, but returns every chunk with each merge applied to it, in order."""
        walks: list[ChunkWalk] = []
        for piece, is_special in self._split_special(text, allowed_special, disallowed_special):
            if is_special:
                walks.append(ChunkWalk(piece, "special", (self.special_tokens[piece],), ()))
                continue
            for chunk, is_word in self.pretokenizer.split(piece):
                initial = self._initial_ids(chunk, is_word)
                walks.append(ChunkWalk(chunk, "word" if is_word else "gap", tuple(initial), self._walk(initial)))
        return walks

    def _split_special(
        self, text: str, allowed_special: SpecialSet, disallowed_special: SpecialSet
    ) -> list[tuple[str, bool]]:
        every = set(self.special_tokens)
        allowed = every if allowed_special == "all" else set(allowed_special)
        disallowed = every - allowed if disallowed_special == "all" else set(disallowed_special)
        unknown = sorted((allowed | disallowed) - every)
        if unknown:
            raise SpecialTokenError(
                f"{', '.join(map(repr, unknown))} {'is not a special token' if len(unknown) == 1 else 'are not special tokens'}"
                f" of this tokenizer (it has: {', '.join(map(repr, sorted(every))) or 'none'})"
            )
        if disallowed:
            found = special_token_pattern(disallowed).search(text)
            if found:
                token = found.group()
                raise SpecialTokenError(
                    f"the text contains the special token {token!r}, which is not allowed. To encode it "
                    f"as a special token pass allowed_special={{{token!r}}} (or \"all\"); to encode it "
                    "as plain text pass disallowed_special=()"
                )
        return split_special(text, special_token_pattern(allowed))

    def _initial_ids(self, chunk: str, is_word: bool) -> list[int]:
        if self.unit == "byte":
            ids = list(map(self._byte_ids.__getitem__, chunk.encode("utf-8")))
        else:
            try:
                ids = [self._char_ids[char] for char in chunk]
            except KeyError:
                unknown = sorted({char for char in chunk if char not in self._char_ids})
                shown = ", ".join(f"{char!r} (U+{ord(char):04X})" for char in unknown[:5])
                raise UnknownTokenError(
                    f"{shown} {'is' if len(unknown) == 1 else 'are'} not in this char-level vocabulary; "
                    "train on text that contains them, or use the byte unit, which covers every text"
                ) from None
        if is_word and self.end_of_word is not None:
            ids = mark_word(ids, mode=self.end_of_word_mode, marker_id=self._marker_id, attached=self._attached,
                            spell=lambda token_id: repr(self.token_text(token_id)))
        return ids

    def _encode_chunk(self, chunk: str, is_word: bool) -> tuple[int, ...]:
        return (self._word_cache if is_word else self._gap_cache)[chunk]

    def _merge_bytes(self, chunk: str) -> tuple[int, ...]:
        ids = list(map(self._byte_ids.__getitem__, chunk.encode("utf-8")))
        return tuple(self._merge_long(ids) if len(ids) >= _LONG_CHUNK else self._merge_short(ids))

    def _merge_word(self, chunk: str) -> tuple[int, ...]:
        ids = self._initial_ids(chunk, True)
        return tuple(self._merge_long(ids) if len(ids) >= _LONG_CHUNK else self._merge_short(ids))

    def _merge_gap(self, chunk: str) -> tuple[int, ...]:
        ids = self._initial_ids(chunk, False)
        return tuple(self._merge_long(ids) if len(ids) >= _LONG_CHUNK else self._merge_short(ids))

    def _merge_short(self, ids: list[int]) -> list[int]:
        """Merge the leftmost lowest-ranked pair, one at a time, updating only its neighbours.

        This is :meth:`_walk`'s "every occurrence, left to right" one occurrence at a time: a
        merged token only joins merges of higher rank, so the next lowest rank is the same pair
        again until its occurrences run out (tiktoken's loop, with our ranks of pairs).
        ``ids=[1, 2, 3, 1, 2]`` with ``(1, 2) -> 4`` -> ``[4, 3, 1, 2]`` -> ``[4, 3, 4]``.
        """
        rank_of = self._ranks.get
        merges = self._merges
        pair_ranks = list(map(rank_of, zip(ids, ids[1:]), repeat(_NO_RANK)))  # pair_ranks[i]: (ids[i], ids[i+1])
        last = len(pair_ranks) - 1  # kept by hand: this loop runs ~35,000 times for the python docs
        while last >= 0:
            rank = min(pair_ranks)
            if rank == _NO_RANK:
                break
            i = pair_ranks.index(rank)
            new_id = ids[i] = merges[rank][2]
            del ids[i + 1], pair_ranks[i]
            if i:
                pair_ranks[i - 1] = rank_of((ids[i - 1], new_id), _NO_RANK)
            if i < last:
                pair_ranks[i] = rank_of((new_id, ids[i + 1]), _NO_RANK)
            last -= 1
        return ids

    def _merge_long(self, ids: list[int]) -> list[int]:
        """The same merges as :meth:`_merge_short` in O(n log n): a heap of (rank, position).

        Popping the lowest (rank, position) merges a pair's occurrences left to right; entries
        made stale by an earlier merge are recognised and skipped.
        """
        ranks, merges = self._ranks, self._merges
        size = len(ids)
        symbols = list(ids)
        following = list(range(1, size + 1))
        preceding = list(range(-1, size - 1))
        alive = [True] * size
        heap = [(ranks[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in ranks]
        heapq.heapify(heap)
        while heap:
            rank, i = heapq.heappop(heap)
            j = following[i] if alive[i] else size
            if j >= size or ranks.get((symbols[i], symbols[j])) != rank:
                continue  # stale: one side was merged away since this entry was pushed
            symbols[i] = merges[rank][2]
            alive[j] = False
            following[i] = following[j]
            if following[j] < size:
                preceding[following[j]] = i
            for a in (preceding[i], i):
                b = following[a] if a >= 0 else size
                if a >= 0 and b < size:
                    new_rank = ranks.get((symbols[a], symbols[b]))
                    if new_rank is not None:
                        heapq.heappush(heap, (new_rank, a))
        return [symbol for symbol, keep in zip(symbols, alive) if keep]

    def _walk(self, ids: list[int]) -> tuple[AppliedMerge, ...]:
        applied: list[AppliedMerge] = []
        ranks = self._ranks
        while len(ids) > 1:
            rank = min(map(ranks.get, zip(ids, ids[1:]), repeat(_NO_MERGE)))
            if rank == _NO_MERGE:
                break
            left, right, new_id = self._merges[rank]
            positions = pair_positions(ids, left, right)
            ids = replace_pair(ids, left, right, new_id)
            applied.append(AppliedMerge(rank, left, right, new_id, positions, tuple(ids)))
        return tuple(applied)

    # -- decoding -------------------------------------------------------------------------------
    def decode_single_token_bytes(self, token_id: int) -> bytes:
        return self._token(token_id).data

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """Each id's bytes separately (for showing tokens; may split a character)."""
        ids = list(ids)
        self._check_ids(ids)
        return [self._tokens[token_id].data for token_id in ids]

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        return b"".join(self.decode_tokens_bytes(ids))

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Ids -> text. ``errors="replace"`` shows a partial UTF-8 sequence as U+FFFD (�)."""
        data = self.decode_bytes(ids)
        try:
            return data.decode("utf-8", errors=errors)
        except UnicodeDecodeError as error:
            raise BpeError(
                f"the ids decode to bytes that are not valid UTF-8 ({data[error.start:error.end]!r} at byte "
                f"{error.start}: part of a character); decode with errors='replace' to show it as \ufffd"
            ) from None
        except LookupError:
            raise BpeError(f"unknown errors mode {errors!r}: use 'replace' or 'strict'") from None

    def _check_ids(self, ids: list[int]) -> None:
        unknown = [token_id for token_id in ids if token_id not in self._tokens]
        if unknown:
            shown = ", ".join(map(repr, list(dict.fromkeys(unknown))[:10]))
            raise UnknownTokenError(
                f"unknown token id{'s' if len(unknown) > 1 else ''} {shown}: ids run from 0 to "
                f"{max(self._tokens)} and must be in this tokenizer's vocabulary"
            )

    # -- our own JSON ---------------------------------------------------------------------------
    def to_json(self) -> str:
        base_items = list(self._tokens.items())[: self._base_count]
        return json.dumps(
            {
                "format": TOKENIZER_FORMAT,
                "version": TOKENIZER_VERSION,
                "name": self.name,
                "unit": self.unit,
                "pretokenizer": self.pretokenizer.name,
                "end_of_word": self.end_of_word,
                "base": [[token_id, token.data.hex(), token.ends_word] for token_id, token in base_items],
                "merges": [list(merge) for merge in self._merges],
                "special_tokens": self.special_tokens,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> "Tokenizer":
        data = read_versioned_json(
            text, format=TOKENIZER_FORMAT, version=TOKENIZER_VERSION, what="tokenizer file"
        )
        try:
            base = {}
            for token_id, hex_data, ends_word in data["base"]:
                if token_id in base:
                    raise FormatError(f"base token id {token_id} appears twice")
                base[token_id] = Token(bytes.fromhex(hex_data), bool(ends_word))
            merges = [(left, right, new_id) for left, right, new_id in data["merges"]]
            return cls(
                unit=data["unit"],
                pretokenizer=data["pretokenizer"],
                end_of_word=data.get("end_of_word"),
                base=base,
                merges=merges,
                special_tokens=data.get("special_tokens") or {},
                name=data.get("name", ""),
            )
        except FormatError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(f"the tokenizer file is malformed: {error!r}") from error

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as file:
            file.write(self.to_json())

    @classmethod
    def load(cls, path: str) -> "Tokenizer":
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except UnicodeDecodeError:
            raise FormatError(f"{path} is not UTF-8 text, so it is not a BPE Lab tokenizer file") from None
        return cls.from_json(text)


