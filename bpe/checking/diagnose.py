"""Check a learner's merges against the reference and find the likeliest cause of the difference.

Scope: the comparison (leading matches, the first difference with both counts, the rest of the
list), the search over :data:`~bpe.checking.mistakes.MISTAKES` and the other settings, and the
guess of the settings when the learner does not know them. Out of scope: reading files
(:mod:`bpe.checking.learner`) and showing the result (the CLI and the page).

The diagnosis re-trains the corpus under every variant and keeps what reproduces the learner's
merges furthest; it only blames a variant that reproduces *more* leading merges than the reference
(a tie rule that changes nothing before the difference explains nothing). When no single variant
explains everything, the best one is tried together with each other change, and the pair is blamed
only if its second change takes it further. The search runs on the compact trainer (it stops at
the first merge that differs); the winning settings variant is re-measured on the reference trainer.

    >>> from bpe import TrainSettings
    >>> source = CheckCorpus(words={"low": 5, "lower": 2, "newest": 6, "widest": 3})
    >>> meant = TrainSettings(unit="char", pretokenizer="whitespace", min_frequency=1)
    >>> result = check_merges([(b"s", b"t"), (b"e", b"st"), (b"o", b"w")], source, meant)
    >>> result.matching, result.divergence.ours.spelled, result.divergence.ours.count, result.divergence.theirs.count
    (0, (b'e', b's'), 9, 9)
    >>> [cause.code for cause in result.diagnosis], result.best.label, result.best.matching
    (['tie-break'], 'ties broken by lexicographic-max', 3)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace

import regex

from ..corpus import Corpus
from ..errors import BpeError
from ..limits import MAX_MERGES
from ..pretokenize import NAMED_PATTERNS
from ..settings import TrainSettings
from ..tiebreak import TIE_BREAK_RULES
from ..trace import STOP_TIME_LIMIT, Trace
from ..trainer import train
from ..vocab import UNITS, token_sort_bytes
from .learner import Spelled, spelled_text
from .mistakes import MISTAKES, Clues, Variant, variants_for
from .compact import Divergence, PairStat, Rules, replay

MAX_CHECK_SECONDS = 30.0
"""A check gives up searching after this long and says which variants it did not try."""
UNEXPLAINED = "unexplained"
_HUGE_WORD = 10_000
_MARKER = regex.compile(r"</?[^<>\s]{0,8}>$")  # </w>, <w>, </s>: how learners spell a word's end


@dataclass(frozen=True)
class CheckCorpus:
    """The corpus the learner trained on: a text, or a word-count table (never both)."""

    text: str | None = None
    words: Mapping[str, int] | None = None
    _built: dict = field(default_factory=dict, compare=False, repr=False)

    def build(self, settings: TrainSettings, *, joined: bool = False) -> Corpus:
        """The corpus under ``settings`` (cached per split); ``joined``: a word table written out as one text."""
        specials = settings.cut_from_corpus  # the special tokens cut out before counting (none if counted as text)
        key = (settings.pretokenizer, specials, joined)
        if key not in self._built:
            if self.words is not None and not joined:
                self._built[key] = Corpus.from_word_counts(self.words)
            elif self.words is not None:
                text = " ".join(word for word, count in self.words.items() for _ in range(count))
                self._built[key] = Corpus.from_text(text, pretokenizer="none")
            else:
                self._built[key] = Corpus.from_text(self.text, pretokenizer=settings.pretokenizer, special_tokens=specials)
        return self._built[key]


@dataclass(frozen=True)
class Attempt:
    """One variant and how many of the learner's merges it reproduces from the start."""

    variant: Variant
    matching: int
    timed_out: bool = False

    @property
    def label(self) -> str:
        return self.variant.label


@dataclass(frozen=True)
class Cause:
    code: str
    message: str


