"""The tie lab: one corpus trained under every tie-break rule, and where the rules part ways.

Ties decide real merges (on Wikipedia's "aaabdaaabac" the second merge is a tie), so the same corpus
can teach different vocabularies. This module trains under each rule and lines the runs up: the
merge list per rule, a per-step table of the token each rule made, the first merge at which each
pair of rules disagrees, the final segmentation of the corpus under each rule, and a plain-words
explanation. It also says *why* a rule prefers one tied pair over another (the quiz reuses that).

    >>> from bpe.teaching.tie_lab import tie_lab_for_preset
    >>> lab = tie_lab_for_preset("wikipedia")
    >>> lab.runs["lexicographic-min"].tokens, lab.runs["first-seen"].tokens
    (('aa', 'ab', 'aaab'), ('aa', 'aaa', 'aaab'))
    >>> lab.divergence("first-seen", "lexicographic-min"), lab.divergence("first-seen", "lexicographic-max")
    (2, None)
    >>> lab.runs["first-seen"].segmentation, lab.same_segmentation
    (('aaab', 'd', 'aaab', 'a', 'c'), True)

Scope: small corpora (every rule is a full training run; a page should cache the lab and keep to
a few thousand merges). Out of scope: choosing the winner (``bpe.training.tiebreak`` does, inside the
trainer); this module only reads the recorded steps and explains them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import quote, spelled, visible_text
from ..text.corpus import Corpus
from ..tokens.vocab import Pair, token_sort_bytes
from ..training import tiebreak
from ..training.presets import get_preset
from ..training.settings import TrainSettings
from ..training.tiebreak import TieContext, hf_ranks, tie_break_rule
from ..training.trace import Trace
from ..training.trainer import train



@dataclass(frozen=True)
class RuleRun:
    """One training run under ``rule``."""

    rule: str
    trace: Trace
    merges: tuple[str, ...]
    """Each merge as ``'aa' + 'a'``."""
    tokens: tuple[str, ...]
    """The token each merge made, in order, spelled as the chips spell it (a space is ``·``)."""
    segmentation: tuple[str, ...]
    """The corpus text encoded with every merge of this run, one spelled string per token."""


@dataclass(frozen=True)
class StepRow:
    """Merge number ``step`` (1-based) under every rule; ``None`` once a rule has stopped."""

    step: int
    made: dict[str, str | None]
    """Rule -> the token it made at this step."""
    merged: dict[str, str | None]
    """Rule -> the pair it merged, as ``'aa' + 'a'``."""

    @property
    def agree(self) -> bool:
        return len(set(self.merged.values())) == 1


@dataclass(frozen=True)
class TieLab:
    text: str
    """The text that was segmented (a word table written out as words)."""
    runs: dict[str, RuleRun]
    """Rule -> its run, in the order of ``TIE_BREAK_RULES``."""

    @cached_property
    def rows(self) -> tuple[StepRow, ...]:
        """The per-step table: which token each rule made at each merge."""
        longest = max((len(run.trace.steps) for run in self.runs.values()), default=0)
        return tuple(
            StepRow(
                step + 1,
                {rule: run.tokens[step] if step < len(run.tokens) else None for rule, run in self.runs.items()},
                {rule: run.merges[step] if step < len(run.merges) else None for rule, run in self.runs.items()},
            )
            for step in range(longest)
        )

    def divergence(self, rule_a: str, rule_b: str) -> int | None:
        """The first merge (1-based) at which the two rules differ; ``None`` if they never do."""
        return first_divergence(self.runs[rule_a].trace, self.runs[rule_b].trace)

    @property
    def first_disagreement(self) -> int | None:
        """The earliest merge at which not every rule agrees."""
        return next((row.step for row in self.rows if not row.agree), None)

    @property
    def same_segmentation(self) -> bool:
        return len({run.segmentation for run in self.runs.values()}) <= 1

    def groups(self) -> list[list[str]]:
        """Rules that learn exactly the same merges, grouped, in rule order."""
        groups: dict[tuple[str, ...], list[str]] = {}
        for rule, run in self.runs.items():
            groups.setdefault(run.merges, []).append(rule)
        return list(groups.values())

    def explanation(self) -> str:
        """Why the rules differ, and what difference it makes to the segmentation, in plain words."""
        return explain(self)


def run_rules(
    corpus: Corpus, settings: TrainSettings, *, text: str, rules: tuple[str, ...] | None = None
) -> TieLab:
    """Train ``corpus`` once per rule (every registered rule by default; other settings unchanged)
    and segment ``text`` with each run."""
    runs = {}
    for rule in tiebreak.TIE_BREAK_RULES if rules is None else rules:  # read now: the registry may grow
        trace = train(corpus, replace(settings, tie_break=rule))
        runs[rule] = RuleRun(
            rule,
            trace,
            tuple(merge_label(trace, (step.left, step.right)) for step in trace.steps),
            tuple(spelled(trace, step.new_id) for step in trace.steps),
            final_segmentation(trace, text),
        )
    return TieLab(text, runs)


def tie_lab_for_preset(name: str) -> TieLab:
    """:func:`run_rules` on a preset's corpus and settings, segmenting the preset's text."""
    preset = get_preset(name)
    return run_rules(preset.corpus(), preset.settings, text=preset.corpus_text)


def final_segmentation(trace: Trace, text: str) -> tuple[str, ...]:
    """``text`` encoded with every merge of ``trace``, as token strings.

    >>> from bpe import PRESETS, train
    >>> final_segmentation(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings), "aaabdaaabac")
    ('aaab', 'd', 'aaab', 'a', 'c')
    """
    tokenizer = Tokenizer.from_trace(trace)
    tokens, marker = tokenizer.tokens, tokenizer.end_of_word
    return tuple(
        visible_text(tokens[i].data, marker, tokens[i].ends_word) for i in tokenizer.encode(text, allowed_special="all")
    )


def first_divergence(a: Trace, b: Trace) -> int | None:
    """The first merge (1-based) that differs between two runs, or that only one of them made.

    Merges are compared by spelling, so runs over different base alphabets still line up.
    """
    for index in range(max(len(a.steps), len(b.steps))):
        if index >= len(a.steps) or index >= len(b.steps):
            return index + 1
        if _spelled(a, a.steps[index]) != _spelled(b, b.steps[index]):
            return index + 1
    return None


def token_label(trace: Trace, token_id: int) -> str:
    """A token inside a sentence: ``'·the'`` (never a Python literal such as ``b' the'``)."""
    return quote(spelled(trace, token_id))


def merge_label(trace: Trace, pair: Pair) -> str:
    """A pair as people read it: ``'aa' + 'a'``; a space is ``'·'``, as on the Train page."""
    return f"{token_label(trace, pair[0])} + {token_label(trace, pair[1])}"


def why_rule_picks(trace: Trace, winner: Pair, loser: Pair) -> str:
    """Why the trace's tie-break rule puts ``winner`` before ``loser`` (both at the same count).

    The sentence completes "the <rule> rule picks <winner> because ..."; each rule writes its own
    (``TieBreakRule.why`` in :mod:`bpe.training.tiebreak`).

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> why_rule_picks(trace, (97, 98), (256, 97))
    "its byte strings are the smallest, comparing the left token first: ('a', 'b') < ('aa', 'a')"
    """
    return tie_break_rule(trace.settings.tie_break).why(trace_context(trace), winner, loser)


def rule_pick(trace: Trace, rule: str, tied: Sequence[Pair]) -> Pair | None:
    """The pair of ``tied`` (pairs sharing the top count) that ``rule`` would merge, or ``None``
    when the rule needs where each pair first occurs, which a finished trace does not keep.

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> [trace.token_text(token) for token in rule_pick(trace, "lexicographic-max", trace.steps[1].tied)]
    ['aa', 'a']
    >>> rule_pick(trace, "first-seen", trace.steps[1].tied) is None
    True
    """
    chosen = tie_break_rule(rule)
    if chosen.tracks_first_occurrence or not tied:
        return None
    key = chosen.key(trace_context(trace))
    return (max if chosen.greatest_wins else min)(tied, key=key)


def trace_context(trace: Trace) -> TieContext:
    """What a rule reads, rebuilt from a finished trace (first occurrences are not kept in a trace:
    a rule that tracks them explains itself without asking where a pair occurs)."""
    return TieContext(
        sort_bytes=[token_sort_bytes(token, trace.settings.end_of_word) for token in trace.tokens],
        hf_rank=hf_ranks(trace.base, unit=trace.settings.unit, vocab_size=len(trace.tokens)),
        unit=trace.settings.unit,
        first_occurrence=_not_in_a_trace,
        label=lambda pair: merge_label(trace, pair),
        spell=lambda data: quote(visible_text(data)),
    )


def _not_in_a_trace(pair: Pair) -> tuple[int, int]:
    raise RuntimeError("internal error: a trace does not keep first occurrences; explain without them")


def explain(lab: TieLab, *, max_examples: int = 3) -> str:
    """The lab's story in plain words: the first disagreement, who picked what, and the outcome."""
    step_number = lab.first_disagreement
    if step_number is None:
        some = next(iter(lab.runs.values())).trace
        ties = sum(step.tie_count > 1 for step in some.steps)
        if not some.steps:
            return f"No rule learns any merge here: {some.stop_detail}."
        merges = "merge" if len(some.steps) == 1 else f"{len(some.steps)} merges"
        return (
            f"Every rule learns the same {merges} here: "
            + (f"{ties} of them {'was a tie' if ties == 1 else 'were ties'}, but " if ties else "there was no tie, so ")
            + "no rule ever had to choose differently."
        )
    row = lab.rows[step_number - 1]
    reference = next(run.trace for run in lab.runs.values() if step_number <= len(run.trace.steps))
    step = reference.steps[step_number - 1]
    shown = [merge_label(reference, pair) for pair in step.tied[:4]]
    tied = _join(shown) + (f" (and {step.tie_count - len(shown)} more)" if step.tie_count > len(shown) else "")
    both = "both" if step.tie_count == 2 else f"all {step.tie_count}"
    parts = [f"At merge {step_number}, {tied} {both} occur {step.count} times."]
    by_choice: dict[str | None, list[str]] = {}
    for rule, label in row.merged.items():
        by_choice.setdefault(label, []).append(rule)
    choices = []
    for label, rules in by_choice.items():
        who = f"the {_join(rules)} rule{'s' if len(rules) > 1 else ''}"
        if label is None:
            choices.append(f"{who} had already stopped")
        else:
            choices.append(f"{who} pick{'s' if len(rules) == 1 else ''} {label} (making {quote(row.made[rules[0]])})")
    parts.append("; ".join(choices)[0].upper() + "; ".join(choices)[1:] + ".")
    segmentations = {run.segmentation for run in lab.runs.values()}
    if len(segmentations) == 1:
        (segmentation,) = segmentations
        shown_segmentation = (
            f", {' | '.join(segmentation)}" if len(segmentation) <= 20 else f" ({len(segmentation)} tokens)"
        )
        parts.append(
            "The runs learn different tokens along the way, yet every rule ends with the same "
            f"segmentation of the corpus{shown_segmentation}."
        )
        parts.extend(_routes(lab, segmentation)[:max_examples])
    else:
        sizes = "; ".join(
            f"{_join(rules)}: {len(lab.runs[rules[0]].segmentation)} tokens" for rules in _by(lab, "segmentation")
        )
        parts.append(f"The final segmentations differ ({sizes}).")
        parts.extend(_different_words(lab)[:max_examples])
    return " ".join(parts)


