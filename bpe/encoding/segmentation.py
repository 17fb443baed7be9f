"""Three ways to cut a text into tokens of one vocabulary: BPE's own, the fewest tokens, the longest match.

Scope: for any tokenizer and text, chunk by chunk (BPE never crosses a chunk, so neither do the
others): BPE's segmentation (what ``encode`` gives: the merges applied lowest rank first), the
fewest-token segmentation over the same vocabulary (dynamic programming), and greedy longest match
(the longest token that starts here, then on from its end: a textbook's ``segment_BPE``). One
registry, :data:`SEGMENTATIONS`, so a fourth way is one entry. Out of scope: drawing them
(:mod:`bpe.views.segmentations`).

All three cut the same symbols: a chunk's starting symbols (bytes or characters, with its
end-of-word marker), each written as one character (``chr(id)``) so that a run of symbols is a
``str`` and a token is the run it spells (:class:`TokenPieces`; a merged token spells its two
parts' runs). Among the segmentations with the fewest tokens, the one whose pieces are longest
from the left is taken, so it agrees with longest match wherever it can.

Why a model must be fed BPE's own: it was trained on ids that BPE's merges made, so it has seen
each word cut one way; a fewer-token cut of the same text (proposed to tiktoken, minbpe and
nanochat, about 0.5 % fewer tokens on English) is a sequence it never saw, and reads worse.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> gpt2 = load_pretrained("gpt2")
    >>> def shown(text): return [[gpt2.decode([i]) for i in cut.ids[name]] for cut in segment(gpt2, text) for name in SEGMENTATIONS]
    >>> shown(" recursively")                        # BPE's own, fewest tokens, longest match
    [[' rec', 'urs', 'ively'], [' recursive', 'ly'], [' recursive', 'ly']]
    >>> shown("yield")
    [['y', 'ield'], ['y', 'ield'], ['yi', 'el', 'd']]
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..registry import Registry
from ..text.pretokenize import SpecialSet
from .merge_loop import merge_ids, one_unknown_per_run
from .tokenizer import Tokenizer


class TokenPieces:
    """A tokenizer's vocabulary as runs of starting symbols: ``run -> token id``, and what BPE needs.

    Built once per tokenizer (:meth:`of` keeps it while the tokenizer lives): a pretrained
    vocabulary of 200,000 tokens takes a fraction of a second. Subtle: the server's sessions share
    it, as they share the tokenizer; it is safe because nothing changes it once built (it is
    derived from the tokenizer, whose merges never change).
    """

    _built: "weakref.WeakKeyDictionary[Tokenizer, TokenPieces]" = weakref.WeakKeyDictionary()

    def __init__(self, tokenizer: Tokenizer) -> None:
        runs = {token_id: chr(token_id) for token_id in tokenizer.base}
        if tokenizer.unit == "byte":
            for token_id, data in tokenizer.whole_only.items():  # tokens no merge makes (a rank file's)
                runs[token_id] = "".join(map(chr, tokenizer.byte_ids(data)))
        self.merges = tokenizer.merges
        self.runs = _spelled(runs, self.merges)
        """Per token id: the run of starting symbols it spells."""
        self.by_run: dict[str, int] = {}
        for token_id, run in runs.items():
            self.by_run.setdefault(run, token_id)  # two merges spelling the same run: the earlier token
        self.length = {token_id: len(run) for token_id, run in runs.items()}
        """Per token id: how many starting symbols it spells."""
        self.longest = max(self.length.values(), default=1)
        self.ranks = {(left, right): rank for rank, (left, right, _) in enumerate(self.merges)}
        self.made = [new_id for _, _, new_id in self.merges]
        """Per rank: the id its merge makes (what the merge loop reads)."""

    @classmethod
    def of(cls, tokenizer: Tokenizer) -> "TokenPieces":
        pieces = cls._built.get(tokenizer)
        if pieces is None:
            pieces = cls._built[tokenizer] = cls(tokenizer)
        return pieces

    def piece(self, run: str) -> int | None:
        """The token spelling ``run``; one symbol is always a token (itself, if no token spells it)."""
        return self.by_run.get(run, ord(run) if len(run) == 1 else None)


def _spelled(runs: dict[int, str], merges: Sequence[tuple[int, int, int]]) -> dict[int, str]:
    """``runs`` (the starting symbols' own) and every merged token's run, whatever the merges' order.

    subtle: a merge's parts may rank *after* it. A rank file's merges are recovered shortest token first
    (``bpe.formats.merge_recovery``), and ranks need not follow lengths: Llama 3 ranks ``".:.:"`` (id
    100,421) before its part ``".:."`` (105,051), Qwen3.6 ``"人力资源"`` before ``"资源"``. So a token is
    spelled after its parts, depth first, not in rank order.

    >>> _spelled({0: "a", 1: "b"}, [(0, 3, 2), (1, 1, 3)])   # 2 = a + bb, ranked before bb = 3
    {0: 'a', 1: 'b', 3: 'bb', 2: 'abb'}
    """
    parts = {new_id: (left, right) for left, right, new_id in merges}
    for new_id in parts:
        waiting = [new_id]
        while waiting:
            token_id = waiting[-1]
            if token_id in runs:
                waiting.pop()
                continue
            unspelled = [part for part in parts[token_id] if part not in runs]
            if unspelled:
                waiting += unspelled
            else:
                left, right = parts[token_id]
                runs[token_id] = runs[left] + runs[right]
                waiting.pop()
    return runs


def bpe_cut(pieces: TokenPieces, run: str) -> list[int]:
    """BPE's own: the learned merges, lowest rank first (the encoder's merge loop)."""
    return merge_ids(list(map(ord, run)), pieces.ranks, pieces.made)


def longest_cut(pieces: TokenPieces, run: str) -> list[int]:
    """Greedy longest match: ``"aaab"`` with tokens aa, aaa, ab -> aaa + b."""
    ids, i, end = [], 0, len(run)
    while i < end:
        j = min(end, i + pieces.longest)
        while j > i + 1 and run[i:j] not in pieces.by_run:
            j -= 1
        ids.append(pieces.piece(run[i:j]))
        i = j
    return ids


def fewest_cut(pieces: TokenPieces, run: str) -> list[int]:
    """The fewest tokens (dynamic programming from the right); among equals, longest pieces first."""
    end = len(run)
    fewest = [0] * (end + 1)  # fewest[i]: tokens needed for run[i:]
    step = [0] * (end + 1)  # step[i]: where the first piece of that best cut ends
    by_run = pieces.by_run
    for i in range(end - 1, -1, -1):
        best, best_end = end + 1, i + 1
        # longest first, down to one symbol (always a token): a later piece must be strictly better,
        # so equals keep the longest (the single symbol first, as before, made "abc" a+bc, not ab+c)
        for j in range(min(end, i + pieces.longest), i, -1):
            if fewest[j] + 1 < best and (j == i + 1 or run[i:j] in by_run):
                best, best_end = fewest[j] + 1, j
        fewest[i], step[i] = best, best_end
    ids, i = [], 0
    while i < end:
        ids.append(pieces.piece(run[i:step[i]]))
        i = step[i]
    return ids


@dataclass(frozen=True)
class Segmentation:
    name: str
    title: str
    summary: str
    """How it cuts, in a line."""
    cut: Callable[[TokenPieces, str], list[int]]


SEGMENTATIONS: Registry[Segmentation] = Registry("segmentation", entries=(
        Segmentation("bpe", "BPE's own", "the learned merges, lowest rank first: what the model was trained on", bpe_cut),
        Segmentation("fewest", "Fewest tokens", "the fewest tokens of the same vocabulary (dynamic programming)", fewest_cut),
        Segmentation("longest", "Longest match", "the longest token that starts here, then on from its end", longest_cut),
))
"""Every way to cut, BPE's own first (the others are compared with it)."""


