"""Check a learner's merges against the reference and find the one verdict that explains them.

Scope: the comparison (leading matches, the first difference with both trainings' counts, the rest
of the list, a list that stops short or runs on), the search over
:data:`~bpe.checking.mistakes.MISTAKES`, and the guess of the settings when the learner does not
know them (:mod:`bpe.checking.guess`). Out of scope: reading files (:mod:`bpe.checking.learner`),
the verdict's words (:mod:`bpe.checking.verdict`) and showing the result (the CLI, the JSON report
and the page).

The search re-trains the corpus under every single mistake (cheapest first, each tie rule riding
along in another's pass), then, if none reproduces every merge, under a setting together with one
code mistake, and stops at the first that does, within :data:`~bpe.limits.CHECK_BUDGET_S`. Only a
re-training that reproduces *every* merge is a cause. Among several, the one that keeps the
settings the learner gave comes first (a mistake in the code or the tie rule before another split,
unit or marker), and the others are said to be indistinguishable on this corpus, with a line that
would tell them apart (:mod:`bpe.checking.separation`). The search runs on the compact trainer (it
stops at the first merge that differs); a winning settings variant is re-measured on the reference
trainer. The re-training that reproduces the learner then gives *their* counts at the first
difference, beside the reference's.

    >>> from bpe import TrainSettings
    >>> source = CheckCorpus(words={"low": 5, "lower": 2, "newest": 6, "widest": 3})
    >>> meant = TrainSettings(unit="char", pretokenizer="whitespace", min_frequency=1)
    >>> result = check_merges([(b"s", b"t"), (b"e", b"st"), (b"o", b"w")], source, meant)
    >>> result.matching, result.divergence.ours.spelled, result.divergence.ours.count, result.divergence.theirs.count
    (0, (b'e', b's'), 9, 9)
    >>> result.verdict.kind, [cause.code for cause in result.diagnosis], result.best.label
    ('explained', ['tie-break'], 'ties broken by lexicographic-max')
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import BpeError
from ..limits import CHECK_BUDGET_S, MAX_MERGES
from ..training.settings import TrainSettings
from ..training.trace import STOP_TIME_LIMIT
from .compact import Divergence, PairStat, Spelled, shown_pair
from .guess import Convention, Guess, convention_for, guess_settings, markers, merged_texts
from .mistakes import MISTAKES, Clues, Variant, variants_for
from .normalization import NORMALIZATIONS
from .search import Attempt, CheckCorpus, combined, confirm, follow, leading_matches, reference_trace, search, spelled_merges
from .separation import separating_line
from .verdict import (  # noqa: F401  (UNEXPLAINED: re-exported)
    CORRECT, EXPLAINED, UNEXPLAINED, UNKNOWN, Alternative, Cause, Verdict, cause_for, explained_headline, is_tie,
    unknown_headline,
)

MAX_ALTERNATIVES = 5
"""Re-trainings named as indistinguishable from the verdict's, at most (each costs a search for a line)."""
MAX_CHECK_SECONDS = CHECK_BUDGET_S
"""The search's budget (:data:`bpe.limits.CHECK_BUDGET_S`), under the name earlier releases gave it."""
_GUESS_SHARE = 0.5
"""The part of the time limit the guess may use; the diagnosis after it needs the rest."""


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
    verdict: Verdict = Verdict(CORRECT, "")
    """The one verdict: correct, explained by a mistake (or a pair), or not one the checker knows."""

    @property
    def guessed(self) -> bool:
        return self.guess is not None

    def code_verdict(self) -> str | None:
        """The verdict's words when it is "your settings match; your trainer goes wrong at merge N" (a
        mistake in the code), else None: what earlier releases offered; read :attr:`verdict` instead."""
        said = self.verdict.headline
        return said if said.startswith("Your settings match") else None

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
    time_limit_s: float = CHECK_BUDGET_S,
) -> CheckResult:
    """Compare ``learner``'s merges with the reference trained on ``source`` under ``settings`` and
    find the verdict.

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
    result = _compare(learner, source, base, deadline, time_limit_s, derive_min_frequency=derive, convention=convention,
                      guessed=guessed)
    tie = next((part for part in result.best.variant.single if part.code == "tie-break"), None)
    if convention is None and tie is not None and tie.rules is None and len(result.best.variant.single) > 1:
        # a mistake *and* another tie rule: with the settings unknown, the tie rule is one of them
        result = _compare(learner, source, tie.settings, deadline, time_limit_s, derive_min_frequency=derive,
                          guessed=guessed)
    if convention is None:  # the reference is the guess (with any minimum frequency read off the end)
        guessed = replace(guessed, settings=result.settings, reproduced=result.matching)
    return replace(result, guess=replace(guessed, explained=result.best.matching), convention=convention)


def _clues(learner: list[Spelled], source: CheckCorpus, base: TrainSettings) -> Clues:
    texts = merged_texts(learner)
    normalizations = tuple(name for name, entry in NORMALIZATIONS.items()
                           if not entry.ruled_out(texts) and source.changed_by(name))
    return Clues(word_table=source.words is not None, markers=() if base.end_of_word else tuple(markers(learner)),
                 normalizations=normalizations)


def _preference(attempt: Attempt) -> tuple:
    """Which of several full reproductions the verdict names: one mistake before two; then one that
    keeps the settings the learner gave (the code, the tie rule) before another split, unit or marker;
    then the cheaper; then a tie rule a trainer is known by before one of learners' own (last seen);
    then the registry's order (``sorted`` is stable)."""
    parts = attempt.variant.single
    changed = sum(MISTAKES[part.code].kind == "setting" and part.code != "tie-break" for part in parts)
    own_tie = any(part.code == "tie-break" and part.rules is not None for part in parts)
    return len(parts), changed, attempt.variant.cost, own_tie


