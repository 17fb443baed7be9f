"""A learner's encoder as five stages, each with the right way and the classic wrong ones.

Scope: the stages an encoder passes a text through, in order (the lines a learner writes), each a
registry of ways: ``cut`` (special-token text read as special tokens, or as text), ``split`` (the
tokenizer's own pre-tokenizer, none, or another pattern), ``start`` (its own starting symbols, or
whole characters where it starts from bytes), ``loop`` (the merge loop: by rank, or a classic
wrong one) and ``number`` (the tokenizer's ids, or one off). An :class:`EncoderShape` names one way
of each, so two mistakes on two lines compose (:meth:`EncoderShape.changed`). Out of scope: which
shapes are mistakes and their words (:mod:`bpe.checking.encode_rules`).

The merge loops a learner writes, beside BPE's own (the pair with the lowest rank, every place it
occurs, left to right, until no pair has a merge):

* ``left-to-right``: merge the first pair met that has any merge, there only, then start again
  (a well-known course's notebook: ``·embraced`` -> ``·e m b ra ce d`` where rank order gives
  ``·e m b r ac ed``);
* ``left-to-right-everywhere``: the first pair met that has any merge, merged everywhere in the
  chunk (minbpe's ``merge()`` reused), then again;
* ``all-at-once``: one sweep merges every pair that has a merge, whatever its rank, sweep again;
* ``rightmost-first``: the last pair that has a merge first;
* ``longest-match``: the longest token that starts here, then on (a textbook's ``segment_BPE``);
* ``merged-token-rank``: a pair's priority is the id of the token it makes, not its merge's rank;
  ``any-spelling``: any pair whose parts spell a token, the smallest id first;
* ``unknown-first``: ``min(pairs, key=lambda p: ranks.get(p, 0))``: a pair with no merge ranks 0,
  wins, and the loop stops there (``if pair not in ranks: break``) while known pairs are left.

    >>> from bpe import Corpus, TrainSettings, train
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("bc bc bc ab ab", pretokenizer="whitespace"),
    ...                                  TrainSettings(pretokenizer="whitespace", merges=2)))
    >>> [tok.token_text(i) for i in encode_as(tok, "abc", EncoderShape())]                    # b + c first: rank 1
    ['a', 'bc']
    >>> [tok.token_text(i) for i in encode_as(tok, "abc", EncoderShape(loop="left-to-right"))]
    ['ab', 'c']
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from types import MappingProxyType

from ..encoding.merge_loop import merge_ids
from ..encoding.segmentation import TokenPieces, longest_cut
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..text.pretokenize import GPT2_PATTERN, Pretokenizer
from ..text.special_text import SPECIAL_TEXT_MODES, split_special_text
from .rules import Ids, replace_left_to_right

MODES: MappingProxyType[str, dict] = MappingProxyType({
    name: SPECIAL_TEXT_MODES[name].encode_args for name in ("allowed", "plain")  # refused text has no ids to check
})
"""How special-token text is read: as special tokens, or as plain text (``encode``'s arguments)."""
LONGEST_CHUNK = 1_000
"""A chunk of more symbols is not re-encoded by the loops that start again after each merge: they
cost the square of its length (a text the ``none`` split leaves whole). The check then says no such
mistake reproduces that text."""
LEARNER_SPLITS = MappingProxyType({
    "gpt2-greedy-spaces": GPT2_PATTERN.replace(r"\s++$|\s+(?!\S)|\s", r"\s+"),
    "gpt2-word-class": r"""'s|'t|'re|'ve|'m|'ll|'d| ?\w+| ?\d+| ?[^\s\w\d]+|\s+(?!\S)|\s+""",
})
r"""Patterns learners type for GPT-2's: its whitespace alternatives as one ``\s+`` (a run of spaces or
line breaks then stays whole, and the word after it loses its space), and ``re``'s ``\w``/``\d`` for
``\p{L}``/``\p{N}`` (letters, digits and ``_`` then join)."""


def _bounded(merge: Callable[[TokenPieces, Ids], Ids]) -> Callable[[TokenPieces, Ids], Ids]:
    def bounded(pieces: TokenPieces, ids: Ids) -> Ids:
        if len(ids) > LONGEST_CHUNK:
            raise BpeError(f"a chunk of {len(ids):,} symbols is over the {LONGEST_CHUNK:,} this loop is re-run on")
        return merge(pieces, ids)
    return bounded


def _replace_all(ids: Ids, pair: tuple[int, int], new: int) -> Ids:
    """minbpe's ``merge(ids, pair, idx)``: ``[1, 2, 3, 1, 2], (1, 2), 4 -> [4, 3, 4]``."""
    return replace_left_to_right(ids, pair[0], pair[1], new)


def _restart(pick: Callable[[list[int]], int | None], *, everywhere: bool = False) -> Callable[[TokenPieces, Ids], Ids]:
    """A loop that merges the pair at ``pick(pair positions)`` (``everywhere``: every place it occurs) and
    starts again until none is picked."""
    @_bounded
    def merge(pieces: TokenPieces, ids: Ids) -> Ids:
        ranks, merges = pieces.ranks, pieces.merges
        while True:
            at = pick([i for i, pair in enumerate(zip(ids, ids[1:])) if pair in ranks])
            if at is None:
                return ids
            pair = (ids[at], ids[at + 1])
            new = merges[ranks[pair]][2]
            ids = _replace_all(ids, pair, new) if everywhere else ids[:at] + [new] + ids[at + 2:]
    return merge


@_bounded
def _sweeps(pieces: TokenPieces, ids: Ids) -> Ids:
    """Sweep left to right merging every pair that has a merge; sweep again until nothing changes."""
    ranks, merges = pieces.ranks, pieces.merges
    while True:
        out, i, changed = [], 0, False
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) in ranks:
                out.append(merges[ranks[ids[i], ids[i + 1]]][2])
                i, changed = i + 2, True
            else:
                out.append(ids[i])
                i += 1
        if not changed:
            return out
        ids = out