@dataclass(frozen=True)
class CheckResult:
    total: int
    matching: int
    settings: TrainSettings
    """The reference's settings (the learner's, or the guess when they did not know)."""
    guessed: bool
    reference: tuple[Spelled, ...]
    divergence: Divergence | None
    """The first difference, with counts in the reference's corpus at that step."""
    rest: tuple[tuple[int, Spelled, int | None], ...]
    """``(step, merge, step of the same merge in the reference or None)`` from the first difference on."""
    diagnosis: tuple[Cause, ...]
    best: Attempt
    attempts: tuple[Attempt, ...]
    skipped: int = 0
    """Variants not tried because the time limit was reached."""


def spelled_merges(trace: Trace) -> list[Spelled]:
    tokens, marker = trace.tokens, trace.settings.end_of_word
    return [(token_sort_bytes(tokens[s.left], marker), token_sort_bytes(tokens[s.right], marker)) for s in trace.steps]


def leading_matches(ours: Sequence[Spelled], theirs: Sequence[Spelled]) -> int:
    """``[a, b, c], [a, b, d] -> 2``."""
    for index, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            return index
    return min(len(ours), len(theirs))


def _reference(corpus: Corpus, settings: TrainSettings, merges: int, *, time_limit_s: float | None = None) -> Trace:
    wanted = replace(settings, merges=merges, vocab_size=None, top_k=0, max_ties=20)
    return train(corpus, wanted, time_limit_s=time_limit_s)


def _run(source: CheckCorpus, group: list[Variant], learner: Sequence[Spelled], deadline: float):
    """How far each variant of ``group`` (the same corpus and rules, any tie rule) follows the
    learner, in one pass of the compact trainer. It stops at the first merge that differs, so a
    wrong variant costs a few merges (the reference trainer cannot stop early)."""
    first = group[0]
    corpus = source.build(first.settings, joined=first.joined)
    run = replay(corpus, first.settings, learner, rules=first.rules or Rules(),
                 also=[v.settings.tie_break for v in group[1:]], deadline=deadline)
    return [Attempt(v, run.by_rule[v.settings.tie_break], run.timed_out) for v in group], run


def _confirm(source: CheckCorpus, attempt: Attempt, learner: Sequence[Spelled], deadline: float) -> Attempt:
    """A settings variant's count, re-measured on the reference trainer itself (the diagnosis then
    rests on the reference, not on the compact trainer). Skipped for a corpus with a huge word
    (pre-tokenizer ``none`` on a long text), where the reference's first-seen index is slow."""
    corpus = source.build(attempt.variant.settings, joined=attempt.variant.joined)
    left = deadline - time.perf_counter()
    if attempt.variant.rules is not None or left <= 0 or max((len(w) for w, _ in corpus.words), default=0) > _HUGE_WORD:
        return attempt
    trace = _reference(corpus, attempt.variant.settings, min(attempt.matching + 1, len(learner)), time_limit_s=left)
    if trace.stop_reason == "time_limit":
        return attempt
    return Attempt(attempt.variant, leading_matches(spelled_merges(trace), learner))


def _combined(a: Variant, b: Variant, base: TrainSettings) -> Variant | None:
    """Both variants' changes at once; None when they change the same thing."""
    changes = {}
    for variant in (a, b):
        for f in fields(TrainSettings):
            value = getattr(variant.settings, f.name)
            if value != getattr(base, f.name):
                if changes.get(f.name, value) != value:
                    return None
                changes[f.name] = value
    rules = {}
    for variant in (a, b):
        for f in fields(Rules):
            value = getattr(variant.rules or Rules(), f.name)
            if value != getattr(Rules(), f.name):
                if rules.get(f.name, value) != value:
                    return None
                rules[f.name] = value
    return Variant(f"{a.code}+{b.code}", f"{a.label} and {b.label}", replace(base, **changes),
                   Rules(**rules) if rules else None, a.joined or b.joined, parts=(a, b))


