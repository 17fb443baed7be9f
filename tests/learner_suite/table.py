"""The table of docs/checkers.md: one row per suite case, written from its run, read back by the test.

    >>> from tests.learner_suite.cases import TRAINERS
    >>> expected_cells(TRAINERS[1])[2:]
    ['ties to the pair counted first', 'explained: tie-break (first-seen)']
"""

from __future__ import annotations

from .cases import SuiteCase

TABLE_FILE = "docs/checkers.md"
HEADER = "| case | program | the learner's mistake(s) | verdict | reproduced | time |"
RULE = "|---|---|---|---|---|---|"


def verdict_cell(kind: str, codes: tuple[str, ...], label: str, also: tuple[str, ...] = ()) -> str:
    """``explained: tie-break (last-seen)``, ``explained: special-tokens + left-to-right``, ``correct``."""
    if not codes:
        return kind
    said = f"{kind}: {' + '.join(sorted(codes))}" + (f" ({label})" if label else "")
    return said + (f"; cannot be told apart here from {', '.join(sorted(set(also)))}" if also else "")


def expected_cells(case: SuiteCase) -> list[str]:
    """The first four cells of the case's row, from what it expects."""
    kind = "explained" if case.expect else "correct"
    return [case.name, case.program, case.mistakes or "none", verdict_cell(kind, case.expect, case.label, case.also)]


def row(case: SuiteCase, outcome) -> str:
    """The case's row from its run (a :class:`~tests.learner_suite.run.Outcome`): the verdict as given,
    its label shortened to the case's where it holds it."""
    label = case.label if case.label in outcome.label else outcome.label
    also = case.also if set(case.also) <= set(outcome.also) else outcome.also
    verdict = verdict_cell(outcome.kind, outcome.codes, label if outcome.codes else "", also if outcome.codes else ())
    cells = [case.name, case.program, case.mistakes or "none", verdict, outcome.reproduced(), f"{outcome.seconds:.1f} s"]
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def read_table(markdown: str) -> list[list[str]]:
    """The rows of the table under :data:`HEADER`, each a list of its cells (``\\|`` read back as ``|``)."""
    lines = markdown.split("\n")
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip().replace("\\|", "|") for cell in line.strip().strip("|").split(" | ")]
        rows.append(cells)
    return rows
