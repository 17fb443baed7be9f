"""The data-mixture linear program of Hayase et al. (NeurIPS 2024), as plain data, and its constraint generation.

The idea: BPE training merged, at step t, the pair with the highest count after merges 1..t-1. If
the training data was a mix of categories in proportions ``a_i`` (of its bytes), its count of a pair
``p`` is about ``sum_i a_i c_i,t(p)``, where ``c_i,t(p)`` is the pair's count per byte in a sample of
category i after the same t-1 merges. So for every merge t and every other pair p::

    sum_i a_i (c_i,t(m_t) - c_i,t(p)) + v_t + v_p >= 0        a_i >= 0, sum_i a_i = 1, v >= 0

with slack ``v_t`` per merge and ``v_p`` per pair (samples are not the training data: a pair much
commoner in a sample than in the training data would otherwise make the program infeasible), and
the proportions are those that need the least slack: minimise ``sum_t v_t + sum_p v_p``.

There is a constraint per merge and pair, far too many to write down, and few bind, so they are
generated: from equal proportions and no constraints, add those the current answer breaks, solve,
and again, until the answer breaks none. The check is exact: it reads every pair's count history
(:class:`~bpe.analysis.merge_replay.MergeHistory`), whose counts stay put between the steps a merge
changes them, so one pass over the history finds, for each pair, the merge it beats by the most.

    >>> from bpe.analysis.merge_replay import MergeHistory, StepCounts
    >>> history = MergeHistory(
    ...     steps=[StepCounts(1, (1, 2), (10, 0)), StepCounts(2, (3, 4), (0, 10))],   # A's pair, then B's
    ...     changes={(1, 2): [(1, 0, 10), (2, 0, 0)], (3, 4): [(1, 1, 10), (3, 1, 0)], (5, 6): [(1, 0, 10)]})
    >>> program = MixProgram(history, sizes=(1_000_000, 1_000_000))     # two samples of a million bytes
    >>> program.row(1, (3, 4), merge_column=2, pair_column=3)   # a_0 (10 - 0) + a_1 (0 - 10) + v_1 + v_(3,4) >= 0
    ((0, -10.0), (1, 10.0), (2, -1.0), (3, -1.0))
    >>> broken, excess = program.broken((0.9, 0.1), {}, {}, set(), end=2)     # at 90/10, A's (5, 6) beats merge 2
    >>> sorted(broken), round(excess, 6)    # by 9 - 1 = 8 per million bytes
    ([(2, (5, 6))], 8.0)

Merge 1 says A weighs at least as much as B (its "3 4" lost to A's "1 2"); merge 2, B at least as much
as A (A's "5 6" lost to B's "3 4"); only a_0 = a_1 = 0.5 needs no slack (``tests/test_mixture.py`` solves it). Rows are written as ``linprog`` takes them
(``A_ub x <= 0``: every sign turned), in counts per byte times :data:`SCALE`.

Where this differs from the paper's code (github.com/alisawuffles/tokenizer-attack, ``run_solver.py``),
and why: the solver is SciPy's HiGHS, not Gurobi (free, and on PyPI), solving each round afresh (no
warm start through ``linprog``); a round adds, for each pair, the one merge it beats by the most (the
paper's code scans merges in order and stops at 100 new constraints), works through the merges in
stages (50, 100, 200...), and drops the constraints an answer meets with room to spare: so a program of
3,000 merges stays at thousands of rows, not tens of thousands, and settles in tens of solves. The
program, and the answer it has, are the paper's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import BpeError
from ..tokens.vocab import Pair
from .merge_replay import MergeHistory

SCALE = 1_000_000.0
"""Counts per byte times this: counts per million bytes, so the solver's tolerances (about 1e-7)
sit far below one occurrence of a pair in any sample."""
FIRST_STAGE = 50
"""Merges in the generation's first stage (:data:`GROWTH` times more in each later one: :meth:`MixProgram.solve`)."""
BINDING = 1e-4
"""A constraint whose two sides differ by at most this (per million sample bytes) after a solve is kept."""
MAX_SOLVES = 400
"""Solves before the generation gives up (each round adds at least one constraint)."""
GAP = 0.05
"""The generation stops once the slack the answer would still need, on top of its program's, is under
this share of the total: its slack is then within 5 % of the least any mix needs (the program's optimum
is a lower bound, the answer with that slack added an upper one). When the samples are the training
texts nothing is left over (0); held-out samples and real tokenizers need slack, and the last few
percent cost more rounds than all the rest (measured: ``benchmarks/mixture_inference.py``)."""
STABLE_SOLVES = 8
STABLE_SHARE = 0.005
"""The generation also stops once the last :data:`STABLE_SOLVES` answers of a stage agree on every share
within this: the later rounds close the slack gap but no longer move the mix. Measured on a held-out
run of 1,000 merges of six languages: 115 solves (60 CPU-s) to a 5 % gap, every share within 0.005 of
that answer from the 10th solve (0.3 s) on, and its error against the truth flat (0.003-0.004) after it;
at 3,000 merges the gap took over nine minutes."""
STAGE_GAP = 0.2
"""The same for a stage before the last: a stage only warms up the next."""
GROWTH = 4
"""Each stage has this many times the merges of the one before (50, 200, 800, 3,200...)."""

