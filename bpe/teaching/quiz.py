"""Predict the next merge: a multiple-choice question built from a trace, graded in plain words.

After ``k`` merges the learner is shown a few candidate pairs and picks the one merge ``k + 1``
will make. The candidates come from the step record itself (no retraining): the true pair, the
pairs tied with it (the most instructive wrong answers, first one another library's tie rule
would merge) and the runners-up. The right answer's place is drawn from the learner's seed and
the question, so it is uniform over the options, yet the same each time that learner sees that
question (a page rerun, a reload of their link).

    >>> from bpe import PRESETS, train
    >>> from bpe.teaching.quiz import Score, grade, make_question
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> question = make_question(trace, 1)
    >>> question.prompt
    'After 1 merge, which pair does merge 2 join?'
    >>> sorted(c.label for c in question.candidates)
    ["'a' + 'b'", "'a' + 'c'", "'aa' + 'a'", "'b' + 'a'"]
    >>> result = grade(question, (256, 97))
    >>> result.verdict, result.correct
    ('right_count', False)
    >>> print(result.explanation)
    Right count, but the tie-break picks 'a' + 'b' (making 'ab'): 'aa' + 'a' also occurs 2 times. It was a tie between 2 pairs at count 2, and the lexicographic-min rule picks 'a' + 'b' because its byte strings are the smallest, comparing the left token first: ('a', 'b') < ('aa', 'a').
    >>> Score().add(result).add(grade(question, question.answer))
    Score(answered=2, correct=1, right_count=1, streak=1, best_streak=1)

Scope: the question, its grading and a running score. Out of scope: drawing them, and rebuilding
the corpus to find distractors (the step records the top pairs; a trace trained with ``top_k=0``
and no tie yields a one-choice question).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..notation.spelling import quote, spelled
from ..tokens.vocab import Pair
from ..training.tiebreak import TIE_BREAK_RULES
from ..training.trace import STOP_MERGES, STOP_TIME_LIMIT, STOP_VOCAB_SIZE, Trace
from .tie_lab import merge_label, rule_pick, why_rule_picks

CORRECT = "correct"
RIGHT_COUNT = "right_count"
"""The chosen pair tied with the winner at the top count but lost the tie-break."""
WRONG = "wrong"
REVEALED = "revealed"
"""Nobody answered: the answer was shown (a teacher's clicker, or a learner who gives up)."""


@dataclass(frozen=True)
class Candidate:
    left: int
    right: int
    label: str
    """As people read it: ``'aa' + 'a'``."""
    count: int | None
    """How often it occurs (with overlap); reveal it only after grading. ``None``: not recorded."""

    @property
    def pair(self) -> Pair:
        return self.left, self.right


@dataclass(frozen=True)
class Question:
    step: int
    """Merges done so far (0-based ``k``); the question is about merge ``k + 1``."""
    prompt: str
    candidates: tuple[Candidate, ...]
    """Shuffled; empty when training stopped at ``step``."""
    answer: Pair | None
    """The pair merge ``k + 1`` joins; ``None`` when there is no next merge."""
    new_token: str
    """The token the answer makes (``""`` when finished)."""
    count: int
    """The winning count (0 when finished)."""
    tie_count: int
    tied: tuple[Pair, ...]
    """Pairs tied at ``count``, the winner first (as recorded: at most the trace's ``max_ties``)."""
    rule: str
    stop_detail: str
    """Why training stopped, when ``answer`` is ``None``."""
    tie_reasons: tuple[tuple[Pair, str], ...] = ()
    """Why the rule prefers the answer over each other tied candidate."""
    runner_up: str = ""
    """The best pair below the winning count, with its count, if recorded (``'a' + 'b', 2 times``)."""
    recorded_counts: tuple[tuple[Pair, int], ...] = ()
    """Every pair whose count the trace recorded (the kept ties and the top pairs), so a pair tied
    beyond the kept ties is still graded by its count."""

    @property
    def finished(self) -> bool:
        return self.answer is None


@dataclass(frozen=True)
class Result:
    step: int
    chosen: Pair | None
    """The learner's pick; ``None`` when the answer was revealed without one."""
    answer: Pair
    verdict: str
    """``correct``, ``right_count`` (tied but lost the tie-break), ``wrong`` or ``revealed``."""
    counts: tuple[Candidate, ...]
    """Every candidate (and the chosen pair) with its count, most frequent first."""
    explanation: str

    @property
    def correct(self) -> bool:
        return self.verdict == CORRECT


@dataclass(frozen=True)
class Score:
    answered: int = 0
    correct: int = 0
    right_count: int = 0
    """Answers that had the top count but lost the tie-break."""
    streak: int = 0
    best_streak: int = 0

    def add(self, result: Result) -> "Score":
        """A new score with ``result`` counted (scores are immutable, so they survive reruns)."""
        streak = self.streak + 1 if result.correct else 0
        return Score(
            answered=self.answered + 1,
            correct=self.correct + result.correct,
            right_count=self.right_count + (result.verdict == RIGHT_COUNT),
            streak=streak,
            best_streak=max(self.best_streak, streak),
        )

def make_question(trace: Trace, step: int, *, choices: int = 4, seed: int | str = 0) -> Question:
    """The question "which pair does merge ``step + 1`` join?" with up to ``choices`` candidates.

    The wrong answers are pairs a learner could really pick (:func:`distractors`). Where the
    right one stands is drawn from ``seed`` (one learner's, e.g. kept in their link) and the
    question together: uniform over the positions, across questions and across learners, and the
    same every time that learner meets that question. At the last step the question is
    ``finished`` and says why.
    """
    trace.check_step(step)
    rule = trace.settings.tie_break
    if step == len(trace.steps):
        return Question(step, _stopped_prompt(trace), (), None, "", 0, 0, (), rule, trace.stop_detail)

    record = trace.steps[step]
    answer = (record.left, record.right)
    counts: dict[Pair, int] = {pair: record.count for pair in record.tied}
    for top in record.top_pairs:
        counts.setdefault((top.left, top.right), top.count)
    wrong = distractors(trace, step, max(choices - 1, 0))
    # subtle: a string seed is hashed (SHA-512) by random.Random, so the order is the same in every
    # process, and the answer is in the seed, so two corpora's questions at one step differ too
    order = random.Random(f"{seed}/{step}/{answer}")
    pairs = order.sample(wrong, len(wrong))
    pairs.insert(order.randrange(len(pairs) + 1), answer)

    candidates = tuple(Candidate(a, b, merge_label(trace, (a, b)), counts.get((a, b))) for a, b in pairs)
    reasons = tuple((pair, why_rule_picks(trace, answer, pair)) for pair in record.tied if pair != answer)
    runner_up = next(
        (f"{merge_label(trace, (p.left, p.right))}, {_times(p.count)}" for p in record.top_pairs if p.count < record.count),
        "",
    )
    after = f"After {step} merge{'s' if step != 1 else ''}" if step else "Before any merge"
    return Question(
        step=step,
        prompt=f"{after}, which pair does merge {step + 1} join?",
        candidates=candidates,
        answer=answer,
        new_token=spelled(trace, record.new_id),
        count=record.count,
        tie_count=record.tie_count,
        tied=record.tied,
        rule=rule,
        stop_detail="",
        tie_reasons=reasons,
        runner_up=runner_up,
        recorded_counts=tuple(counts.items()),
    )


def distractors(trace: Trace, step: int, room: int) -> list[Pair]:
    """Up to ``room`` wrong answers for merge ``step + 1``, the ones a learner could really pick:
    the pairs tied with the answer, first any that another library's tie rule would merge (the
    pairs this rule passes over), then the runners-up by count; when both kinds exist, at least
    one runner-up, so a tie question asks about the count *and* the rule.

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)   # merge 3: a 3-way tie at 7
    >>> [merge_label(trace, pair) for pair in distractors(trace, 2, 3)]
    ["'·' + 'l'", "'l' + 'o'", "'w' + 'est'"]
    """
    record = trace.steps[step]
    answer = (record.left, record.right)
    passed_over = [
        pick for name in TIE_BREAK_RULES if name != trace.settings.tie_break
        if (pick := rule_pick(trace, name, record.tied)) is not None and pick != answer
    ]
    tied = list(dict.fromkeys([*passed_over, *(pair for pair in record.tied if pair != answer)]))
    lower = [(top.left, top.right) for top in record.top_pairs if top.count < record.count]
    tied_share = min(len(tied), room - 1 if lower and room > 1 else room)
    picked = tied[:tied_share] + lower[: room - tied_share]
    return picked + tied[tied_share:][: room - len(picked)]  # too few lower pairs: more tied ones


def grade(question: Question, chosen: Pair) -> Result:
    """Grade ``chosen`` (a pair of token ids) and explain the answer.

    Raises ``ValueError`` on a finished question: there is nothing to predict.
    """
    if question.answer is None:
        raise ValueError(f"there is no merge {question.step + 1} to predict: {question.stop_detail}")
    chosen = (chosen[0], chosen[1])
    by_pair = {candidate.pair: candidate for candidate in question.candidates}
    answer = by_pair[question.answer]
    mine = by_pair.get(chosen)
    if mine is None:
        count = dict(question.recorded_counts).get(chosen, question.count if chosen in question.tied else None)
        mine = Candidate(chosen[0], chosen[1], f"{chosen}", count)
    shown = [*question.candidates] + ([] if chosen in by_pair else [mine])
    shown.sort(key=lambda c: -1 if c.count is None else c.count, reverse=True)

    made = f"{answer.label} (making {quote(question.new_token)})"
    if chosen == question.answer:
        verdict = CORRECT
        if question.tie_count > 1:
            text = (
                f"Right: {answer.label} occurs {_times(question.count)} and merge {question.step + 1} makes "
                f"{quote(question.new_token)}. " + _tie_sentence(question, _rival(question))
            )
        else:
            beaten = f" (next best: {question.runner_up})" if question.runner_up else ""
            text = (
                f"Right: {answer.label} occurs {_times(question.count)}, more than any other pair{beaten}, "
                f"so merge {question.step + 1} makes {quote(question.new_token)}."
            )
    elif chosen in question.tied or mine.count == question.count:
        verdict = RIGHT_COUNT
        text = (
            f"Right count, but the tie-break picks {made}: {mine.label} also occurs {_times(question.count)}. "
            + _tie_sentence(question, chosen)
        )
    else:
        verdict = WRONG
        how_often = (
            f"occurs {_times(mine.count)}" if mine.count is not None
            else "is not among the most frequent pairs the trace recorded"
        )
        text = (
            f"Not this one: {mine.label} {how_often}, but {answer.label} occurs {_times(question.count)}, "
            "and the trainer always merges the most frequent pair (counted with overlap)."
        )
        if question.tie_count > 1:
            text += " " + _tie_sentence(question, _rival(question))
    return Result(question.step, chosen, question.answer, verdict, tuple(shown), text)


def reveal(question: Question) -> Result:
    """The answer without a pick: what a class sees when the teacher moves on (never scored).

    >>> from bpe import PRESETS, train
    >>> result = reveal(make_question(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings), 1))
    >>> result.verdict, result.chosen
    ('revealed', None)
    >>> print(result.explanation)
    Merge 2 joins 'a' + 'b' (making 'ab'): it occurs 2 times. It was a tie between 2 pairs at count 2, and the lexicographic-min rule picks 'a' + 'b' because its byte strings are the smallest, comparing the left token first: ('a', 'b') < ('aa', 'a').
    """
    if question.answer is None:
        raise ValueError(f"there is no merge {question.step + 1} to reveal: {question.stop_detail}")
    answer = next(c for c in question.candidates if c.pair == question.answer)
    text = f"Merge {question.step + 1} joins {answer.label} (making {quote(question.new_token)}): it occurs {_times(question.count)}"
    if question.tie_count > 1:
        text += ". " + _tie_sentence(question, _rival(question))
    else:
        text += ", more than any other pair" + (f" (next best: {question.runner_up})." if question.runner_up else ".")
    shown = sorted(question.candidates, key=lambda c: -1 if c.count is None else c.count, reverse=True)
    return Result(question.step, None, question.answer, REVEALED, tuple(shown), text)


def _tie_sentence(question: Question, loser: Pair | None) -> str:
    sentence = f"It was a tie between {question.tie_count} pairs at count {question.count}"
    reasons = dict(question.tie_reasons)
    if loser not in reasons:
        return sentence + f", and the {question.rule} rule picks the answer."
    answer = next(c.label for c in question.candidates if c.pair == question.answer)
    return sentence + f", and the {question.rule} rule picks {answer} because {reasons[loser]}."


def _rival(question: Question) -> Pair | None:
    """The tied pair to compare the winner with: a tied candidate if shown, else the runner-up."""
    shown = {candidate.pair for candidate in question.candidates}
    others = [pair for pair in question.tied if pair != question.answer]
    return next((pair for pair in others if pair in shown), others[0] if others else None)


def _times(count: int | None) -> str:
    return f"{count} time{'s' if count != 1 else ''}"


def _stopped_prompt(trace: Trace) -> str:
    done = f"{len(trace.steps)} merge{'s' if len(trace.steps) != 1 else ''}"
    if trace.stop_reason in (STOP_MERGES, STOP_VOCAB_SIZE, STOP_TIME_LIMIT):
        return f"Training stopped after {done}: {trace.stop_detail}. Train longer to keep predicting."
    return f"There is no next merge: training stopped after {done} because {trace.stop_detail}."
