"""Check a learner's merges against the reference and find the likeliest cause of the difference.

Scope: the comparison (leading matches, the first difference with both trainings' counts, the rest
of the list, a list that stops short or runs on), the search over
:data:`~bpe.checking.mistakes.MISTAKES`, and the guess of the settings when the learner does not
know them (:mod:`bpe.checking.guess`). Out of scope: reading files (:mod:`bpe.checking.learner`)
and showing the result (the CLI, the JSON report and the page).

The diagnosis re-trains the corpus under every variant and keeps what reproduces the learner's
merges furthest; it only blames a variant that reproduces *more* leading merges than the reference
(a tie rule that changes nothing before the difference explains nothing). When no single variant
explains everything, the best one is tried together with each other change, and the pair is blamed
only if its second change takes it further. The search runs on the compact trainer (it stops at
the first merge that differs); the winning settings variant is re-measured on the reference
trainer. The re-training that reproduces the learner then gives *their* counts at the first
difference, beside the reference's.

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
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import BpeError
from ..limits import MAX_MERGES
from ..training.settings import TrainSettings
from ..training.trace import STOP_TIME_LIMIT
from .compact import Divergence, PairStat, Spelled, shown_pair
from .guess import Convention, Guess, convention_for, guess_settings, markers, merged_texts
from .mistakes import MISTAKES, Clues, Variant, variants_for
from .normalization import NORMALIZATIONS
from .search import Attempt, CheckCorpus, combined, confirm, follow, leading_matches, reference_trace, search, spelled_merges

MAX_CHECK_SECONDS = 30.0
"""A check gives up searching after this long and says which variants it did not try."""
UNEXPLAINED = "unexplained"
_GUESS_SHARE = 0.5
"""The part of the time limit the guess may use; the diagnosis after it needs the rest."""


@dataclass(frozen=True)
class Cause:
    code: str
    message: str


@dataclass(frozen=True)
class YourCounts:
    """The first difference as the learner's own training saw it: the re-training that reproduces
    their merges, stopped just before that step."""

    retrained_with: str
    yours: PairStat
    """Their pair, with its count in their training."""
    reference: PairStat
    """The reference's pair, with its count in their training."""


@dataclass(frozen=True)
class CheckResult:
    total: int
    matching: int
    settings: TrainSettings
    """The reference's settings (the learner's, or the guess when they did not know)."""
    reference: tuple[Spelled, ...]
    divergence: Divergence | None
    """The first difference, with counts in the reference's training at that step."""
    rest: tuple[tuple[int, Spelled, int | None], ...]
    """``(step, merge, step of the same merge in the reference or None)`` from the first difference on."""
    diagnosis: tuple[Cause, ...]
    best: Attempt
    attempts: tuple[Attempt, ...]
    skipped: int = 0
    """Variants not tried because the time limit was reached."""
    guess: Guess | None = None
    """How the settings were guessed, and how far the guess reproduces the merges (None: given)."""
    convention: Convention | None = None
    """When guessed: the well-known trainer whose tie rule the reference took for these settings."""
    yours: YourCounts | None = None
    base_size: int = 0
    """The reference's base vocabulary (256 bytes, or the characters): a vocabulary size counts it."""
    next_merge: PairStat | None = None
    """When every merge matches: the reference's next one (None when it stops there too)."""

    @property
    def guessed(self) -> bool:
        return self.guess is not None

    def code_verdict(self) -> str | None:
        """When the settings make the learner's first merges and no other setting explains the rest (a
        mistake in the code does, or nothing does): "your settings match; your trainer goes wrong at merge
        N", with the counts that differ there (theirs re-derived where a re-training reproduces them)."""
        d = self.divergence
        if d is None or self.matching == 0 or d.ours is None or self.best.variant.settings != self.settings:
            return None
        theirs, ours = shown_pair(d.theirs.spelled), shown_pair(d.ours.spelled)
        said = (f"Your settings match: with them the reference makes your first {self.matching:,} merges. Your trainer "
                f"goes wrong at merge {d.step:,}: ")
        yours = self.yours
        if yours is None:
            return said + (f"it merged {theirs}, which the reference counts {_times(d.theirs.count)} there, while the "
                           f"reference's top pair, {ours}, has {_times(d.ours.count)}. Print your trainer's count of "
                           f"{theirs} before that merge and compare.")
        differ = [f"{shown} {_times(mine)} in your training, {_times(reference)} in the reference's"
                  for shown, mine, reference in ((theirs, yours.yours.count, d.theirs.count),
                                                 (ours, yours.reference.count, d.ours.count)) if mine != reference]
        counts = "; ".join(differ) if differ else (f"the counts agree ({theirs} {_times(d.theirs.count)}, {ours} "
                                                   f"{_times(d.ours.count)}): your trainer chooses another pair among them")
        return said + f"it merged {theirs} where the reference merges {ours}. The counts that differ there: {counts}."


    def count_note(self) -> str | None:
        """When every merge matches: whether the reference goes on, in words (a list one merge short
        matches all the same, so the count is worth a look)."""
        if self.matching < self.total:
            return None
        if self.next_merge is None:
            return (f"All {self.total:,} of your merges match, and the reference stops there too: no pair occurs "
                    f"{self.settings.min_frequency} or more times any more.")
        return (f"All {self.total:,} of your merges match; the reference goes on: its merge {self.total + 1:,} is "
                f"{shown_pair(self.next_merge.spelled)} (count {self.next_merge.count:,}). If your trainer was given a vocabulary size, check "
                f"the number of merges: vocabulary size = base tokens + merges + special tokens, here "
                f"{vocabulary(self.base_size, self.total, len(self.settings.special_tokens))}.")


