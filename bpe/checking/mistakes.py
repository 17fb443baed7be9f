"""The classic mistakes of a hand-written BPE trainer: one registry, each with a stable code.

Scope: what each mistake is (in plain words), the line of the learner's trainer it changes (the
shape of the fix: "the loop bound", "the pick", "the replace"), the exact fix, what reproducing it
costs, and how: the :class:`Variant` runs that re-train the corpus as a learner with that mistake
would. Out of scope: running them and choosing the verdict (:mod:`bpe.checking.diagnose`).

A mistake is a ``setting`` (the split, the tie rule, the text, the symbols...) or in the ``code``
(how pairs are counted or merges applied); the search tries every single mistake, then a setting
together with one code mistake, cheapest first (:data:`COSTS`).

A variant changes a setting (another tie rule, unit, split pattern, no special tokens, no
end-of-word marker), the text before training (:mod:`bpe.checking.normalization`), or how pairs are
counted or merges applied (:mod:`bpe.checking.rules`, the plug-ins of the compact trainer that runs
every variant). One code is found by counting instead: ``merge-count``, a list that stops short of
the vocabulary size asked for or runs on past it (or past the last pair the corpus has).

    >>> from bpe import TrainSettings
    >>> [v.label for v in variants_for(TrainSettings(tie_break="hf"), Clues())["tie-break"]][:2]
    ['ties broken by first-seen', 'ties broken by last-seen']
    >>> MISTAKES["overlapping-pairs"].title, MISTAKES["loop-bound"].line
    ('pairs counted without overlap', 'the loop bound')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from operator import attrgetter
from types import MappingProxyType

from ..registry import Registry
from ..text.pretokenize import NAMED_PATTERNS
from ..tokens.vocab import UNITS
from ..training.settings import TrainSettings
from ..training.tiebreak import TIE_BREAK_RULES
from .compact import marker_mode
from .normalization import NORMALIZATIONS
from .rules import Rules
from .ties import TIE_EFFECTS

SHARED, SETTING, RECOUNT, SCAN = 0, 1, 2, 3
COSTS = MappingProxyType({
    SHARED: "followed in the same pass as another re-training (a tie rule)",
    SETTING: "one pass of the compact trainer with the reference's own local update",
    RECOUNT: "one pass that recounts every word each merge touches",
    SCAN: "one pass that searches the text of every word at each merge",
})
"""What reproducing a mistake costs, cheapest first: the search tries cheaper mistakes (and pairs) first."""
KINDS = ("setting", "code")


@dataclass(frozen=True)
class Clues:
    """What the corpus and the learner's file tell about which variants make sense."""

    word_table: bool = False
    """The corpus is a word-count table (already split into words)."""
    markers: tuple[str, ...] = ()
    """End-of-word markers spelled in the learner's merges (``</w>``)."""
    normalizations: tuple[str, ...] = ()
    """The :data:`NORMALIZATIONS` that change this corpus and that the learner's merges do not rule out."""


@dataclass(frozen=True)
class Variant:
    """One way to re-train: the reference's settings changed, or a mistake's rules plugged in."""

    code: str
    label: str
    """What differs, in a few words: "ties broken by lexicographic-max"."""
    settings: TrainSettings
    rules: Rules | None = None
    """None: the reference trainer runs it; else the compact trainer with these rules."""
    joined: bool = False
    """Train the word table written out as one text, so merges cross words."""
    normalization: str | None = None
    """Train on the text changed by this :data:`NORMALIZATIONS` entry."""
    fix: str = ""
    parts: tuple["Variant", ...] = ()
    """For two mistakes at once, each of them (see ``single``)."""
    cost: int = SETTING
    """A :data:`COSTS` class (a pair's: the sum of its parts')."""

    @property
    def single(self) -> tuple["Variant", ...]:
        """The single-mistake variants this one is made of (itself, when it is one)."""
        return self.parts or (self,)