def _compare(learner: list[Spelled], source: CheckCorpus, base: TrainSettings, deadline: float, time_limit_s: float,
             *, derive_min_frequency: bool = False, convention: Convention | None = None,
             guessed: Guess | None = None) -> CheckResult:
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
    total = len(learner)
    next_merge = None
    if matching == total and len(reference) > total:
        next_merge = PairStat(reference[total], trace.steps[total].count, ())
        if derive_min_frequency and next_merge.count == 1 and _all_counted_twice(trace, matching):
            # the list stops where the next pair occurs once: a minimum frequency of 2 (subword-nmt's default) cut it
            base, next_merge = replace(base, min_frequency=2), None
    reference = reference[:total]
    variants = variants_for(base, _clues(learner, source, base))
    singles = sorted((v for group in variants.values() for v in group), key=lambda v: v.cost)
    # each mistake with each other tie rule too: free, as the tie rules of one corpus share a pass
    with_ties = [pair for v in singles if v.code != "tie-break" for tie in variants["tie-break"]
                 if (pair := combined(v, tie, base)) is not None]
    reference_variant = Variant("", "the reference", base)
    # the reference itself goes first: its pass (shared with the other tie rules) finds the first difference
    attempts, skipped, run = search(source, [reference_variant, *singles, *with_ties], learner, deadline)
    attempts = attempts[1:]
    divergence = run.divergence if run else None
    if divergence is None and matching < total:  # the replay ran out of time: what the trace alone knows
        ours = PairStat(reference[matching], trace.steps[matching].count, ()) if matching < len(reference) else None
        divergence = Divergence(matching + 1, ours, PairStat(learner[matching], None, ()), 0, ())
    full = [a for a in attempts if a.matching == total]
    if matching < total and not any(len(a.variant.single) == 1 for a in full):
        # no single mistake: a setting with one code mistake, cheapest first, until one reproduces every merge
        settings_kind = [v for v in singles if MISTAKES[v.code].kind == "setting" and v.code != "tie-break"]
        code_kind = [v for v in singles if MISTAKES[v.code].kind == "code"]
        pairs = sorted((pair for s in settings_kind for c in code_kind if (pair := combined(s, c, base)) is not None),
                       key=lambda v: v.cost)
        more, not_tried, _ = search(source, pairs, learner, deadline, until_all=True)
        attempts += more
        skipped += not_tried if time.perf_counter() > deadline else 0
        full += [a for a in more if a.matching == total]
    full = sorted(full, key=_preference)
    best = Attempt(reference_variant, matching)
    yours, alternatives = None, ()
    settings_match = guessed is None or guessed.reproduced >= matching
    if matching == total:
        verdict_kind, causes = CORRECT, []
        alternatives = _alternatives(source, reference_variant, [a for a in full if len(a.variant.single) == 1], total,
                                     trace, deadline)
    else:
        while full and full[0].variant.rules is None:  # a settings variant: the reference trainer must agree
            confirmed = confirm(source, full[0], learner, deadline)
            if confirmed.matching == total:
                break
            full.pop(0)
        if full:
            best = full[0]
            yours = _your_counts(source, best, learner, divergence, deadline)
            verdict_kind, causes = EXPLAINED, _causes(best, base, total, convention, rule_given=guessed is None or bool(convention))
            alternatives = _alternatives(source, best.variant, [a for a in full[1:] if len(a.variant.single) ==
                                                                len(best.variant.single)], total, trace, deadline)
        else:
            verdict_kind, causes = UNKNOWN, []
    counted = _count_causes(total, matching, len(reference), next_merge, base, len(trace.base))
    counts_only = bool(counted) and (verdict_kind == CORRECT or (verdict_kind == UNKNOWN and len(reference) <= matching))
    if counts_only:  # every merge the reference makes is right, but not the number of them
        verdict_kind = EXPLAINED
    headline = _headline(verdict_kind, best, total, matching, divergence, base, attempts, skipped, time_limit_s,
                         settings_match=settings_match, yours=yours, guessed=guessed,
                         counted=[said for _, said in counted] if counts_only else [])
    if verdict_kind == UNKNOWN and len(reference) > matching:
        causes = [Cause(UNEXPLAINED, headline)]
    causes += [cause for cause, _ in counted]
    verdict = Verdict(verdict_kind, headline, tuple(causes), tuple(alternatives), is_tie(divergence))
    by_pair: dict[Spelled, int] = {}
    for step, pair in enumerate(reference, start=1):
        by_pair.setdefault(pair, step)
    rest = tuple((step, pair, by_pair.get(pair)) for step, pair in enumerate(learner, start=1) if step > matching)
    return CheckResult(
        total=total, matching=matching, settings=base, reference=tuple(reference), divergence=divergence,
        rest=rest, diagnosis=tuple(causes), best=best, attempts=tuple(attempts), skipped=skipped, yours=yours,
        base_size=len(trace.base), next_merge=next_merge, verdict=verdict,
    )