Constraint = tuple[int, Pair]
"""``(step, rival pair)``: "merge ``step`` beat ``pair``"."""


@dataclass(frozen=True)
class LinearProgram:
    """``minimise cost . x`` subject to ``rows . x <= 0``, ``sum of x[:simplex] == 1`` and ``0 <= x <= upper``:
    plain data a solver module turns into its own form (:mod:`bpe.analysis.lp_solver`)."""

    cost: tuple[float, ...]
    rows: tuple[tuple[tuple[int, float], ...], ...]
    """Sparse rows ``((column, value), ...)``, each meaning ``sum <= 0``."""
    simplex: int
    """The first ``simplex`` variables are the proportions: they sum to 1 (each at most 1)."""


Solve = Callable[[LinearProgram], Sequence[float]]
"""A solver: the optimal ``x`` of a :class:`LinearProgram` (:func:`bpe.analysis.lp_solver.solve_highs`)."""


@dataclass(frozen=True)
class MixSolution:
    proportions: tuple[float, ...]
    """One per sample, in the samples' order: the share of the training bytes, summing to 1."""
    merge_slack: dict[int, float]
    """``step -> v_t`` where it is not 0: merges the proportions do not explain."""
    pair_slack: dict[Pair, float]
    """``pair -> v_p`` where it is not 0: pairs commoner in the samples than in the training data."""
    constraints: int
    solves: int
    gap: float = 0.0
    """How far the answer's slack may be above the least any mix needs, as a share: 0 when it breaks no
    constraint; the generation stops once the slack it would still need is under :data:`GAP` of the total."""
    active: frozenset[Constraint] = field(repr=False, default=frozenset())