@dataclass(frozen=True)
class Mistake:
    code: str
    title: str
    explanation: str
    """What goes wrong, in plain words."""
    variants: Callable[[TrainSettings, Clues], list[Variant]]
    """How to reproduce it from the reference's settings."""
    line: str = ""
    """The line of the learner's trainer it changes ("the pick", "the loop bound"): where the fix goes."""
    kind: str = "setting"
    """``setting`` or ``code`` (:data:`KINDS`): a pair is a setting with one code mistake."""
    cost: int = SETTING
    witness_lines: tuple[str, ...] = ()
    """Lines that, added to a corpus past its top count, make this mistake show in the first merges
    (:mod:`bpe.checking.separation` tries them): ``aaa aaa bc bc bc`` counts (a, a) 4 times with overlap,
    2 without, against (b, c) 3 times, so the first merge tells the two counts apart."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS or self.cost not in COSTS or not self.line:
            raise ValueError(f"mistake {self.code!r} needs a line, a kind in {KINDS} and a cost in {tuple(COSTS)}")


def tie_variant(base: TrainSettings, rule: str) -> Variant:
    """Ties broken by ``rule`` (a :data:`~bpe.checking.ties.TIE_EFFECTS` name) instead of the reference's."""
    want, theirs = TIE_EFFECTS[base.tie_break], TIE_EFFECTS[rule]
    used_by = f", as {TIE_BREAK_RULES[base.tie_break].used_by} do" if base.tie_break in TIE_BREAK_RULES else ""
    fix = (f"to break ties as the reference does, take {want.effect} among the pairs with the top count (rule "
           f"{base.tie_break}{used_by}): {want.pick}; yours takes {theirs.effect}: {theirs.pick}")
    if theirs.engine is not None:
        return Variant("tie-break", f"ties broken by {rule}", replace(base, tie_break=rule), fix=fix, cost=SHARED)
    return Variant("tie-break", f"ties broken by {rule}", base, Rules(tie=rule), fix=fix, cost=SHARED)


def _tie_break(base: TrainSettings, clues: Clues) -> list[Variant]:
    return [tie_variant(base, rule) for rule in TIE_EFFECTS if rule != base.tie_break]


def _in_the_code(code: str, label: str, rules: Rules, fix: str, cost: int = RECOUNT) -> Callable[[TrainSettings, Clues], list[Variant]]:
    """A mistake in how the trainer counts or merges (not in a setting): one variant, the reference's
    settings with ``rules`` plugged in."""
    return lambda base, clues: [Variant(code, label, base, rules, fix=fix, cost=cost)]


_overlapping_pairs = _in_the_code(
    "overlapping-pairs", "pairs counted without overlap", Rules(counting="no-overlap"),
    "count every adjacent pair: `for pair in zip(ids, ids[1:]): counts[pair] += freq` (not `text.count(a + b)` nor "
    "skipping an occurrence that shares a symbol)")


def _chunk_boundary(base: TrainSettings, clues: Clues) -> list[Variant]:
    if clues.word_table:
        return [Variant("chunk-boundary", "words joined into one text", replace(base, pretokenizer="none"),
                        joined=True, fix="count pairs inside each word only, weighted by the word's count")]
    return [
        Variant("chunk-boundary", f"split with {name}", replace(base, pretokenizer=name),
                fix=f"pre-tokenize with {base.pretokenizer} and count pairs inside each chunk only "
                    "(never across two chunks)")
        for name in NAMED_PATTERNS if name != base.pretokenizer
    ]


def _special_token(base: TrainSettings, clues: Clues) -> list[Variant]:
    if not base.special_tokens:
        return []
    shown = ", ".join(base.special_tokens)
    return [Variant("special-token", "special tokens trained as text", replace(base, special_tokens=()),
                    fix=f"split the text around {shown} first (`re.split` on the escaped tokens) and train on "
                        "the pieces between them only")]


_loop_bound = _in_the_code(
    "loop-bound", "a pair loop one short (each word's last pair never counted)", Rules(counting="skip-last"),
    "count every adjacent pair: `for i in range(len(symbols) - 1)` (yours stops one short, `range(len(symbols) - 2)`, "
    "so a word's last pair is never counted), or `zip(symbols, symbols[1:])`")
_word_frequency = _in_the_code("word-frequency", "each distinct word counted once", Rules(weighting="once"),
                               "add the word's frequency for each pair, not 1: `counts[pair] += freq`")