def _by(lab: TieLab, field: str) -> list[list[str]]:
    """Rules grouped by equal values of a :class:`RuleRun` field, in rule order."""
    groups: dict[object, list[str]] = {}
    for rule, run in lab.runs.items():
        groups.setdefault(getattr(run, field), []).append(rule)
    return list(groups.values())


def _routes(lab: TieLab, segmentation: tuple[str, ...]) -> list[str]:
    """For tokens the rules built from different pairs: one sentence on each route."""
    sentences = []
    for token in dict.fromkeys(segmentation):
        routes: dict[str, list[str]] = {}
        for rule, run in lab.runs.items():
            if token in run.tokens:
                routes.setdefault(run.merges[run.tokens.index(token)], []).append(rule)
        if len(routes) > 1:
            ways = "; ".join(f"{_join(rules)} as {label}" for label, rules in routes.items())
            sentences.append(f"{quote(token)} is built by different merges: {ways}.")
    return sentences


def _different_words(lab: TieLab) -> list[str]:
    """For words the rules segment differently: one sentence each, in order of appearance."""
    tokenizers = {rule: Tokenizer.from_trace(run.trace) for rule, run in lab.runs.items()}
    some = next(iter(tokenizers.values()))
    sentences = []
    for word in dict.fromkeys(some.pretokenizer.words(lab.text)):
        ways: dict[str, list[str]] = {}
        for rule, tokenizer in tokenizers.items():
            pieces = " ".join(
                quote(visible_text(tokenizer.tokens[i].data)) for i in tokenizer.encode_ordinary(word)
            )
            ways.setdefault(pieces, []).append(rule)
        if len(ways) > 1:
            sentences.append(
                f"{quote(word)} becomes " + "; ".join(f"{pieces} under {_join(rules)}" for pieces, rules in ways.items()) + "."
            )
    return sentences


def _spelled(trace: Trace, step) -> tuple[str, str]:
    return trace.token_text(step.left), trace.token_text(step.right)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