def _alternatives(source: CheckCorpus, chosen: Variant, others: list[Attempt], total: int, trace, deadline: float
                  ) -> list[Alternative]:
    """The other re-trainings that make the same merges here (at most :data:`MAX_ALTERNATIVES`), each with a line that tells it
    from ``chosen`` (lines that make ties at the reference's first count, or a mistake's own witness)."""
    found, seen = [], {chosen.label}
    count = trace.steps[0].count if trace.steps else 2
    for attempt in others:
        if attempt.label in seen or len(found) == MAX_ALTERNATIVES:
            continue
        seen.add(attempt.label)
        found.append(Alternative(attempt.label, attempt.variant.code,
                                 separating_line(source, chosen, attempt.variant, total, deadline=deadline, count=count)))
    return found


def _headline(kind: str, best: Attempt, total: int, matching: int, divergence: Divergence | None, base: TrainSettings,
              attempts: list[Attempt], skipped: int, budget_s: float, *, settings_match: bool, yours: YourCounts | None,
              guessed: Guess | None, counted: list[str]) -> str:
    if kind == CORRECT:
        return f"All {total:,} of your merges match the reference."
    if counted:
        first = f"All {total:,} of your merges" if matching == total else f"Your first {matching:,} merges"
        return f"{first} match the reference, but not their number: {counted[0][0].lower()}{counted[0][1:]}"
    if kind == EXPLAINED:
        code_only = settings_match and all(MISTAKES[part.code].kind == "code" for part in best.variant.single)
        return explained_headline(best.variant, total, matching, divergence, base.tie_break, settings_match=code_only,
                                  counts=_counts_sentence(divergence, yours) if code_only else "")
    poor = guessed.sentence() if guessed is not None and guessed.quality == "poor" else ""
    return unknown_headline(total=total, matching=matching, divergence=divergence, tried=len(attempts),
                            skipped=skipped, reference_rule=base.tie_break, budget_s=budget_s,
                            settings_match=settings_match and not poor, poor_guess=poor)