def _replacement(base: TrainSettings, clues: Clues) -> list[Variant]:
    fix = ("replace left to right and jump past each replacement: `if (ids[i], ids[i + 1]) == pair: "
           "out.append(new); i += 2`, so 'aaa' becomes 'aa a'")
    left_behind = "merged again later"
    return [
        Variant("replacement", "merges applied right to left", base, Rules(replacing="right-to-left"), fix=fix, cost=RECOUNT),
        Variant("replacement", "merges applied with overlap", base, Rules(replacing="overlap"), fix=fix, cost=RECOUNT),
        Variant("replacement", "only the first place in each word replaced", base, Rules(replacing="first-place"),
                fix=f"replace every place the pair occurs in the word, not only the first: keep scanning to the end "
                    f"of the word after a replacement (no `break`), or the pair stays behind and is {left_behind}",
                cost=RECOUNT),
        Variant("replacement", "only the first word holding the pair replaced", base, Rules(reach="first"),
                fix=f"apply the merge to every word that holds the pair: no `break` or `return` in the loop over "
                    f"words after the first replacement, or the pair stays behind and is {left_behind}", cost=RECOUNT),
    ]


_string_replace = _in_the_code(
    "string-replace", "merges replaced in the spaced word with str.replace", Rules(replacing="across-symbols"),
    "replace whole symbols only, as the paper's code does: `re.sub(r'(?<!\\S)' + re.escape(' '.join(pair)) + "
    "r'(?!\\S)', ''.join(pair), word)`, or merge lists of symbols instead of strings", cost=SCAN)
_stale_counts = _in_the_code(
    "stale-counts", "pair counts patched after each merge, never decremented", Rules(updating="never-decremented"),
    "where a merge of (a, b) joins them, take away the pairs it broke before adding the new ones: "
    "`counts[(prev, a)] -= freq`, `counts[(b, next)] -= freq`, then `counts[(prev, new)] += freq`, "
    "`counts[(new, next)] += freq`; or recount every pair at every step")


def _normalization(base: TrainSettings, clues: Clues) -> list[Variant]:
    return [
        Variant("normalization", NORMALIZATIONS[name].label, base, normalization=name,
                fix=f"train on the text exactly as given: remove `{NORMALIZATIONS[name].code}` before counting "
                    "(or normalize the reference's corpus the same way if your assignment asks for it)")
        for name in clues.normalizations
    ]


def _unit(base: TrainSettings, clues: Clues) -> list[Variant]:
    return [
        Variant("unit", f"{unit}s as the starting symbols", replace(base, unit=unit),
                fix=f"start from {base.unit}s: " + ("`list(text.encode('utf-8'))`" if base.unit == "byte" else "`list(text)`"))
        for unit in UNITS if unit != base.unit
    ]


def _end_of_word(base: TrainSettings, clues: Clues) -> list[Variant]:
    if base.end_of_word:
        marker = base.end_of_word
        attached = marker_mode(base, Rules()) == "attached"
        where = f"glued to each word's last symbol (`[..., 't{marker}']`)" if attached else \
            f"a symbol of its own after each word (`list(word) + ['{marker}']`)"
        return [
            Variant("end-of-word", "no end-of-word marker", replace(base, end_of_word=None, end_of_word_mode="separate"),
                    fix=f"put {marker} {where} before counting"),
            Variant("end-of-word", f"{marker} {'a symbol of its own' if attached else 'attached to the last symbol'}",
                    base, Rules(marker="separate" if attached else "attached"), fix=f"put {marker} {where}"),
        ]
    variants = []
    for marker in clues.markers:
        marked = replace(base, end_of_word=marker)
        variants += [
            # subtle: a reference without a marker places none, so its mode is already "separate"
            Variant("end-of-word", f"{marker} as a symbol after each word", marked,
                    fix=f"the reference has no end-of-word marker: do not append {marker} (or choose it in the settings)"),
            Variant("end-of-word", f"{marker} attached to the last symbol", marked, Rules(marker="attached"),
                    fix=f"the reference has no end-of-word marker: do not attach {marker} (or choose it in the settings)"),
        ]
    return variants