def _search(source: CheckCorpus, candidates: list[Variant], learner, deadline, *, until_all: bool = False):
    """``(attempts, variants skipped, the first group's replay)``; variants that differ only in the
    tie rule share one pass. Skipped: for the time limit, or (``until_all``) once one reproduces
    every merge."""
    groups: dict[tuple, list[Variant]] = {}
    for variant in candidates:
        rest = {k: v for k, v in variant.settings.to_dict().items() if k != "tie_break"}
        groups.setdefault((repr(rest), variant.rules or Rules(), variant.joined), []).append(variant)
    attempts, first_run = [], None
    for group in groups.values():
        if time.perf_counter() > deadline:
            return attempts, len(candidates) - len(attempts), first_run
        found, run = _run(source, group, learner, deadline)
        attempts += found
        first_run = first_run or run
        if until_all and any(a.matching == len(learner) for a in found):
            return attempts, len(candidates) - len(attempts), first_run
    return attempts, 0, first_run


def guess_settings(source: CheckCorpus, learner: Sequence[Spelled], start: TrainSettings, deadline: float) -> TrainSettings:
    """The settings that reproduce the learner furthest, one setting at a time (twice round),
    starting from ``start`` with the end-of-word marker their merges spell, if any."""
    markers = tuple(_markers(learner))
    if markers and not start.end_of_word:
        start = replace(start, end_of_word=markers[0])
    choices = {"end_of_word": (None, *markers), "unit": UNITS, "tie_break": tuple(TIE_BREAK_RULES)}
    if source.words is None:
        choices = {"pretokenizer": tuple(NAMED_PATTERNS), **choices}
    (best,), _, _ = _search(source, [Variant("", "", start)], learner, deadline)
    for _ in range(2):
        improved = False
        for name, options in choices.items():
            if best.matching == len(learner):
                return best.variant.settings
            tried, _, _ = _search(source, [Variant("", "", replace(best.variant.settings, **{name: o})) for o in options],
                                  learner, deadline)
            top = max(tried, key=lambda attempt: attempt.matching, default=best)
            if top.matching > best.matching:  # a tie keeps the current value
                best, improved = top, True
        if not improved:
            break
    return best.variant.settings


def _markers(learner: Sequence[Spelled]) -> list[str]:
    found: dict[str, int] = {}
    for pair in learner:
        match = _MARKER.search(spelled_text(pair[1]))
        if match:
            found[match.group()] = found.get(match.group(), 0) + 1
    return sorted(found, key=found.get, reverse=True)[:1]