def _times(count: int | None) -> str:
    return "an unknown number of times" if count is None else f"{count:,} time{'s' * (count != 1)}"


def vocabulary(base_size: int, merges: int, specials: int) -> str:
    """The vocabulary size, summed in words.

    >>> vocabulary(256, 142, 1)
    '256 base tokens + 142 merges + 1 special token = 399'
    """
    return (f"{base_size:,} base tokens + {merges:,} merges + {specials} special token{'s' * (specials != 1)} "
            f"= {base_size + merges + specials:,}")


def check_merges(
    learner: Sequence[Spelled],
    source: CheckCorpus,
    settings: TrainSettings,
    *,
    guess: bool = False,
    keep: Collection[str] = (),
    prefer: Mapping[str, object] | None = None,
    time_limit_s: float = MAX_CHECK_SECONDS,
) -> CheckResult:
    """Compare ``learner``'s merges with the reference trained on ``source`` under ``settings`` and
    diagnose the first difference.

    ``settings.vocab_size``, when given, is the size the learner's trainer was asked for: a list
    that stops short of it or runs on past it is a ``merge-count`` cause. ``guess``: the
    learner does not know their settings; the ones that reproduce their merges furthest become the
    reference, except ``keep`` (settings they gave); ``prefer``: values their file states.
    """
    learner = list(learner)[:MAX_MERGES]
    started = time.perf_counter()
    deadline = started + time_limit_s
    if not guess:
        return _compare(learner, source, settings, deadline, time_limit_s)
    guessed = guess_settings(source, learner, settings, started + time_limit_s * _GUESS_SHARE, keep=keep, prefer=prefer)
    base, convention = guessed.settings, convention_for(guessed.settings)
    if convention is not None and convention.tie_break != base.tie_break:
        base = replace(base, tie_break=convention.tie_break)
    else:
        convention = None
    derive = "min_frequency" not in keep
    result = _compare(learner, source, base, deadline, time_limit_s, derive_min_frequency=derive, convention=convention)
    tie = next((part for part in result.best.variant.single if part.code == "tie-break"), None)
    if convention is None and tie is not None and len(result.best.variant.single) > 1:
        # a mistake *and* another tie rule: with the settings unknown, the tie rule is one of them
        result = _compare(learner, source, tie.settings, deadline, time_limit_s, derive_min_frequency=derive)
    if convention is None:  # the reference is the guess (with any minimum frequency read off the end)
        guessed = replace(guessed, settings=result.settings, reproduced=result.matching)
    return replace(result, guess=replace(guessed, explained=result.best.matching), convention=convention)


