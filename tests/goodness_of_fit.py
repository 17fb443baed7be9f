"""Pearson's chi-square goodness-of-fit test, for samples drawn by a library we cannot seed.

The test suite has no SciPy; the chi-square tail is the regularized upper incomplete gamma function
``Q(df / 2, x / 2)``, computed here by its series (below ``a + 1``) or its continued fraction (above),
as in Numerical Recipes (section 6.2). Categories expected fewer than five times are pooled into one,
the usual condition for the chi-square approximation.

    >>> round(chi_square_tail(3.84, 1), 3), round(chi_square_tail(18.31, 10), 3)
    (0.05, 0.05)
    >>> fit = goodness_of_fit({"a": 480, "b": 520}, {"a": 0.5, "b": 0.5})
    >>> fit.df, round(fit.statistic, 2), fit.p_value > 0.2
    (1, 1.6, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import NamedTuple


class Fit(NamedTuple):
    statistic: float
    df: int
    p_value: float
    """The chance of a statistic at least this large if the samples follow the probabilities."""


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P(a, x)
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1.0 - total * math.exp(log_front)
    # the continued fraction for Q(a, x) (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi_square_tail(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``df`` degrees of freedom."""
    return _gamma_q(df / 2, statistic / 2)


def goodness_of_fit(counts: Mapping[Hashable, int], probabilities: Mapping[Hashable, float]) -> Fit:
    """How well ``counts`` (outcome -> how many samples) fit ``probabilities`` (outcome -> chance).

    An outcome sampled but given no probability makes the fit fail outright (p-value 0)."""
    if set(counts) - set(probabilities):
        return Fit(math.inf, 0, 0.0)
    n = sum(counts.values())
    cells: list[tuple[float, int]] = []
    pooled_expected, pooled_observed = 0.0, 0
    for outcome, chance in probabilities.items():
        expected, observed = n * chance, counts.get(outcome, 0)
        if expected < 5:
            pooled_expected += expected
            pooled_observed += observed
        else:
            cells.append((expected, observed))
    if pooled_expected > 0:
        cells.append((pooled_expected, pooled_observed))
    statistic = sum((observed - expected) ** 2 / expected for expected, observed in cells)
    df = len(cells) - 1
    return Fit(statistic, df, chi_square_tail(statistic, df) if df > 0 else 1.0)
