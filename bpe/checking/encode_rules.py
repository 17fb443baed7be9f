"""The classic mistakes of a hand-written BPE encoder: one registry, each with a stable code.

Scope: what each mistake is, its fix, and how to reproduce it: each :class:`EncodeVariant` encodes
a text as a learner's encoder with that one mistake would (right everywhere else). Out of scope:
comparing ids and choosing the likeliest mistake (:mod:`bpe.checking.encode_check`). This mirrors
:mod:`bpe.checking.mistakes`, the registry of a *trainer's* mistakes: adding a mistake is one entry.

The right rule, which the tokenizer's own ``encode`` follows: inside each chunk the pre-tokenizer
cut, merge the pair with the lowest rank (the merge learned earliest), every place it occurs, left
to right; repeat until no pair has a merge. The wrong ones (each a classic):

* ``left-to-right``: merge the first pair met that has any merge, then start again (a well-known
  course's notebook: ``·embraced`` -> ``·e m b ra ce d`` where rank order gives ``·e m b r ac ed``);
* ``all-at-once``: one sweep merges every pair that has a merge, whatever its rank, sweep again;
* ``rightmost-first``: the last pair that has a merge first;
* ``longest-match``: the longest token that starts here, then on (a textbook's ``segment_BPE``);
* ``merged-token-rank``: a pair's priority is the id of the token its parts spell together (any
  pair that spells a token is merged), not the rank of the pair's own merge;
* ``pretokenization``: no split before merging, or another split than the tokenizer's;
* ``special-tokens``: special-token text read as text when it should be one token, or the reverse;
* ``unit``: characters as the starting symbols of a byte-level tokenizer, or bytes of a char-level one;
* ``off-by-one``: every id (or every merged token's id) one more or one less.

    >>> from bpe import Corpus, TrainSettings, train
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("bc bc bc ab ab", pretokenizer="whitespace"),
    ...                                  TrainSettings(pretokenizer="whitespace", merges=2)))
    >>> [tok.token_text(i) for i in tok.encode("abc")]                   # b + c first: rank 1
    ['a', 'bc']
    >>> [tok.token_text(i) for i in ENCODER_MISTAKES["left-to-right"].variants(tok)[0].encode(tok, "abc", "allowed")]
    ['ab', 'c']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType

from ..encoding.merge_loop import merge_ids
from ..encoding.segmentation import TokenPieces, longest_cut
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..registry import Registry
from ..text.pretokenize import NAMED_PATTERNS, Pretokenizer
from ..text.special_text import SPECIAL_TEXT_MODES, split_special_text
from .rules import Ids
MODES: MappingProxyType[str, dict] = MappingProxyType({
    name: SPECIAL_TEXT_MODES[name].encode_args for name in ("allowed", "plain")  # refused text has no ids to check
})
"""How special-token text is read: as special tokens, or as plain text (``encode``'s arguments)."""


@dataclass(frozen=True)
class EncodeVariant:
    """One way a mistaken encoder encodes: ``encode(tokenizer, text, mode) -> ids``."""

    code: str
    label: str
    """What it does, in a few words: "the first known pair from the left, then again"."""
    encode: Callable[[Tokenizer, str, str], Ids]
    fix: str


@dataclass(frozen=True)
class EncoderMistake:
    code: str
    title: str
    explanation: str
    variants: Callable[[Tokenizer], list[EncodeVariant]]
    """The ways to make it with this tokenizer (none where it cannot show)."""
    about_order: bool = False
    """A mistake in the order of merging: the ranks at the first difference show it."""


# -- the merge loops a learner writes ------------------------------------------------------------
LONGEST_CHUNK = 1_000
"""A chunk of more symbols is not re-encoded by the loops that start again after each merge: they
cost the square of its length (a text the ``none`` split leaves whole). The check then says no such
mistake reproduces that text."""


def _bounded(merge: Callable[[TokenPieces, Ids], Ids]) -> Callable[[TokenPieces, Ids], Ids]:
    def bounded(pieces: TokenPieces, ids: Ids) -> Ids:
        if len(ids) > LONGEST_CHUNK:
            raise BpeError(f"a chunk of {len(ids):,} symbols is over the {LONGEST_CHUNK:,} this loop is re-run on")
        return merge(pieces, ids)
    return bounded


def _restart(pick: Callable[[list[int]], int | None]) -> Callable[[TokenPieces, Ids], Ids]:
    """A loop that merges the pair at ``pick(pair positions)`` and starts again until none is picked."""
    @_bounded
    def merge(pieces: TokenPieces, ids: Ids) -> Ids:
        ranks, merges = pieces.ranks, pieces.merges
        while True:
            known = [i for i, pair in enumerate(zip(ids, ids[1:])) if pair in ranks]
            at = pick(known)
            if at is None:
                return ids
            ids = ids[:at] + [merges[ranks[ids[at], ids[at + 1]]][2]] + ids[at + 2:]
    return merge


merge_left_to_right = _restart(lambda known: known[0] if known else None)
"""The course notebook's loop: the first pair met that has a merge, then again from the left (the
Encode page's walkthrough shows it beside BPE's own on request)."""


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
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(made[pair])
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids
    return merge


def _per_chunk(merge: Callable[[TokenPieces, Ids], Ids]) -> Callable[[Tokenizer, str, str], Ids]:
    """An encoder right in everything but its merge loop: the tokenizer's chunks, ``merge`` in each."""
    def encode(tokenizer: Tokenizer, text: str, mode: str) -> Ids:
        pieces = TokenPieces.of(tokenizer)
        return [token for walk in tokenizer.encode_walkthrough(text, walk=False, **MODES[mode])
                for token in (walk.initial if walk.kind == "special" else merge(pieces, list(walk.initial)))]
    return encode


# -- the variants of each mistake ----------------------------------------------------------------
RANK_FIX = ("merge the pair with the lowest rank first (the merge learned earliest), every place it occurs, then "
            "look again: `pair = min(pairs, key=lambda p: ranks.get(p, inf))`, stopping when no pair has a rank")


def _loop_variants(code: str, label: str, merge) -> Callable[[Tokenizer], list[EncodeVariant]]:
    return lambda tokenizer: [EncodeVariant(code, label, _per_chunk(merge), RANK_FIX)]


def _longest(tokenizer: Tokenizer) -> list[EncodeVariant]:
    def longest(pieces: TokenPieces, ids: Ids) -> Ids:
        return longest_cut(pieces, "".join(map(chr, ids)))
    return [EncodeVariant("longest-match", "the longest token first, then on from its end", _per_chunk(longest),
                          "BPE is not longest match: apply the learned merges in the order learned. " + RANK_FIX)]


def _merged_token(tokenizer: Tokenizer) -> list[EncodeVariant]:
    fix = ("rank a pair by its own merge (`ranks[(left, right)]`, its line in the merges list), not by the id of the "
           "token it makes: ids need not follow the order the merges were learned in")
    return [
        EncodeVariant("merged-token-rank", "merges ordered by the id of the token each makes",
                      _per_chunk(_by_merged_token(False)), fix),
        EncodeVariant("merged-token-rank", "any pair that spells a token, the smallest id first",
                      _per_chunk(_by_merged_token(True)), fix + "; and merge only pairs that are merges"),
    ]


def _split_encoder(split: str | None) -> Callable[[Tokenizer, str, str], Ids]:
    """The tokenizer's merges, by rank, in chunks cut by ``split`` (None: the whole text between special tokens)."""
    splitter = None if split is None else Pretokenizer.parse(split)

    def encode(tokenizer: Tokenizer, text: str, mode: str) -> Ids:
        pieces = TokenPieces.of(tokenizer)
        symbols = _symbols(tokenizer)
        text = tokenizer.pretokenizer.normalize(text)
        out: Ids = []
        for piece, special in split_special_text(text, tokenizer.special_tokens, *tokenizer.special_defaults(
                MODES[mode]["allowed_special"], MODES[mode]["disallowed_special"])):
            if special:
                out.append(tokenizer.special_tokens[piece])
                continue
            for chunk in [piece] if splitter is None else [chunk for chunk, _ in splitter.split(piece)]:
                out += merge_ids(symbols(chunk), pieces.ranks, pieces.made)
        return out
    return encode


def _symbols(tokenizer: Tokenizer) -> Callable[[str], Ids]:
    if tokenizer.unit == "byte":
        return lambda chunk: tokenizer.byte_ids(chunk.encode("utf-8"))
    by_char = {token.data.decode("utf-8", errors="replace"): token_id for token_id, token in tokenizer.base.items()}

    def symbols(chunk: str) -> Ids:
        try:
            return [by_char[char] for char in chunk]
        except KeyError as error:
            raise BpeError(f"{error.args[0]!r} is not in this char-level vocabulary") from None
    return symbols


def _pretokenization(tokenizer: Tokenizer) -> list[EncodeVariant]:
    if tokenizer.end_of_word is not None:
        return []  # a marker run's words are its split: no other split applies
    own = tokenizer.pretokenizer.name
    fix = (f"cut the text with the tokenizer's own pre-tokenizer ({own}) first and merge inside each chunk only: "
           "a merge never crosses a chunk")
    variants = [EncodeVariant("pretokenization", "no pre-tokenization split (the whole text one chunk)",
                              _split_encoder(None), fix)] if own != "none" else []
    return variants + [EncodeVariant("pretokenization", f"split with {name} instead of {own}", _split_encoder(name), fix)
                       for name in NAMED_PATTERNS if name not in (own, "none")]


def _mode_encoder(mode: str) -> Callable[[Tokenizer, str, str], Ids]:
    return lambda tokenizer, text, _: tokenizer.encode(text, **MODES[mode])


def _special_tokens(tokenizer: Tokenizer) -> list[EncodeVariant]:
    if not tokenizer.special_tokens:
        return []
    return [
        EncodeVariant("special-tokens", "special-token text encoded as plain text", _mode_encoder("plain"),
                      "cut special tokens out of the text first (`re.split` on the escaped special tokens) and give each "
                      "its one id; encode only the text between them"),
        EncodeVariant("special-tokens", "special-token text read as special tokens", _mode_encoder("allowed"),
                      "this check reads special-token text as plain text: encode it like any other text (tiktoken's "
                      "`encode_ordinary`), or choose to read it as special tokens"),
    ]


def _characters_first(tokenizer: Tokenizer) -> list[EncodeVariant]:
    """A byte-level tokenizer's encoder that starts from whole characters: each character one symbol
    when a token spells it, else its bytes (a learner's ``list(text)`` looked up in the vocabulary)."""
    if tokenizer.unit != "byte" or tokenizer.end_of_word is not None:
        return []
    byte_of = {token_id: byte for byte, token_id in enumerate(tokenizer.byte_ids(bytes(range(256))))}

    def characters(pieces: TokenPieces, ids: Ids) -> Ids:
        symbols, i = [], 0
        while i < len(ids):
            lead = byte_of.get(ids[i], 0)
            width = 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
            whole = pieces.by_run.get("".join(map(chr, ids[i:i + width]))) if width > 1 else None
            symbols += [whole] if whole is not None else ids[i:i + width]
            i += width
        return merge_ids(symbols, pieces.ranks, pieces.made)

    return [EncodeVariant("unit", "characters as the starting symbols", _per_chunk(characters),
                          "start from the UTF-8 bytes: `list(text.encode('utf-8'))`, so merges can join a piece of a "
                          "character to its neighbours, as training did")]


def _off_by_one(tokenizer: Tokenizer) -> list[EncodeVariant]:
    first_merged = len(tokenizer.base)

    def shifted(by: int, merged_only: bool) -> Callable[[Tokenizer, str, str], Ids]:
        return lambda tok, text, mode: [token + by if token >= first_merged or not merged_only else token
                                        for token in tok.encode(text, **MODES[mode])]
    fix = ("number tokens as the tokenizer does: ids 0-{last} are the base symbols and merge k (from 0) makes id "
           "{first} + k").format(last=first_merged - 1, first=first_merged)
    return [
        EncodeVariant("off-by-one", "every id one more", shifted(1, False), fix + "; no 1-based counting"),
        EncodeVariant("off-by-one", "every id one less", shifted(-1, False), fix),
        EncodeVariant("off-by-one", f"merged tokens numbered from {first_merged + 1}", shifted(1, True),
                      fix + f": `new_id = {first_merged} + i` for the i-th merge counted from 0"),
        EncodeVariant("off-by-one", f"merged tokens numbered from {first_merged - 1}", shifted(-1, True), fix),
    ]


ENCODER_MISTAKES: Registry[EncoderMistake] = Registry("encoder mistake", key=attrgetter("code"), entries=(
        EncoderMistake("left-to-right", "merged left to right, not by rank",
                       "Your encoder merges the first pair it meets that has any merge, then starts again. BPE merges "
                       "by rank: the pair learned earliest goes first, wherever it stands in the chunk.",
                       _loop_variants("left-to-right", "the first known pair from the left, then again",
                                      merge_left_to_right), about_order=True),
        EncoderMistake("all-at-once", "every known pair merged at once",
                       "Each pass of your encoder merges every pair that has a merge, whatever its rank, then passes "
                       "again. BPE takes one merge at a time: the lowest rank first.",
                       _loop_variants("all-at-once", "every known pair in one sweep, sweep after sweep", _sweeps), about_order=True),
        EncoderMistake("rightmost-first", "merged right to left, not by rank",
                       "Your encoder merges the last pair that has any merge first. BPE merges by rank, not by place.",
                       _loop_variants("rightmost-first", "the last known pair first, then again",
                                      _restart(lambda known: known[-1] if known else None)), about_order=True),
        EncoderMistake("longest-match", "longest match instead of merges",
                       "Your encoder takes the longest token that fits, then goes on from its end. That is another "
                       "segmentation over the same vocabulary, not the one BPE's merges make.", _longest,
                       about_order=True),
        EncoderMistake("merged-token-rank", "the merged token's rank instead of the pair's",
                       "Your encoder orders pairs by the id of the token they make instead of by the rank of their "
                       "merge (or merges any pair that spells a token). Where a vocabulary's ids are not in the order "
                       "its merges were learned (ids sorted by the token, a converted file), the order of merging "
                       "changes. (tiktoken's files number tokens by rank, so for them the two agree.)",
                       _merged_token, about_order=True),
        EncoderMistake("pretokenization", "no pre-tokenization split, or another one",
                       "Your encoder merges across the chunks the tokenizer's pre-tokenizer cuts (or cuts other chunks), "
                       "so tokens can span a space or a punctuation mark that training never spanned.", _pretokenization),
        EncoderMistake("special-tokens", "special tokens split or not",
                       "Special-token text such as <|endoftext|> is read the other way than the reference reads it: as "
                       "plain text where it is one special token, or as a special token where it is text.", _special_tokens),
        EncoderMistake("unit", "characters versus bytes",
                       "Your encoder starts from other symbols than the tokenizer: whole characters where it starts "
                       "from bytes. They differ where a merge joins part of a character to its neighbour.", _characters_first),
        EncoderMistake("off-by-one", "ids off by one",
                       "Your ids are the right tokens, numbered one off: counted from 1, or merged tokens numbered from "
                       "the wrong first id.", _off_by_one),
))
"""Every mistake a learner's encoder is checked for, in the order they are tried."""


def encoder_variants(tokenizer: Tokenizer) -> list[EncodeVariant]:
    """Every mistake's variants for this tokenizer, in :data:`ENCODER_MISTAKES`' order."""
    return [variant for mistake in ENCODER_MISTAKES.values() for variant in mistake.variants(tokenizer)]