def _compare(learner: list[Spelled], source: CheckCorpus, base: TrainSettings, deadline: float, time_limit_s: float,
             *, derive_min_frequency: bool = False, convention: Convention | None = None) -> CheckResult:
    """The check under settings ``base``; ``derive_min_frequency``: a list that stops where the next pair
    occurs once sets the minimum frequency to 2; ``convention``: whose tie rule ``base`` took (for the words)."""
    trace = reference_trace(source.build(base), base, len(learner) + 1, time_limit_s=time_limit_s)
    if trace.stop_reason == STOP_TIME_LIMIT:
        raise BpeError(
            f"the reference needed over {time_limit_s:g} s for {len(learner):,} merges on this corpus and stopped after "
            f"{len(trace.steps):,}; check fewer merges or a shorter excerpt (one very long word, as with the "
            "pre-tokenizer none on a long text, is the slow case)"
        )
    reference = spelled_merges(trace)
    matching = leading_matches(reference, learner)
    next_merge = None
    if matching == len(learner) and len(reference) > len(learner):
        next_merge = PairStat(reference[len(learner)], trace.steps[len(learner)].count, ())
        if derive_min_frequency and next_merge.count == 1 and _all_counted_twice(trace, matching):
            # the list stops where the next pair occurs once: a minimum frequency of 2 (subword-nmt's default) cut it
            base, next_merge = replace(base, min_frequency=2), None
    reference = reference[:len(learner)]
    attempts: list[Attempt] = []
    skipped, divergence, diagnosis, yours = 0, None, [], None
    best = Attempt(Variant("", "the reference", base), matching)
    if matching < len(learner):
        texts = merged_texts(learner)
        normalizations = tuple(name for name, entry in NORMALIZATIONS.items()
                               if not entry.ruled_out(texts) and source.changed_by(name))
        clues = Clues(word_table=source.words is not None, markers=() if base.end_of_word else tuple(markers(learner)),
                      normalizations=normalizations)
        variants = variants_for(base, clues)
        candidates = [v for group in variants.values() for v in group]
        # each mistake with each other tie rule too: free, as the tie rules of one corpus share a pass
        with_ties = [combined(v, tie, base) for v in candidates if v.code != "tie-break" for tie in variants["tie-break"]]
        # the reference itself goes first: its pass (shared with the other tie rules) finds the first difference
        attempts, skipped, run = search(source, [best.variant, *candidates, *with_ties], learner, deadline)
        alone = {a.variant: a.matching for a in attempts if not a.variant.parts}
        # a pair counts only if its second change matters: it must beat each of its changes alone
        attempts = [a for a in attempts[1:] if a.matching > max((alone.get(p, 0) for p in a.variant.parts), default=-1)]
        divergence = run.divergence if run else None
        if divergence is None:  # the replay ran out of time: what the trace alone knows
            ours = PairStat(reference[matching], trace.steps[matching].count, ()) if matching < len(reference) else None
            divergence = Divergence(matching + 1, ours, PairStat(learner[matching], None, ()), 0, ())
        top = sorted((a for a in attempts if a.matching > matching), key=lambda a: -a.matching)
        if top and top[0].matching < len(learner):  # part of the way: the best one with each other change,
            # the changes that went furthest alone first, until one pair reproduces everything
            codes = {part.code for part in top[0].variant.single}
            others = sorted((v for v in candidates if v.code not in codes), key=lambda v: -alone.get(v, 0))
            pairs = [combined(top[0].variant, v, base) for v in others]
            more, _, _ = search(source, [v for v in pairs if v is not None], learner, deadline, until_all=True)
            attempts += more
            # a pair counts only if its second change matters: it must beat the best one alone
            top = sorted([*top, *(a for a in more if a.matching > top[0].matching)], key=lambda a: -a.matching)
        if top:
            top = sorted((confirm(source, a, learner, deadline) if a.matching == top[0].matching else a for a in top),
                         key=lambda a: -a.matching)
            best = top[0]
            winners = [a for a in top if a.matching == best.matching]
            diagnosis = _causes(winners, base, matching, len(learner), convention)
            yours = _your_counts(source, best, learner, divergence, deadline)
        elif len(reference) > matching:
            diagnosis = [_unexplained(attempts, matching, len(learner), divergence, skipped)]
    diagnosis += _count_causes(len(learner), matching, len(reference), next_merge, base, len(trace.base))
    by_pair: dict[Spelled, int] = {}
    for step, pair in enumerate(reference, start=1):
        by_pair.setdefault(pair, step)
    rest = tuple((step, pair, by_pair.get(pair)) for step, pair in enumerate(learner, start=1) if step > matching)
    return CheckResult(
        total=len(learner), matching=matching, settings=base, reference=tuple(reference), divergence=divergence,
        rest=rest, diagnosis=tuple(diagnosis), best=best, attempts=tuple(attempts), skipped=skipped, yours=yours,
        base_size=len(trace.base), next_merge=next_merge,
    )


