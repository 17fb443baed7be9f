"""The one place BPE Lab calls a linear-programming solver: SciPy's HiGHS (``scipy.optimize.linprog``).

Why a solver from outside: the data-mixture program (:mod:`bpe.analysis.mix_program`) has thousands
of constraints over thousands of slack variables, and a simplex written here would be slow and
would need the care HiGHS (Huangfu and Hall's solver, which SciPy ships) has had for years. Why
here only: the rest of the engine is the standard library and ``regex``; SciPy (with NumPy) is
imported when an inference runs, never when ``bpe`` is imported, so the engine installs and loads
without it and says how to get it when it is asked for.

    >>> from bpe.analysis.mix_program import LinearProgram
    >>> # minimise v subject to 1 - 3 a_0 - v <= 0, i.e. v >= 1 - 3 a_0, with a_0 + a_1 = 1
    >>> x = solve_highs(LinearProgram(cost=(0.0, 0.0, 1.0), rows=(((0, -3.0), (2, -1.0)),), simplex=2))
    >>> round(x[2], 9)       # a_0 = 1/3 or more needs no slack
    0.0
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import BpeError
from .mix_program import LinearProgram

INSTALL_HINT = (
    "the data-mixture inference solves a linear program with SciPy's HiGHS solver, and SciPy is not installed: "
    "`pip install scipy` (or `pip install 'bpe-lab[app]'`, which brings it)"
)


def solve_highs(program: LinearProgram) -> Sequence[float]:
    """The optimal ``x`` of ``program`` by HiGHS; a :class:`~bpe.errors.BpeError` if SciPy is missing or
    the solver fails (the program always has a solution: the slack can absorb anything)."""
    try:
        from scipy.optimize import linprog
        from scipy.sparse import csr_matrix
    except ImportError:
        raise BpeError(INSTALL_HINT) from None
    columns = len(program.cost)
    data, row_index, column_index = [], [], []
    for row, entries in enumerate(program.rows):
        for column, value in entries:
            data.append(value)
            row_index.append(row)
            column_index.append(column)
    upper = csr_matrix((data, (row_index, column_index)), shape=(len(program.rows), columns)) if program.rows else None
    equal = csr_matrix(([1.0] * program.simplex, ([0] * program.simplex, range(program.simplex))), shape=(1, columns))
    bounds = [(0.0, 1.0)] * program.simplex + [(0.0, None)] * (columns - program.simplex)
    result = linprog(
        program.cost, A_ub=upper, b_ub=[0.0] * len(program.rows) if program.rows else None, A_eq=equal, b_eq=[1.0],
        bounds=bounds, method="highs",
    )
    if result.status != 0 or result.x is None:
        raise BpeError(f"the linear program's solver (HiGHS) stopped: {result.message} (a bug in BPE Lab: please report it)")
    return result.x.tolist()