def _counts_sentence(divergence: Divergence | None, yours: YourCounts | None) -> str:
    """``; the counts that differ there: ...`` (their counts re-derived by the re-training that reproduces them)."""
    d = divergence
    if d is None or d.ours is None or yours is None:
        return ""
    theirs, ours = shown_pair(d.theirs.spelled), shown_pair(d.ours.spelled)
    differ = [f"{shown} {_times(mine)} in your training, {_times(reference)} in the reference's"
              for shown, mine, reference in ((theirs, yours.yours.count, d.theirs.count),
                                             (ours, yours.reference.count, d.ours.count)) if mine != reference]
    return "The counts that differ there: " + "; ".join(differ) + ". " if differ else ""


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


def _causes(best: Attempt, base: TrainSettings, total: int, convention: Convention | None, *,
            rule_given: bool) -> list[Cause]:
    """The verdict's causes; ``rule_given``: a tie rule was given (or a convention names one), so another
    one is a mistake, not the learner's own choice."""
    causes = []
    for part in best.variant.single:
        note = ""
        if part.code == "tie-break" and convention:
            note = f" The reference breaks ties as {convention.name} does for settings like yours ({convention.shape})."
        elif part.code == "tie-break" and not rule_given:
            note = (f" You gave no tie rule, so the reference took {base.tie_break}: yours is a rule of its own, not a "
                    "mistake, unless your assignment names one.")
        causes.append(cause_for(part, f"this reproduces all {total:,} of your merges", convention_note=note))
    return causes


def _count_causes(total: int, matching: int, made: int, next_merge: PairStat | None, base: TrainSettings,
                  base_size: int) -> list[tuple[Cause, str]]:
    """``(cause, what it says in a sentence)`` for a list that stops short of the size it was asked for
    (``base.vocab_size``), or runs on past it or past the reference's end."""
    specials = len(base.special_tokens)
    wanted = None if base.vocab_size is None else base.vocab_size - base_size - specials
    if wanted is not None and wanted != total:
        formula = vocabulary(base_size, wanted, specials)
        if wanted > total:
            said = f"your list stops {wanted - total:,} short: it has {total:,} merges, the vocabulary size asked for needs {wanted:,} ({formula})."
            if next_merge is not None:
                said += f" The reference's merge {total + 1:,} is {shown_pair(next_merge.spelled)} (count {next_merge.count:,})."
        else:
            said = f"your list runs on {total - wanted:,} past the size asked for: it has {total:,} merges, where {formula}."
        fix = ("make vocabulary size − base tokens − special tokens merges, e.g. `for _ in range(vocab_size - 256 - "
               "len(special_tokens))` on bytes")
    elif made == matching < total:
        said = (f"the reference stops after {made:,} merges: no pair occurs {base.min_frequency} or more times any more. "
                f"Your list runs on for {total - made:,} more.")
        fix = "stop when the best pair's count is below the minimum frequency, or when no pair is left"
    else:
        return []
    mistake = MISTAKES["merge-count"]
    said = said[0].upper() + said[1:]
    return [(Cause("merge-count", f"{mistake.explanation} {said} Fix ({mistake.line}): {fix}.", mistake.line), said)]