class MixProgram:
    """The program of a :class:`~bpe.analysis.merge_replay.MergeHistory` over samples of ``sizes`` bytes."""

    def __init__(self, history: MergeHistory, *, sizes: Sequence[int]) -> None:
        self.n = len(sizes)
        if self.n == 0:
            raise BpeError("the mixture inference needs at least one sample text")
        if any(size <= 0 for size in sizes):
            raise BpeError("every sample text needs some text: an empty one says nothing about its category")
        self.weights = tuple(SCALE / size for size in sizes)
        self.steps = history.steps
        self.changes = history.changes
        self._merged = {step.step: self._dense(step.merged) for step in history.steps if any(step.merged)}
        """Per informative merge (its pair occurs in some sample), the pair's counts: the others say nothing."""
        self._merged_at: dict[Pair, int] = {}
        for step in history.steps:
            self._merged_at.setdefault(step.pair, step.step)
        self._rivals: dict[Constraint, tuple[float, ...]] = {}
        """The counts of each rival where a constraint was made for it."""

    @property
    def informative(self) -> int:
        return len(self._merged)

    def _dense(self, counts: Sequence[int]) -> tuple[float, ...]:
        return tuple(weight * count for weight, count in zip(self.weights, counts))

    def row(self, step: int, pair: Pair, *, merge_column: int, pair_column: int) -> tuple[tuple[int, float], ...]:
        """The row of "merge ``step`` beat ``pair``" in ``<= 0`` form."""
        merged, other = self._merged[step], self._rivals.get((step, pair)) or self._counts_at(pair, step)
        entries = [(i, other[i] - merged[i]) for i in range(self.n) if other[i] != merged[i]]
        return tuple(entries + [(merge_column, -1.0), (pair_column, -1.0)])

    def _counts_at(self, pair: Pair, step: int) -> tuple[float, ...]:
        counts = [0] * self.n
        for at, sample, count in self.changes.get(pair, ()):
            if at > step:
                break
            counts[sample] = count
        return self._dense(counts)

    def program(self, active: Sequence[Constraint]) -> tuple[LinearProgram, dict[int, int], dict[Pair, int]]:
        """The program of the ``active`` constraints, one row each in that order, and the columns of its
        merge and pair slacks."""
        merge_columns: dict[int, int] = {}
        pair_columns: dict[Pair, int] = {}
        for step, _ in active:
            merge_columns.setdefault(step, self.n + len(merge_columns))
        for _, pair in active:
            pair_columns.setdefault(pair, self.n + len(merge_columns) + len(pair_columns))
        rows = tuple(self.row(step, pair, merge_column=merge_columns[step], pair_column=pair_columns[pair]) for step, pair in active)
        cost = (0.0,) * self.n + (1.0,) * (len(merge_columns) + len(pair_columns))
        return LinearProgram(cost, rows, self.n), merge_columns, pair_columns

    def broken(
        self, proportions: Sequence[float], merge_slack: dict[int, float], pair_slack: dict[Pair, float],
        active: set[Constraint], *, end: int,
    ) -> tuple[set[Constraint], float]:
        """The constraints of the first ``end`` merges that the answer breaks and the program lacks: for
        each pair, the merge it beats by the most (its counts stay put between its changes, so each stretch
        is compared with the lowest bar in it: :class:`_LowestBar`); and the slack the answer would need on
        top of its own to meet every constraint (raising each pair's ``v_p`` by its worst excess).

        Why one per pair: a pair no merge touches (Thai, when no Thai was trained on) keeps its count and
        beats each late merge by a little; one constraint at its worst merge, with its slack ``v_p``, is what
        the answer needs."""
        shares = [share * weight for share, weight in zip(proportions, self.weights)]
        bars = [float("inf")] * (end + 2)  # by step; a merge no sample holds sets no bar
        for step, merged in self._merged.items():
            if step <= end:
                bars[step] = sum(a * m for a, m in zip(proportions, merged)) + merge_slack.get(step, 0.0)  # merged: per byte already
        lowest = _LowestBar(bars)
        found: dict[Pair, tuple[float, int, tuple[int, ...]]] = {}
        for pair, changes in self.changes.items():
            own = self._merged_at.get(pair, end + 1)  # never its own rival, and gone after it is merged
            counts = [0] * self.n
            score, slack, at, last = 0.0, pair_slack.get(pair, 0.0), 0, len(changes)
            while at < last and (start := changes[at][0]) <= min(end, own):
                while at < last and changes[at][0] == start:
                    _, sample, count = changes[at]
                    score += shares[sample] * (count - counts[sample])
                    counts[sample] = count
                    at += 1
                stop = min(changes[at][0] if at < last else end + 1, end + 1, own)  # the stretch [start, stop)
                if stop <= start or score <= slack:
                    continue
                bar, step = lowest.find(start, stop - 1)
                excess = score - slack - bar
                if excess > 1e-7 * max(1.0, bar) and (step, pair) not in active and excess > found.get(pair, (0.0,))[0]:
                    found[pair] = (excess, step, tuple(counts))
        for pair, (_, step, counts) in found.items():
            self._rivals[step, pair] = self._dense(counts)
        return {(step, pair) for pair, (_, step, _) in found.items()}, sum(excess for excess, _, _ in found.values())

    def solve(self, solve: Solve, *, gap: float = GAP, max_solves: int = MAX_SOLVES) -> MixSolution:
        """Constraint generation: add what the answer breaks, solve, until nothing is broken (or what is
        broken is within ``gap``: :data:`GAP`).

        Why in stages (the first :data:`FIRST_STAGE` merges, then :data:`GROWTH` times as many, ...): the first merges
        have the largest counts and settle the proportions roughly in a few small programs; the later
        merges' constraints are then generated against proportions near the answer. Started from equal
        proportions over all merges at once, a round added constraints for categories the answer then
        drops, and the programs grew several times larger."""
        active: set[Constraint] = set()
        dropped: set[Constraint] = set()
        proportions: tuple[float, ...] = (1.0 / self.n,) * self.n
        merge_slack: dict[int, float] = {}
        pair_slack: dict[Pair, float] = {}
        solves = 0
        objective = 0.0
        for end in _stages(len(self.steps)):
            recent: list[tuple[float, ...]] = []
            while not _settled(recent):
                more, missing = self.broken(proportions, merge_slack, pair_slack, active, end=end)
                if not more or missing <= (gap if end == len(self.steps) else STAGE_GAP) * (objective + missing):
                    break
                if solves == max_solves:
                    raise BpeError(f"the mixture inference did not settle within {max_solves} solves of its linear "
                                   "program: use fewer merges, or report the tokenizer and samples as a bug")
                active |= more
                order = sorted(active)
                program, merge_columns, pair_columns = self.program(order)
                x = solve(program)
                solves += 1
                objective = sum(cost * value for cost, value in zip(program.cost, x))
                proportions = _normalised(x[: self.n])
                recent = [*recent[1 - STABLE_SOLVES:], proportions]
                merge_slack = {step: x[column] for step, column in merge_columns.items() if x[column] > 0}
                pair_slack = {pair: x[column] for pair, column in pair_columns.items() if x[column] > 0}
                # Only the constraints the answer meets with no room to spare are kept (a later round adds
                # back any the next answer breaks): the same answer is optimal without the others.
                # subtle: the program has many optimal answers, and a solver may move to one that breaks a
                # dropped constraint; dropping it again could go round for ever, so one that comes back stays.
                loose = {constraint for constraint, row in zip(order, program.rows)
                         if constraint not in dropped and -sum(value * x[column] for column, value in row) > BINDING}
                dropped |= loose
                active -= loose
            if _settled(recent):  # the gap left is what the last answer would still need
                _, missing = self.broken(proportions, merge_slack, pair_slack, active, end=end)
        gap = missing / (objective + missing) if missing else 0.0
        return MixSolution(proportions, merge_slack, pair_slack, len(active), solves, gap, frozenset(active))