@dataclass(frozen=True)
class ChunkCut:
    """One chunk of the text, cut every way."""

    text: str
    kind: str
    """``word``, ``gap`` or ``special`` (a special token is one token every way)."""
    ids: Mapping[str, tuple[int, ...]]
    """Segmentation name -> its ids for this chunk."""

    @property
    def differs(self) -> bool:
        return len(set(self.ids.values())) > 1


def segment(tokenizer: Tokenizer, text: str, *, allowed_special: SpecialSet | None = None,
            disallowed_special: SpecialSet | None = None, ways: Sequence[str] = tuple(SEGMENTATIONS)) -> list[ChunkCut]:
    """``text`` cut by each of ``ways`` (names in :data:`SEGMENTATIONS`), chunk by chunk (special tokens as
    ``encode`` reads them)."""
    pieces = TokenPieces.of(tokenizer)
    chosen = {name: SEGMENTATIONS.lookup(name) for name in ways}
    unknown = None if tokenizer.unknown_token is None else tokenizer.special_tokens[tokenizer.unknown_token]
    cache: dict[tuple[int, ...], Mapping[str, tuple[int, ...]]] = {}  # a chunk repeated is cut once
    chunks: list[ChunkCut] = []
    last: dict[str, int] = {}  # each way's last id so far
    for walk in tokenizer.encode_walkthrough(text, allowed_special=allowed_special, disallowed_special=disallowed_special,
                                             walk=False):
        cut = cache.get(walk.initial)
        if cut is None:
            run = "".join(map(chr, walk.initial))
            cut = cache[walk.initial] = MappingProxyType({  # unknown characters side by side: one unknown token, as encode has them
                name: tuple(one_unknown_per_run(entry.cut(pieces, run), unknown)) for name, entry in chosen.items()
            })
        if unknown is not None:  # subtle: and across chunks (SentencePiece's split cuts "a,!" as ▁a | , | !)
            cut = MappingProxyType({name: ids[1:] if ids[:1] == (unknown,) and last.get(name) == unknown else ids
                                    for name, ids in cut.items()})
            last |= {name: ids[-1] for name, ids in cut.items() if ids}
        chunks.append(ChunkCut(walk.text, walk.kind, cut))
    return chunks


def token_counts(chunks: Sequence[ChunkCut]) -> dict[str, int]:
    """Segmentation name -> how many tokens it makes of the whole text."""
    return {name: sum(len(chunk.ids[name]) for chunk in chunks) for name in chunks[0].ids} if chunks else {}