def _all_counted_twice(trace, merges: int) -> bool:
    return all(step.count >= 2 for step in trace.steps[:merges])


def _your_counts(source: CheckCorpus, best: Attempt, learner: Sequence[Spelled], divergence: Divergence | None,
                 deadline: float) -> YourCounts | None:
    """Both pairs' counts at the first difference in the re-training that reproduces the learner."""
    if divergence is None or divergence.ours is None or best.matching < divergence.step:
        return None
    run = follow(source, best.variant, learner[:divergence.step], deadline=deadline,
                 probe=(divergence.step, (divergence.theirs.spelled, divergence.ours.spelled)))
    if not run.probed:
        return None
    return YourCounts(best.label, *run.probed)


def _causes(winners: list[Attempt], base: TrainSettings, matching: int, total: int,
            convention: Convention | None) -> list[Cause]:
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
                why = (f" The reference breaks ties as {convention.name} does for settings like yours "
                       f"({convention.shape})." if convention and part.code == "tie-break" else "")
                causes.append(Cause(part.code, f"{MISTAKES[part.code].explanation}{why} Re-training with "
                                               f"{attempt.label}: {how_far}. Fix: {part.fix}."))
    return causes


def _count_causes(total: int, matching: int, made: int, next_merge: PairStat | None, base: TrainSettings,
                  base_size: int) -> list[Cause]:
    """A list that stops short of the size it was asked for (``base.vocab_size``), or runs on past it or past
    the reference's end."""
    causes = []
    explanation = MISTAKES["merge-count"].explanation
    specials = len(base.special_tokens)
    wanted = None if base.vocab_size is None else base.vocab_size - base_size - specials
    if wanted is not None and wanted != total:
        formula = vocabulary(base_size, wanted, specials)
        if wanted > total:
            said = f"Your list stops {wanted - total:,} short: it has {total:,} merges, the vocabulary size asked for needs {wanted:,} ({formula})."
            if next_merge is not None:
                said += f" The reference's merge {total + 1:,} is {shown_pair(next_merge.spelled)} (count {next_merge.count:,})."
        else:
            said = f"Your list runs on {total - wanted:,} past the size asked for: it has {total:,} merges, where {formula}."
        causes.append(Cause("merge-count", f"{explanation} {said} Fix: make vocabulary size − base tokens − special "
                                           "tokens merges, e.g. `for _ in range(vocab_size - 256 - len(special_tokens))` "
                                           "on bytes."))
    elif made == matching < total:
        causes.append(Cause("merge-count", f"{explanation} The reference stops after {made:,} merges: no pair occurs "
                                           f"{base.min_frequency} or more times any more. Your list runs on for "
                                           f"{total - made:,} more. Fix: stop when the best pair's count is below the "
                                           "minimum frequency, or when no pair is left."))
    return causes


def _unexplained(attempts: list[Attempt], matching: int, total: int, divergence: Divergence | None, skipped: int) -> Cause:
    furthest = sorted(attempts, key=lambda a: -a.matching)[:3]
    tried = "; ".join(f"{a.label}: {a.matching:,}" for a in furthest)
    evidence = ""
    if divergence is not None and divergence.theirs.count == 0:
        evidence = (" At that merge your pair does not occur at all in the reference's corpus, so your trainer "
                    "saw other text, other symbols, or merged earlier pairs differently.")
    note = f" ({skipped} variants were not tried in the time limit.)" if skipped else ""
    look = (f"Your settings make your first {matching:,} merges, so look at your code: print your trainer's count of "
            f"each pair before merge {matching + 1:,} and compare it with the reference's in the table above."
            if matching else f"Check the corpus and the settings, then compare your counts at merge {matching + 1:,} "
                             "with the reference's in the table above.")
    return Cause(
        UNEXPLAINED,
        f"No single classic mistake or other setting explains the difference: none of the {len(attempts)} re-trainings "
        f"reproduces more than the reference's {matching:,} leading merges of your {total:,} (furthest: {tried})."
        f"{evidence}{note} {look}",
    )