def _by_merged_token(any_spelling: bool) -> Callable[[TokenPieces, Ids], Ids]:
    """Merge the pair whose merged token has the smallest id, every place it occurs; ``any_spelling``:
    any pair whose parts spell a token counts (tiktoken's rule), not only the pairs that are merges."""
    @_bounded
    def merge(pieces: TokenPieces, ids: Ids) -> Ids:
        by_run, runs, ranks, merges = pieces.by_run, pieces.runs, pieces.ranks, pieces.merges
        while len(ids) > 1:
            if any_spelling:
                made = {pair: by_run.get(runs.get(pair[0], chr(pair[0])) + runs.get(pair[1], chr(pair[1])))
                        for pair in zip(ids, ids[1:])}
            else:
                made = {pair: merges[ranks[pair]][2] if pair in ranks else None for pair in zip(ids, ids[1:])}
            made = {pair: token for pair, token in made.items() if token is not None}
            if not made:
                break
            pair = min(made, key=made.__getitem__)
            ids = _replace_all(ids, pair, made[pair])
        return ids
    return merge


def _unknown_first(pieces: TokenPieces, ids: Ids) -> Ids:
    """``min(pairs, key=lambda p: ranks.get(p, 0))``: a pair with no merge wins, and the loop stops."""
    ranks, merges = pieces.ranks, pieces.merges
    while len(ids) >= 2:
        pair = min(zip(ids, ids[1:]), key=lambda p: ranks.get(p, 0))  # first of the lowest, as min() keeps
        if pair not in ranks:
            break
        ids = _replace_all(ids, pair, merges[ranks[pair]][2])
    return ids


def _by_rank(pieces: TokenPieces, ids: Ids) -> Ids:
    return merge_ids(list(ids), pieces.ranks, pieces.made)


LOOPS: MappingProxyType[str, Callable[[TokenPieces, Ids], Ids]] = MappingProxyType({
    "by-rank": _by_rank,
    "left-to-right": _restart(lambda known: known[0] if known else None),
    "left-to-right-everywhere": _restart(lambda known: known[0] if known else None, everywhere=True),
    "all-at-once": _sweeps,
    "rightmost-first": _restart(lambda known: known[-1] if known else None),
    "longest-match": lambda pieces, ids: longest_cut(pieces, "".join(map(chr, ids))),
    "merged-token-rank": _by_merged_token(False),
    "any-spelling": _by_merged_token(True),
    "unknown-first": _bounded(_unknown_first),
})
"""Every merge loop, the right one (``by-rank``) first."""


def _characters(tokenizer: Tokenizer, pieces: TokenPieces, ids: Ids) -> Ids:
    """A byte-level tokenizer's encoder that starts from whole characters: each character one symbol
    when a token spells it, else its bytes (a learner's ``list(text)`` looked up in the vocabulary)."""
    byte_of = {token_id: byte for byte, token_id in enumerate(tokenizer.byte_ids(bytes(range(256))))}
    symbols, i = [], 0
    while i < len(ids):
        lead = byte_of.get(ids[i], 0)
        width = 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        whole = pieces.by_run.get("".join(map(chr, ids[i:i + width]))) if width > 1 else None
        symbols += [whole] if whole is not None else ids[i:i + width]
        i += width
    return symbols


STARTS: MappingProxyType[str, Callable[[Tokenizer, TokenPieces, Ids], Ids]] = MappingProxyType({
    "own": lambda tokenizer, pieces, ids: ids,
    "characters": _characters,
})


def _shifted(by: int, merged_only: bool) -> Callable[[Tokenizer, Ids], Ids]:
    def number(tokenizer: Tokenizer, ids: Ids) -> Ids:
        first_merged = len(tokenizer.base)
        return [token + by if token >= first_merged or not merged_only else token for token in ids]
    return number


