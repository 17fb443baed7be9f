"""One verdict for a check of a learner's merges: what it says, in words, from the search's findings.

Scope: the :class:`Verdict` (``correct``, ``explained`` by one mistake or a pair, or ``unknown``:
not one of the mistakes the checker knows), its causes with the line of the learner's trainer
each fix goes on, the tie at the first difference when there is one, and the mistakes the corpus
cannot tell apart from the verdict's. Out of scope: the search that finds them
(:mod:`bpe.checking.diagnose`) and drawing them (:mod:`bpe.views.check`).

The rules that keep it from misleading, each checked in ``tests/test_checking_verdict.py``:

* a cause is named only when re-training with it reproduces *every* merge ("reproduces 100 of your
  100 merges"); a re-training that goes part of the way is evidence in the table of tries, never a
  cause;
* a tie at the first difference is said to be a tie, and a tie rule is named by its effect;
* "your settings match" is said only when the given (or guessed) settings make the first merges
  *and* the cause is in the code; a poor guess says so instead, never both;
* with no cause, the verdict names the first difference and the exact thing to print there.

    >>> Verdict("correct", "All 3 of your merges match the reference.").causes
    ()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .compact import Divergence, shown_pair
from .mistakes import MISTAKES, Variant
from .ties import TIE_EFFECTS

CORRECT, EXPLAINED, UNKNOWN = "correct", "explained", "unknown"
UNEXPLAINED = "unexplained"
"""The code of the one cause an ``unknown`` verdict has."""


@dataclass(frozen=True)
class Cause:
    code: str
    message: str
    line: str = ""
    """The line of the learner's trainer the fix goes on (a :class:`~bpe.checking.mistakes.Mistake`'s ``line``)."""


@dataclass(frozen=True)
class Separation:
    """A line that, added to the corpus, makes two re-trainings part: where, and what each merges there."""

    line: str
    step: int
    first: tuple[bytes, bytes] | None
    second: tuple[bytes, bytes] | None
    times: int = 1
    """How many times the line is added (a witness repeated past the corpus's top count)."""
    at_start: bool = False
    """Added before the corpus, not after it."""

    @property
    def said(self) -> str:
        """The line as the verdict asks for it: ``'aaa aaa' (3,001 lines of it)``, ``at the start: 'qjx'
        (5 lines), then ...`` for lines of several words."""
        lines = self.line.split("\n")
        if len(lines) > 1:  # runs of the same line
            runs: list[list] = []
            for line in lines:
                if runs and runs[-1][0] == line:
                    runs[-1][1] += 1
                else:
                    runs.append([line, 1])
            shown = ", then ".join(f"{line!r} ({times:,} lines)" for line, times in runs)
        elif len(set(words := self.line.split())) == 1 and len(words) > 3:  # one word, many times
            shown = f"{words[0]!r} {len(words):,} times on one line"
        else:
            shown = repr(self.line if len(self.line) <= 60 else self.line[:57] + "…")
            shown += f" ({self.times:,} lines of it)" if self.times > 1 else ""
        return f"{shown} at the start of the corpus" if self.at_start else shown


@dataclass(frozen=True)
class Alternative:
    """Another re-training that makes the same merges on this corpus."""

    label: str
    code: str
    separation: Separation | None
    """A line that tells it from the verdict's (None: none found among those tried)."""

    def sentence(self, against: str) -> str:
        s = self.separation
        if s is None:
            return (f"a trainer with {self.label} makes the same merges on this corpus, and no line I tried tells it "
                    f"from {against}: the two may agree on every corpus")
        first = shown_pair(s.first) if s.first else "nothing"
        second = shown_pair(s.second) if s.second else "nothing"
        return (f"a trainer with {self.label} makes the same merges on this corpus; add the line {s.said} to tell it "
                f"from {against} (merge {s.step:,} is then {first} with {against}, {second} with {self.label})")


@dataclass(frozen=True)
class Verdict:
    kind: str
    """:data:`CORRECT`, :data:`EXPLAINED` or :data:`UNKNOWN`."""
    headline: str
    """The verdict in a sentence or three: the one thing the page, the CLI and the JSON say first."""
    causes: tuple[Cause, ...] = ()
    alternatives: tuple[Alternative, ...] = ()
    is_tie: bool = False
    """The first difference is a tie: the learner's pair has the reference's pair's count there."""

    def alternatives_sentence(self, against: str) -> str:
        """The mistakes this corpus cannot tell apart from ``against`` (empty when none)."""
        if not self.alternatives:
            return ""
        start = "This corpus cannot show every mistake: " if self.kind == CORRECT else "Cannot be told apart on this corpus: "
        return start + "; ".join(a.sentence(against) for a in self.alternatives) + "."


def is_tie(divergence: Divergence | None) -> bool:
    """The reference's pair and the learner's have the same count at the first difference."""
    d = divergence
    return bool(d and d.ours is not None and d.tie_count > 1 and d.theirs.count == d.ours.count)


def tie_sentence(divergence: Divergence, rule: str) -> str:
    """``Merge 18 is a tie: 3 pairs occur 108 times (...); the reference (rule r) takes X, yours takes Y.``"""
    d = divergence
    tied = ", ".join(shown_pair(pair) for pair in d.tied[:4]) + (f" and {d.tie_count - 4:,} more" if d.tie_count > 4 else "")
    return (f"Merge {d.step:,} is a tie: {d.tie_count:,} pairs occur {d.ours.count:,} times ({tied}). The reference "
            f"takes {shown_pair(d.ours.spelled)}, {TIE_EFFECTS[rule].effect} (rule {rule}); yours takes "
            f"{shown_pair(d.theirs.spelled)}.")


def cause_for(part: Variant, reproduced: str, *, convention_note: str = "") -> Cause:
    """One part of the verdict's re-training as a cause: what goes wrong, the evidence, the fix and its line."""
    mistake = MISTAKES[part.code]
    return Cause(part.code, f"{mistake.explanation}{convention_note} Re-training with {part.label}: {reproduced}. "
                            f"Fix ({mistake.line}): {part.fix}.", mistake.line)


def explained_headline(variant: Variant, total: int, matching: int, divergence: Divergence | None, reference_rule: str,
                       *, settings_match: bool, counts: str = "") -> str:
    """The verdict when ``variant`` reproduces all ``total`` merges; ``counts``: the sentence on the counts
    that differ at the first difference (their training's against the reference's)."""
    parts = variant.single
    evidence = f"reproduces all {total:,} of your merges"
    tie_part = next((part for part in parts if part.code == "tie-break"), None)
    said = ""
    if divergence is not None and is_tie(divergence) and tie_part is not None:
        rule = TIE_EFFECTS[_tie_name(tie_part)]
        said = (tie_sentence(divergence, reference_rule) + f" Your trainer breaks ties its own way: it takes "
                f"{rule.effect} (rule {rule.name}). The line that does it: {rule.pick}. ")
    elif settings_match and matching and divergence is not None:
        said = (f"Your settings match: with them the reference makes your first {matching:,} merges. Your trainer goes "
                f"wrong at merge {divergence.step:,} ({MISTAKES[parts[-1].code].line}): it merged "
                f"{shown_pair(divergence.theirs.spelled)} where the reference merges "
                f"{shown_pair(divergence.ours.spelled) if divergence.ours else 'nothing (no pair is left)'}. {counts}")
    if len(parts) == 1:
        return f"{said}Re-trained that way ({variant.label}), the reference {evidence}."
    lines = " and ".join(f"{part.label} ({MISTAKES[part.code].line})" for part in parts)
    return f"{said}Two mistakes at once: {lines}. Re-trained with both, the reference {evidence}; with either alone it does not."


def _tie_name(part: Variant) -> str:
    return part.rules.tie if part.rules is not None and part.rules.tie else part.settings.tie_break


def unknown_headline(*, total: int, matching: int, divergence: Divergence | None, tried: int, skipped: int,
                     reference_rule: str, settings_match: bool, poor_guess: str = "", budget_s: float = 0.0) -> str:
    """The verdict when no mistake the checker knows reproduces every merge: the first difference and
    the exact thing to print there."""
    searched = f"none of the {tried:,} re-trainings I tried (single mistakes, then a setting with a code mistake) " \
               f"reproduces all {total:,} of your merges"
    if skipped:
        searched += f"; {skipped:,} more were not tried within the {budget_s:g} s budget"
    said = f"Not one of the mistakes I know: {searched}."
    if poor_guess:
        said += f" {poor_guess}"
    d = divergence
    if d is None:
        return said
    yours = shown_pair(d.theirs.spelled)
    if is_tie(d):
        print_line = (f" {tie_sentence(d, reference_rule)} No tie rule I know takes {yours} there: print the pairs your "
                      f"trainer has tied at the top count just before merge {d.step:,}, in the order your code sees "
                      "them, and the line that picks one.")
    elif d.ours is None:
        print_line = (f" The reference has no pair left at merge {d.step:,}; yours merges {yours}: print your "
                      "trainer's pair counts there.")
    else:
        ours = shown_pair(d.ours.spelled)
        counted = ("does not occur at all" if d.theirs.count == 0 else
                   f"occurs {d.theirs.count:,} time{'s' * (d.theirs.count != 1)}") if d.theirs.count is not None else "is not counted"
        elsewhere = (" (so your trainer saw other text or other symbols, or merged earlier pairs differently)"
                     if d.theirs.count == 0 else "")
        print_line = (f" At merge {d.step:,} yours merges {yours}, the reference {ours}. In the reference's training "
                      f"{yours} {counted}{elsewhere} and {ours} {d.ours.count:,} times: print your trainer's count of "
                      f"both just before that merge (e.g. `print(stats[{_pair_code(d.theirs.spelled)}], "
                      f"stats[{_pair_code(d.ours.spelled)}])`) and look at the line that counts them.")
    start = (f" Your settings make your first {matching:,} merges, so the difference is in your code." if settings_match
             and matching else "")
    return said + start + print_line


def _pair_code(pair: Sequence[bytes]) -> str:
    return "(" + ", ".join(repr(part) for part in pair) + ")"
