"""The classic mistakes of a hand-written BPE encoder: one registry, each with a stable code.

Scope: what each mistake is, the line of the learner's encoder it changes (the special-token cut,
the split, the starting symbols, the merge loop's pick, the numbering), its fix, what reproducing
it costs, the texts that make it show (its *witnesses*, from which the probe texts are derived:
:mod:`bpe.checking.probes`), and how to reproduce it: each :class:`EncodeVariant` is an
:class:`~bpe.checking.encode_stages.EncoderShape`, the tokenizer's own encoder with one stage
changed, so two mistakes on two lines compose. Out of scope: comparing ids and the verdict
(:mod:`bpe.checking.encode_check`). This mirrors :mod:`bpe.checking.mistakes`, the registry of a
*trainer's* mistakes: adding a mistake is one entry.

    >>> from bpe import Corpus, TrainSettings, train
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("bc bc bc ab ab", pretokenizer="whitespace"),
    ...                                  TrainSettings(pretokenizer="whitespace", merges=2)))
    >>> [tok.token_text(i) for i in tok.encode("abc")]                   # b + c first: rank 1
    ['a', 'bc']
    >>> [tok.token_text(i) for i in ENCODER_MISTAKES["left-to-right"].variants(tok, "allowed")[0].encode(tok, "abc", "allowed")]
    ['ab', 'c']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

from ..encoding.tokenizer import Tokenizer
from ..registry import Registry
from ..text.pretokenize import NAMED_PATTERNS
from .encode_stages import LEARNER_SPLITS, LONGEST_CHUNK, LOOPS, MODES, EncoderShape, encode_as  # noqa: F401
from .mistakes import RECOUNT, SETTING, SHARED
from .rules import Ids  # noqa: F401  (re-exported: earlier releases imported it here)

merge_left_to_right = LOOPS["left-to-right"]
"""The course notebook's loop: the first pair met that has a merge, then again from the left (the
Encode page's walkthrough shows it beside BPE's own on request)."""
RANK_FIX = ("merge the pair with the lowest rank first (the merge learned earliest), every place it occurs, then "
            "look again: `pair = min(pairs, key=lambda p: ranks.get(p, float('inf')))`, stopping when no pair has a rank")


@dataclass(frozen=True)
class EncodeVariant:
    """One way a mistaken encoder encodes: the tokenizer's own encoder in another ``shape``."""

    code: str
    label: str
    """What it does, in a few words: "the first known pair from the left, then again"."""
    shape: EncoderShape
    fix: str
    cost: int = SETTING
    parts: tuple["EncodeVariant", ...] = ()
    """For two mistakes at once, each of them (see ``single``)."""

    def encode(self, tokenizer: Tokenizer, text: str, mode: str) -> Ids:
        return encode_as(tokenizer, text, self.shape, mode=mode)

    @property
    def single(self) -> tuple["EncodeVariant", ...]:
        return self.parts or (self,)

    def with_(self, other: "EncodeVariant") -> "EncodeVariant | None":
        """Both mistakes at once; None when they change the same line."""
        shape = self.shape.changed(other.shape)
        if shape is None:
            return None
        return EncodeVariant(f"{self.code}+{other.code}", f"{self.label} and {other.label}", shape,
                             f"{self.fix}; and {other.fix}", self.cost + other.cost, self.single + other.single)


@dataclass(frozen=True)
class EncoderMistake:
    code: str
    title: str
    explanation: str
    variants: Callable[[Tokenizer, str], list[EncodeVariant]]
    """The ways to make it with this tokenizer, special-token text read as the check's mode (``allowed``
    when not given; none where it cannot show)."""
    line: str = ""
    """The line of the learner's encoder it changes (where the fix goes)."""
    witnesses: tuple[str, ...] = ()
    """Texts on which it usually differs from the right encoder (the probes start from them)."""
    about_order: bool = False
    """A mistake in the order of merging: the ranks at the first difference show it."""


def _loop(code: str, label: str, loop: str, fix: str = RANK_FIX) -> Callable[[Tokenizer, str], list[EncodeVariant]]:
    return lambda tokenizer, mode="allowed": [EncodeVariant(code, label, EncoderShape(loop=loop), fix, RECOUNT)]