MISTAKES: Registry[Mistake] = Registry("mistake", key=attrgetter("code"), entries=(
        Mistake("tie-break", "another tie-break rule",
                "When several pairs share the top count, your trainer picks another one than the reference. "
                "Ties are everywhere in real text, so the rule must be stated and followed.", _tie_break,
                line="the pick", cost=SHARED),  # its lines make ties: bpe.checking.separation.tie_lines
        Mistake("overlapping-pairs", "pairs counted without overlap",
                "Your counts skip occurrences that share a symbol, so 'aaa' gives (a, a) once instead of twice.",
                _overlapping_pairs, line="the pair count", kind="code", cost=RECOUNT,
                witness_lines=("aaa aaa bc bc bc",)),
        Mistake("loop-bound", "a pair loop one short",
                "Your loop over a word's pairs stops one pair early, so the last pair of every word is never counted "
                "(and so never merged): with a marker after each word, its pairs with the marker; without one, the "
                "word's last two symbols.", _loop_bound, line="the loop bound", kind="code", cost=RECOUNT,
                witness_lines=("ab ab ab ab ab", "xyz xyz xyz")),
        Mistake("chunk-boundary", "merges across chunks, or another split",
                "Your pairs are counted across the pieces the pre-tokenizer cuts (or cut by another pattern), "
                "so merges can join the end of one word to the start of the next.", _chunk_boundary, line="the split",
                witness_lines=("a b a b a b", "a\tb a\tb", "x, y. x, y. x, y.", "it's 2024 it's 2024")),
        Mistake("special-token", "special tokens not split out",
                "Special tokens such as <|endoftext|> are trained on as ordinary text instead of being cut out "
                "before counting, so their pieces get merged.", _special_token,
                line="the special-token cut"),
        Mistake("word-frequency", "word frequency ignored",
                "Each distinct word adds 1 to its pairs instead of its number of occurrences.", _word_frequency,
                line="the amount added per pair", kind="code", cost=RECOUNT,
                witness_lines=("qq qq qq",)),
        Mistake("replacement", "merge applied wrongly",
                "The winning pair is replaced overlapping itself or from the right, so 'aaa' does not become 'aa a', "
                "or only in part (the first place in a word, or the first word that holds it): the pair stays "
                "behind, which is why a merge can repeat in your list.", _replacement,
                line="the replace", kind="code", cost=RECOUNT,
                witness_lines=("aaa aaa aaa", "abab abab abab", "ab ab ab xab")),
        Mistake("string-replace", "merges replaced across symbol boundaries",
                "Your trainer applies a merge with a plain string replace on the spaced word (`word.replace('s t', "
                "'st')`), which also matches where a symbol that ends with s stands before one that starts with t: "
                "'n e w es t' becomes 'n e w est', a token no merge made. The Sennrich paper's code guards the "
                "match with a regex, (?<!\\S) before and (?!\\S) after.", _string_replace,
                line="the replace", kind="code", cost=SCAN, witness_lines=("abb abb abb b ab ab",)),
        Mistake("stale-counts", "pair counts never decremented",
                "Your trainer counts the pairs once, then after each merge adds the new token's pairs and deletes the "
                "merged pair, but never takes away the pairs the merge broke (merging o + w in 'l o w' breaks l + o). "
                "Those stale counts then win merges of pairs rarer than they look, or gone altogether.", _stale_counts,
                line="the count update", kind="code", cost=RECOUNT,
                witness_lines=("abc abc abc bcd bcd",)),
        Mistake("normalization", "text changed before training",
                "Your trainer changes the text before counting (lowercases it, normalizes its Unicode, or strips "
                "or collapses its whitespace), so it learns from other text than the reference.", _normalization,
                line="the text read in", witness_lines=("The THE the", "ﬁne ﬁne ①", "a  b  c", "  ab  ")),
        Mistake("unit", "bytes versus characters",
                "Your trainer starts from other symbols than the reference: bytes instead of characters, or the "
                "reverse. They differ as soon as the text has a non-ASCII character.", _unit,
                line="the start symbols", witness_lines=("é é é café café", "日本 日本 日本")),
        Mistake("end-of-word", "end-of-word marker",
                "The end-of-word marker is missing, added, or glued to the word's last symbol instead of "
                "standing alone (or the reverse).", _end_of_word, line="the end-of-word marker",
                witness_lines=("ab ab abc abc",)),
        Mistake("merge-count", "the number of merges",
                "Your list stops short of the number of merges it was meant to have, or runs on past it (or past "
                "the last pair the corpus holds). A vocabulary size counts the base tokens, the merges and the "
                "special tokens.", lambda base, clues: [],  # found by counting (see the module docstring)
                line="the number of merges"),
))


def variants_for(base: TrainSettings, clues: Clues) -> dict[str, list[Variant]]:
    """Every mistake's variants from ``base``: ``code -> [Variant, ...]`` (empty when it cannot apply)."""
    return {code: mistake.variants(base, clues) for code, mistake in MISTAKES.items()}