class _LowestBar:
    """The lowest bar (and its step) over any stretch of steps, in constant time: a sparse table.

    >>> _LowestBar([9.0, 4.0, 7.0, 2.0, 8.0]).find(0, 2), _LowestBar([9.0, 4.0, 7.0, 2.0, 8.0]).find(2, 4)
    ((4.0, 1), (2.0, 3))
    """

    def __init__(self, bars: Sequence[float]) -> None:
        self.levels = [[(bar, step) for step, bar in enumerate(bars)]]
        width = 1
        while 2 * width <= len(bars):
            below = self.levels[-1]
            self.levels.append([min(below[i], below[i + width]) for i in range(len(below) - width)])
            width *= 2

    def find(self, first: int, last: int) -> tuple[float, int]:
        level = (last - first + 1).bit_length() - 1
        row = self.levels[level]
        return min(row[first], row[last - (1 << level) + 1])


def _settled(recent: Sequence[tuple[float, ...]]) -> bool:
    """Whether the last :data:`STABLE_SOLVES` answers agree on every share within :data:`STABLE_SHARE`."""
    return len(recent) == STABLE_SOLVES and all(max(shares) - min(shares) <= STABLE_SHARE for shares in zip(*recent))


def _stages(steps: int) -> list[int]:
    """Where each stage of the generation ends: ``_stages(1000) == [50, 200, 800, 1000]``."""
    ends, end = [], FIRST_STAGE
    while end < steps:
        ends.append(end)
        end *= GROWTH
    return ends + [steps]


def _normalised(values: Iterable[float]) -> tuple[float, ...]:
    """Proportions as the solver gave them, rounding noise removed (a solver may return -1e-12 or sum to 1 + 1e-9)."""
    clipped = [max(0.0, float(value)) for value in values]
    total = sum(clipped)
    return tuple(value / total for value in clipped)