def check_merges(
    learner: Sequence[Spelled],
    source: CheckCorpus,
    settings: TrainSettings,
    *,
    guess: bool = False,
    time_limit_s: float = MAX_CHECK_SECONDS,
) -> CheckResult:
    """Compare ``learner``'s merges with the reference trained on ``source`` under ``settings`` and
    diagnose the first difference. ``guess``: the learner does not know their settings; the ones
    that reproduce their merges furthest, searched from ``settings``, become the reference."""
    learner = list(learner)[:MAX_MERGES]
    deadline = time.perf_counter() + time_limit_s
    base = guess_settings(source, learner, settings, deadline) if guess else settings
    trace = _reference(source.build(base), base, len(learner), time_limit_s=time_limit_s)
    if trace.stop_reason == STOP_TIME_LIMIT:
        raise BpeError(
            f"the reference needed over {time_limit_s:g} s for {len(learner):,} merges on this corpus and stopped after "
            f"{len(trace.steps):,}; check fewer merges or a shorter excerpt (one very long word, as with the "
            "pre-tokenizer none on a long text, is the slow case)"
        )
    reference = spelled_merges(trace)
    matching = leading_matches(reference, learner)
    attempts: list[Attempt] = []
    skipped, divergence, diagnosis = 0, None, []
    best = Attempt(Variant("", "the reference", base), matching)
    if matching < len(learner):
        clues = Clues(word_table=source.words is not None, markers=tuple(_markers(learner)) if not base.end_of_word else ())
        candidates = [v for group in variants_for(base, clues).values() for v in group]
        # the reference itself goes first: its pass (shared with the other tie rules) finds the first difference
        attempts, skipped, run = _search(source, [best.variant, *candidates], learner, deadline)
        attempts = attempts[1:]
        divergence = run.divergence if run else None
        if divergence is None:  # the replay ran out of time: what the trace alone knows
            ours = PairStat(reference[matching], trace.steps[matching].count, ()) if matching < len(reference) else None
            divergence = Divergence(matching + 1, ours, PairStat(learner[matching], None, ()), 0, ())
        top = sorted((a for a in attempts if a.matching > matching), key=lambda a: -a.matching)
        if top and top[0].matching < len(learner):  # part of the way: the best one with each other change,
            # the changes that went furthest alone first, until one pair reproduces everything
            alone = {a.variant: a.matching for a in attempts}
            others = sorted((v for v in candidates if v.code != top[0].variant.code), key=lambda v: -alone.get(v, 0))
            pairs = [_combined(top[0].variant, v, base) for v in others]
            more, _, _ = _search(source, [v for v in pairs if v is not None], learner, deadline, until_all=True)
            attempts += more
            # a pair counts only if its second change matters: it must beat the best one alone
            top = sorted([a for a in top if a.variant.parts == ()] + [a for a in more if a.matching > top[0].matching],
                         key=lambda a: -a.matching)
        if top:
            top = sorted((_confirm(source, a, learner, deadline) if a.matching == top[0].matching else a for a in top),
                         key=lambda a: -a.matching)
            best = top[0]
            winners = [a for a in top if a.matching == best.matching]
            diagnosis = _causes(winners, base, matching, len(learner))
        else:
            diagnosis = [_unexplained(attempts, matching, len(learner), divergence, skipped)]
    by_pair: dict[Spelled, int] = {}
    for step, pair in enumerate(reference, start=1):
        by_pair.setdefault(pair, step)
    rest = tuple((step, pair, by_pair.get(pair)) for step, pair in enumerate(learner, start=1) if step > matching)
    return CheckResult(
        total=len(learner), matching=matching, settings=base, guessed=guess, reference=tuple(reference),
        divergence=divergence, rest=rest, diagnosis=tuple(diagnosis),
        best=best, attempts=tuple(attempts), skipped=skipped,
    )


def _causes(winners: list[Attempt], base: TrainSettings, matching: int, total: int) -> list[Cause]:
    causes: list[Cause] = []
    seen: set[str] = set()
    for attempt in winners:
        how_far = (
            f"this reproduces all {total:,} of your merges" if attempt.matching == total
            else f"this reproduces your first {attempt.matching:,} merges (the reference: {matching:,}); "
                 "something else differs after that"
        )
        for part in attempt.variant.single:
            if part.code not in seen:
                seen.add(part.code)
                causes.append(Cause(part.code, f"{MISTAKES[part.code].explanation} Re-training with "
                                               f"{attempt.label}: {how_far}. Fix: {part.fix}."))
    return causes


def _unexplained(attempts: list[Attempt], matching: int, total: int, divergence: Divergence | None, skipped: int) -> Cause:
    furthest = sorted(attempts, key=lambda a: -a.matching)[:3]
    tried = "; ".join(f"{a.label}: {a.matching:,}" for a in furthest)
    evidence = ""
    if divergence is not None and divergence.theirs.count == 0:
        evidence = (" At that merge your pair does not occur at all in the reference's corpus, so your trainer "
                    "saw other text, other symbols, or merged earlier pairs differently.")
    note = f" ({skipped} variants were not tried in the time limit.)" if skipped else ""
    return Cause(
        UNEXPLAINED,
        f"No single classic mistake or other setting explains the difference: none of the {len(attempts)} re-trainings "
        f"reproduces more than the reference's {matching:,} leading merges of your {total:,} (furthest: {tried})."
        f"{evidence}{note} Check the corpus and the settings, then compare your counts at merge {matching + 1:,} with "
        "the reference's below.",
    )
