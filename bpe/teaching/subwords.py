"""Why subwords: a training text cut by words, characters, bytes and BPE, measured on text held out.

Every course that teaches BPE starts here (Stanford CS336's first lecture, the Hugging Face course):
a word-level vocabulary, the N most frequent training words plus ``[UNK]`` for every other, leaves
the held-out text's rarer words as ``[UNK]`` however large N grows; a character- or byte-level one
spells every word but spends a token per character or byte; BPE's merges sit in between, and
each merge moves the run from one end towards the other.

What is counted (``tests/test_subwords.py`` works a toy by hand):

* a **word** is a run of letters and digits, or one other character that is not a space
  (``\\w+|[^\\w\\s]``, BERT's basic split): the word tokenizer's tokens, and what "per word" divides by;
* **characters** and **bytes**: every character (or UTF-8 byte) of the text, spaces included;
* **BPE at k merges**: the run's first k merges applied to each piece its pre-tokenizer cuts, as
  its encoder does (the end-of-word marker on words);
* **[UNK]**: a held-out word outside the N, or a character the training text never had (a
  char-level vocabulary's; bytes cover every text);
* the **vocabulary**: N + 1 (``[UNK]``); the training text's characters + 1; 256 bytes; BPE's
  base + k (+ 1 ``[UNK]`` for the char unit);
* the **[UNK] rate**: ``[UNK]`` tokens over all the held-out text's tokens.

Why BPE at every k costs one pass: encoding applies merges lowest rank first, and a merge can only
make pairs of higher rank (its token did not exist before it), so the merges a piece goes through
come in rank order, and the piece at k merges is its walk cut before rank k. Each piece is walked
once; the tokens at any k are the start minus the replacements of ranks below k.

    >>> from bpe import Corpus, TrainSettings, train
    >>> training = "the cat sat on the mat the end"
    >>> trace = train(Corpus.from_text(training, pretokenizer="whitespace"),
    ...               TrainSettings(unit="char", pretokenizer="whitespace", merges=3, min_frequency=1))
    >>> lab = SubwordLab(trace, training, "the cat ate the rat")
    >>> lab.words_at(2)[2:5], lab.characters()[2:5], lab.bpe_at(3)[2:5]   # (vocabulary, tokens, [UNK])
    ((3, 5, 2), (12, 19, 1), (15, 12, 1))

Out of scope: training (the page's run, ``ui/subwords.py``) and drawing (:mod:`bpe.views.subwords`).
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from typing import NamedTuple

import regex

from ..encoding.merge_loop import AppliedMerge, walk_merges
from ..errors import UnknownTokenError
from ..text.pretokenize import Pretokenizer
from ..tokens.end_of_word import mark_word, marker_ids
from ..training.trace import Trace

WORD = regex.compile(r"\w+|[^\w\s]")
"""A word: letters and digits, or one other character that is not a space (BERT's basic split)."""
UNKNOWN = "[UNK]"
UNKNOWN_ID = -1
"""The id a character outside a char-level vocabulary gets here: no merge has it, so it stays one token."""
KINDS = ("words", "characters", "bytes", "bpe")
"""The tokenizers the lesson sets side by side, from the first a course shows to the last."""
CURVE_POINTS = 40
"""About how many places a curve over N or k is measured at (this run's own place besides)."""


class Measure(NamedTuple):
    """One tokenizer's cost on the held-out text."""

    kind: str
    """One of :data:`KINDS`."""
    size: int
    """N (words) or k (BPE); 0 for characters and bytes."""
    vocabulary: int
    tokens: int
    unknown: int
    """How many of the tokens are ``[UNK]``."""
    words: int
    """The held-out text's words (what tokens per word divides by)."""

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    @property
    def unknown_rate(self) -> float:
        return self.unknown / self.tokens if self.tokens else 0.0


class HeldOutToken(NamedTuple):
    """One token of the held-out text as a tokenizer cuts it: its id, the text it stands for, and
    whether it is ``[UNK]`` (then ``data`` is what it stands in for)."""

    token_id: int
    data: bytes
    unknown: bool = False


def split_off(text: str, *, share: float = 0.1) -> tuple[str, str]:
    """``(training, held out)``: the last ``share`` of ``text`` held out, cut at the line or space
    nearest before that point (so no word is cut in two).

    >>> split_off("one two three four five six seven eight nine ten", share=0.2)
    ('one two three four five six seven', 'eight nine ten')
    """
    at = int(len(text) * (1 - share))
    cut = max(text.rfind("\n", 0, at + 1), text.rfind(" ", 0, at + 1))
    cut = at if cut <= 0 else cut
    return text[:cut], text[cut:].lstrip(" \n")


def sample_sizes(last: int, *, also: int | None = None, first: int = 0) -> list[int]:
    """About :data:`CURVE_POINTS` sizes from ``first`` to ``last``, denser near the start (where the
    curves bend), and ``also`` (the run's own place).

    >>> sample_sizes(5), sample_sizes(1000, also=333)[:6], 333 in sample_sizes(1000, also=333)
    ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], True)
    """
    if last - first <= CURVE_POINTS:
        sizes = set(range(first, last + 1))
    else:
        ratio = (last - first) ** (1 / CURVE_POINTS)
        sizes = {first, last} | {first + round(ratio ** i) for i in range(CURVE_POINTS + 1)}
        sizes |= set(range(first, first + 6))
    if also is not None and first <= also <= last:
        sizes.add(also)
    return sorted(size for size in sizes if first <= size <= last)


@dataclass(frozen=True)
class _Walked:
    """One distinct piece of the held-out text under the BPE run: how often it occurs, where it
    starts, and every merge its encoding applies, in rank order."""

    text: str
    count: int
    initial: tuple[int, ...]
    applied: tuple[AppliedMerge, ...]

    def ids_at(self, k: int) -> tuple[int, ...]:
        """Its ids after the run's first ``k`` merges."""
        done = bisect.bisect_left([merge.rank for merge in self.applied], k)
        return self.applied[done - 1].ids_after if done else self.initial


@dataclass(frozen=True)
class SubwordLab:
    """A BPE run, the text it was trained on, and a held-out text: every tokenizer's cost on the latter."""

    trace: Trace
    training: str
    held_out: str

    # -- words ---------------------------------------------------------------------------------
    @cached_property
    def ranked_words(self) -> tuple[str, ...]:
        """The training text's words, most frequent first (a tie: the one seen first)."""
        return tuple(word for word, _ in Counter(WORD.findall(self.training)).most_common())

    @cached_property
    def held_out_words(self) -> tuple[str, ...]:
        return tuple(WORD.findall(self.held_out))

    @cached_property
    def _ranks_sorted(self) -> list[int]:
        """Each held-out word's rank among the training words (unseen: past the last), sorted."""
        rank = {word: index for index, word in enumerate(self.ranked_words)}
        return sorted(rank.get(word, len(rank)) for word in self.held_out_words)

    def words_at(self, n: int) -> Measure:
        """The word tokenizer of the ``n`` most frequent training words (``[UNK]`` for the rest)."""
        known = bisect.bisect_left(self._ranks_sorted, n)
        words = len(self.held_out_words)
        return Measure("words", n, n + 1, words, words - known, words)

    # -- characters and bytes ---------------------------------------------------------------------
    @cached_property
    def training_characters(self) -> frozenset[str]:
        return frozenset(self.training)

    def characters(self) -> Measure:
        unknown = sum(char not in self.training_characters for char in self.held_out)
        return Measure("characters", 0, len(self.training_characters) + 1, len(self.held_out), unknown, len(self.held_out_words))

    def bytes(self) -> Measure:
        return Measure("bytes", 0, 256, len(self.held_out.encode("utf-8")), 0, len(self.held_out_words))

    # -- BPE ------------------------------------------------------------------------------------
    @cached_property
    def _walked(self) -> tuple[tuple[_Walked, ...], tuple[_Walked, ...]]:
        """``(every distinct piece, the pieces in text order)`` under the run's merges."""
        trace, settings = self.trace, self.trace.settings
        merges = trace.merges()
        ranks = {(left, right): rank for rank, (left, right, _) in enumerate(merges)}
        char_ids = {} if settings.unit == "byte" else {
            token.data.decode("utf-8"): i for i, token in enumerate(trace.base) if not token.ends_word
        }
        marker, attached = marker_ids(trace.base)
        pieces = Pretokenizer.parse(settings.split_after(len(merges))).split(self.held_out)
        counts = Counter(pieces)
        walked: dict[tuple[str, bool], _Walked] = {}
        for piece, is_word in counts:
            ids = list(piece.encode("utf-8")) if settings.unit == "byte" else [char_ids.get(c, UNKNOWN_ID) for c in piece]
            if is_word and settings.end_of_word is not None:
                try:
                    ids = mark_word(ids, mode=settings.end_of_word_mode, marker_id=marker, attached=attached)
                except UnknownTokenError:
                    pass  # an unknown last character carries no marker: it is [UNK] all the same
            walked[piece, is_word] = _Walked(piece, counts[piece, is_word], tuple(ids), walk_merges(ids, ranks, merges))
        return tuple(walked.values()), tuple(walked[piece] for piece in pieces)

    @cached_property
    def _replaced_below(self) -> list[int]:
        """Replacements made by the merges of rank below k, for k = 0 .. len(merges)."""
        by_rank = [0] * (len(self.trace.steps) + 1)
        for piece in self._walked[0]:
            for merge in piece.applied:
                by_rank[merge.rank + 1] += piece.count * len(merge.positions)
        return list(accumulate(by_rank))

    @cached_property
    def _bpe_start(self) -> tuple[int, int]:
        """``(tokens, [UNK] tokens)`` before any merge."""
        pieces = self._walked[0]
        return (sum(p.count * len(p.initial) for p in pieces), sum(p.count * p.initial.count(UNKNOWN_ID) for p in pieces))

    def bpe_at(self, k: int) -> Measure:
        """The run after its first ``k`` merges."""
        self.trace.check_step(k)
        start, unknown = self._bpe_start
        extra = 1 if self.trace.settings.unit == "char" else 0  # a char-level vocabulary needs [UNK]
        vocabulary = len(self.trace.base) + k + extra
        return Measure("bpe", k, vocabulary, start - self._replaced_below[k], unknown, len(self.held_out_words))

    # -- curves and the drawn text -----------------------------------------------------------------
    def words_curve(self, *, also: int | None = None) -> list[Measure]:
        return [self.words_at(n) for n in sample_sizes(len(self.ranked_words), also=also, first=1)]

    def bpe_curve(self, *, also: int | None = None) -> list[Measure]:
        return [self.bpe_at(k) for k in sample_sizes(len(self.trace.steps), also=also)]

    def tokens(self, kind: str, size: int, *, limit: int) -> list[HeldOutToken]:
        """The held-out text's first ``limit`` tokens under ``kind`` at ``size``."""
        if kind == "words":
            rank = {word: index for index, word in enumerate(self.ranked_words[:size])}
            return [
                HeldOutToken(rank.get(word, UNKNOWN_ID), word.encode("utf-8"), word not in rank)
                for word in self.held_out_words[:limit]
            ]
        if kind == "characters":
            known = {char: index for index, char in enumerate(sorted(self.training_characters))}
            return [HeldOutToken(known.get(c, UNKNOWN_ID), c.encode("utf-8"), c not in known) for c in self.held_out[:limit]]
        if kind == "bytes":
            return [HeldOutToken(b, bytes([b])) for b in self.held_out.encode("utf-8")[:limit]]
        if kind != "bpe":
            raise ValueError(f"unknown tokenizer kind {kind!r}: use one of {', '.join(KINDS)}")
        return self._bpe_tokens(size, limit)

    def _bpe_tokens(self, k: int, limit: int) -> list[HeldOutToken]:
        tokens, spelling = [], self.trace.tokens
        known = {token.data for token in self.trace.base}
        for piece in self._walked[1]:
            # [UNK]s never merge, so the n-th [UNK] of the piece is its n-th unknown character
            unknown = iter([char for char in piece.text if char.encode("utf-8") not in known])
            for token_id in piece.ids_at(k):
                if token_id == UNKNOWN_ID:
                    tokens.append(HeldOutToken(UNKNOWN_ID, next(unknown).encode("utf-8"), True))
                else:
                    tokens.append(HeldOutToken(token_id, spelling[token_id].data))
                if len(tokens) >= limit:
                    return tokens
        return tokens