NUMBERS: MappingProxyType[str, Callable[[Tokenizer, Ids], Ids]] = MappingProxyType({
    "own": lambda tokenizer, ids: ids,
    "every+1": _shifted(1, False), "every-1": _shifted(-1, False),
    "merged+1": _shifted(1, True), "merged-1": _shifted(-1, True),
})


@dataclass(frozen=True)
class EncoderShape:
    """One way of each stage; the defaults are the tokenizer's own (``cut=None``: as the check reads
    special-token text)."""

    cut: str | None = None
    """``allowed`` or ``plain`` (:data:`MODES`); None: the check's mode."""
    split: str = "own"
    """``own``, ``none``, a named pre-tokenizer or a :data:`LEARNER_SPLITS` name."""
    start: str = "own"
    loop: str = "by-rank"
    number: str = "own"

    def changed(self, other: "EncoderShape") -> "EncoderShape | None":
        """This shape with ``other``'s changes too (each from the default); None when both change one stage."""
        changes = {}
        for f in fields(self):
            mine, theirs, default = getattr(self, f.name), getattr(other, f.name), f.default
            if mine != default and theirs != default and mine != theirs:
                return None
            changes[f.name] = mine if mine != default else theirs
        return replace(self, **changes)

    @property
    def stages(self) -> tuple[str, ...]:
        """The stages this shape changes."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) != f.default)


def _splitter(name: str) -> Pretokenizer | None:
    if name == "none":
        return None
    return Pretokenizer.parse(f"regex:{LEARNER_SPLITS[name]}" if name in LEARNER_SPLITS else name)


def _chunks(tokenizer: Tokenizer, text: str, mode: str, split: str) -> list[tuple[bool, Ids]]:
    """``(is special, starting ids)`` per chunk, cut as ``split`` cuts (``own``: as the tokenizer does)."""
    if split == "own":
        return [(walk.kind == "special", list(walk.initial))
                for walk in tokenizer.encode_walkthrough(text, walk=False, **MODES[mode])]
    splitter = _splitter(split)
    chunks: list[tuple[bool, Ids]] = []
    defaults = tokenizer.special_defaults(MODES[mode]["allowed_special"], MODES[mode]["disallowed_special"])
    for piece, special in split_special_text(tokenizer.pretokenizer.normalize(text), tokenizer.special_tokens, *defaults):
        if special:
            chunks.append((True, [tokenizer.special_tokens[piece]]))
            continue
        for chunk in [piece] if splitter is None else splitter.words(piece):
            chunks.append((False, _symbols(tokenizer, chunk)))
    return chunks


def _symbols(tokenizer: Tokenizer, chunk: str) -> Ids:
    if tokenizer.unit == "byte":
        return tokenizer.byte_ids(chunk.encode("utf-8"))
    by_char = {token.data.decode("utf-8", errors="replace"): token_id for token_id, token in tokenizer.base.items()}
    try:
        return [by_char[char] for char in chunk]
    except KeyError as error:
        raise BpeError(f"{error.args[0]!r} is not in this char-level vocabulary") from None


def _pieces(tokenizer: Tokenizer) -> TokenPieces:
    """The tokenizer's runs of symbols, which the mistaken loops read; a :class:`~bpe.errors.BpeError`
    when they cannot be built (subtle: a table whose merge uses a token made by a later one, as
    Qwen 3.6's and Llama 3's do, is not spelled in merge order by ``TokenPieces`` yet), so the check
    says these loops cannot be tried instead of failing."""
    if tokenizer in _UNREPLAYABLE:
        raise BpeError(_UNREPLAYABLE[tokenizer])
    try:
        return TokenPieces.of(tokenizer)
    except KeyError as error:
        _UNREPLAYABLE[tokenizer] = (f"this tokenizer's merges cannot be replayed in the order learned (a merge uses "
                                    f"token {error.args[0]}, made later), so a mistaken merge loop cannot be tried on it")
        raise BpeError(_UNREPLAYABLE[tokenizer]) from None


_UNREPLAYABLE: "weakref.WeakKeyDictionary[Tokenizer, str]" = weakref.WeakKeyDictionary()
"""Tokenizers whose runs could not be built, and why (building them again would fail again, slowly)."""


def encode_as(tokenizer: Tokenizer, text: str, shape: EncoderShape, *, mode: str = "allowed") -> Ids:
    """``text`` encoded as an encoder of this ``shape`` would (a :class:`~bpe.errors.BpeError` where it
    cannot: a chunk too long for a loop that starts again, a character a char-level vocabulary lacks)."""
    cut = shape.cut or mode
    if (shape.split, shape.start, shape.loop) == ("own", "own", "by-rank"):  # the tokenizer's own encode does it
        return NUMBERS[shape.number](tokenizer, tokenizer.encode(text, **MODES[cut]))
    pieces = _pieces(tokenizer)
    start, loop = STARTS[shape.start], LOOPS[shape.loop]
    out: Ids = []
    for special, ids in _chunks(tokenizer, text, cut, shape.split):
        out += ids if special else loop(pieces, start(tokenizer, pieces, ids))
    return NUMBERS[shape.number](tokenizer, out)