def _left_to_right(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    return [
        EncodeVariant("left-to-right", "the first known pair from the left, then again",
                      EncoderShape(loop="left-to-right"), RANK_FIX, RECOUNT),
        EncodeVariant("left-to-right", "the first known pair from the left, merged everywhere, then again",
                      EncoderShape(loop="left-to-right-everywhere"),
                      RANK_FIX + " (minbpe's `merge()` is right; the pair it is given must be the lowest-ranked one)",
                      RECOUNT),
    ]


def _merged_token(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    fix = ("rank a pair by its own merge (`ranks[(left, right)]`, its line in the merges list), not by the id of the "
           "token it makes: ids need not follow the order the merges were learned in")
    return [
        EncodeVariant("merged-token-rank", "merges ordered by the id of the token each makes",
                      EncoderShape(loop="merged-token-rank"), fix, RECOUNT),
        EncodeVariant("merged-token-rank", "any pair that spells a token, the smallest id first",
                      EncoderShape(loop="any-spelling"), fix + "; and merge only pairs that are merges", RECOUNT),
    ]


def _pretokenization(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    if tokenizer.end_of_word is not None:
        return []  # a marker run's words are its split: no other split applies
    own = tokenizer.pretokenizer.name
    fix = (f"cut the text with the tokenizer's own pre-tokenizer ({own}) first and merge inside each chunk only: "
           "a merge never crosses a chunk")
    variants = [EncodeVariant("pretokenization", "no pre-tokenization split (the whole text one chunk)",
                              EncoderShape(split="none"), fix)] if own != "none" else []
    # subtle: llama3's pattern cuts as gpt4's does (only its possessive quantifiers differ), so one of them is offered
    variants += [EncodeVariant("pretokenization", f"split with {name} instead of {own}", EncoderShape(split=name), fix)
                 for name in NAMED_PATTERNS if name not in (own, "none") and not (name == "llama3" and own != "gpt4")]
    if own == "gpt2":  # the patterns learners type for GPT-2's
        variants += [
            EncodeVariant("pretokenization", "GPT-2's pattern with its whitespace as one `\\s+`",
                          EncoderShape(split="gpt2-greedy-spaces"),
                          fix + r": keep `\s+(?!\S)|\s+` at the end of the pattern, so a run of spaces leaves its last "
                                "space to the next word"),
            EncodeVariant("pretokenization", "GPT-2's pattern with `\\w` and `\\d` for `\\p{L}` and `\\p{N}`",
                          EncoderShape(split="gpt2-word-class"),
                          fix + r": use the `regex` module and GPT-2's `\p{L}+`, `\p{N}+` (`\w` joins letters, digits "
                                "and _)"),
        ]
    return variants


def _special_tokens(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    if not tokenizer.special_tokens:
        return []
    if mode == "allowed":
        return [EncodeVariant("special-tokens", "special-token text encoded as plain text", EncoderShape(cut="plain"),
                              "cut special tokens out of the text first (`re.split` on the escaped special tokens, in a "
                              "group so they are kept) and give each its one id; encode only the text between them",
                              SHARED)]
    return [EncodeVariant("special-tokens", "special-token text read as special tokens", EncoderShape(cut="allowed"),
                          "this check reads special-token text as plain text: encode it like any other text (tiktoken's "
                          "`encode_ordinary`), or choose to read it as special tokens", SHARED)]


def _characters_first(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    if tokenizer.unit != "byte" or tokenizer.end_of_word is not None:
        return []
    return [EncodeVariant("unit", "characters as the starting symbols", EncoderShape(start="characters"),
                          "start from the UTF-8 bytes: `list(text.encode('utf-8'))`, so merges can join a piece of a "
                          "character to its neighbours, as training did")]


def _off_by_one(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    first = len(tokenizer.base)
    fix = f"number tokens as the tokenizer does: ids 0-{first - 1} are the base symbols and merge k (from 0) makes id {first} + k"
    return [
        EncodeVariant("off-by-one", "every id one more", EncoderShape(number="every+1"), fix + "; no 1-based counting",
                      SHARED),
        EncodeVariant("off-by-one", "every id one less", EncoderShape(number="every-1"), fix, SHARED),
        EncodeVariant("off-by-one", f"merged tokens numbered from {first + 1}", EncoderShape(number="merged+1"),
                      fix + f": `new_id = {first} + i` for the i-th merge counted from 0", SHARED),
        EncodeVariant("off-by-one", f"merged tokens numbered from {first - 1}", EncoderShape(number="merged-1"), fix,
                      SHARED),
    ]


_ORDER = (" embraced", " lowest newest widest", "Hello, world!", "aaaa aaab abab")
ENCODER_MISTAKES: Registry[EncoderMistake] = Registry("encoder mistake", key=attrgetter("code"), entries=(
        EncoderMistake("left-to-right", "merged left to right, not by rank",
                       "Your encoder merges the first pair it meets that has any merge, then starts again. BPE merges "
                       "by rank: the pair learned earliest goes first, wherever it stands in the chunk.",
                       _left_to_right, line="the pick", witnesses=_ORDER, about_order=True),
        EncoderMistake("all-at-once", "every known pair merged at once",
                       "Each pass of your encoder merges every pair that has a merge, whatever its rank, then passes "
                       "again. BPE takes one merge at a time: the lowest rank first.",
                       _loop("all-at-once", "every known pair in one sweep, sweep after sweep", "all-at-once"),
                       line="the pick", witnesses=("aaaa aaab abab", *_ORDER), about_order=True),
        EncoderMistake("rightmost-first", "merged right to left, not by rank",
                       "Your encoder merges the last pair that has any merge first. BPE merges by rank, not by place.",
                       _loop("rightmost-first", "the last known pair first, then again", "rightmost-first"),
                       line="the pick", witnesses=_ORDER, about_order=True),
        EncoderMistake("longest-match", "longest match instead of merges",
                       "Your encoder takes the longest token that fits, then goes on from its end. That is another "
                       "segmentation over the same vocabulary, not the one BPE's merges make.",
                       _loop("longest-match", "the longest token first, then on from its end", "longest-match",
                             "BPE is not longest match: apply the learned merges in the order learned. " + RANK_FIX),
                       line="the merge loop", witnesses=(" lowest newest widest", " embraced", "don't 12345678"),
                       about_order=True),
        EncoderMistake("merged-token-rank", "the merged token's rank instead of the pair's",
                       "Your encoder orders pairs by the id of the token they make instead of by the rank of their "
                       "merge (or merges any pair that spells a token). Where a vocabulary's ids are not in the order "
                       "its merges were learned (ids sorted by the token, a converted file), the order of merging "
                       "changes. (tiktoken's files number tokens by rank, so for them the two agree.)",
                       _merged_token, line="the pick", witnesses=_ORDER, about_order=True),
        EncoderMistake("unknown-first", "a pair with no merge ranked first",
                       "Your encoder ranks a pair that has no merge 0 (`ranks.get(pair, 0)`), so whenever such a pair "
                       "is in the chunk it is the lowest, and the loop stops there (`if pair not in ranks: break`) with "
                       "known pairs left unmerged.",
                       _loop("unknown-first", "a pair with no merge ranked 0, then the loop stops", "unknown-first",
                             "rank a pair with no merge last, not first: `ranks.get(pair, float('inf'))`, so the loop "
                             "stops only when no pair has a merge"),
                       line="the pick", witnesses=("Hello, world!", " embraced", "xyz")),
        EncoderMistake("pretokenization", "no pre-tokenization split, or another one",
                       "Your encoder merges across the chunks the tokenizer's pre-tokenizer cuts (or cuts other chunks), "
                       "so tokens can span a space, a line break or a punctuation mark that training never spanned.",
                       _pretokenization, line="the split",
                       witnesses=("one\n\ntwo", "x  = 1", "  return f(x)\n\tif x:", "don't 12345678", "abc123 x_y",
                                  "Hello, world!")),
        EncoderMistake("special-tokens", "special tokens split or not",
                       "Special-token text such as <|endoftext|> is read the other way than the reference reads it: as "
                       "plain text where it is one special token, or as a special token where it is text.",
                       _special_tokens, line="the special-token cut"),  # witnesses: bpe.checking.probes
        EncoderMistake("unit", "characters versus bytes",
                       "Your encoder starts from other symbols than the tokenizer: whole characters where it starts "
                       "from bytes. They differ where a merge joins part of a character to its neighbour.",
                       _characters_first, line="the start symbols",
                       witnesses=("naïve café, 你好 😀", " Все люди и права, ίσοι στην", "é")),
        EncoderMistake("off-by-one", "ids off by one",
                       "Your ids are the right tokens, numbered one off: counted from 1, or merged tokens numbered from "
                       "the wrong first id.", _off_by_one, line="the numbering",
                       witnesses=("Hello, world!", " embraced", "a")),
))
"""Every mistake a learner's encoder is checked for, in the order they are tried."""

def encoder_variants(tokenizer: Tokenizer, mode: str = "allowed") -> list[EncodeVariant]:
    """Every mistake's variants for this tokenizer, in :data:`ENCODER_MISTAKES`' order, cheapest first."""
    found = [variant for mistake in ENCODER_MISTAKES.values() for variant in mistake.variants(tokenizer, mode)]
    return sorted(found, key=lambda variant: variant.cost)
