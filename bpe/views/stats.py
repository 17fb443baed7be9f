"""A row of headline numbers (label, value, change) drawn as one block of HTML.

Streamlit's ``st.metric`` makes each number an element of its own, and the browser redraws every
element of the step view on every step; one row of HTML looks the same and costs one element.
A change is green when it is good news and red when it is bad, whatever its sign: fewer tokens
in the corpus is good, so "-4" there is green.

    >>> print(stats_html([Stat("Step", "3 / 9"), Stat("Tokens", "120", change="-4", good=True)]))
    <div class="bpe-stats"><div class="bpe-stat"><div class="bpe-stat-label">Step</div>...
    >>> "bpe-good" in stats_html([Stat("Tokens", "120", change="-4", good=True)])
    True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

STATS_CSS = """
<style>
.bpe-stats { display: flex; flex-wrap: wrap; gap: .4em 2.5em; margin: .2em 0 .8em 0; }
.bpe-stat-label { font-size: .875rem; color: #555; }
.bpe-stat-value { font-size: 2rem; line-height: 1.25; }
.bpe-stat-change { font-size: .875rem; font-weight: 600; }
.bpe-stat-change.bpe-good { color: #0B7A3E; }
.bpe-stat-change.bpe-bad { color: #B3261E; }
.bpe-stat-change.bpe-neutral { color: #555; }
</style>
"""


@dataclass(frozen=True, slots=True)
class Stat:
    label: str
    value: str
    change: str | None = None
    """Shown under the value, e.g. ``"+1"``; ``None`` for no change line."""
    good: bool | None = None
    """Colours the change: ``True`` green, ``False`` red, ``None`` grey."""


def stats_html(stats: Sequence[Stat]) -> str:
    """One flex row of stats; every string is escaped."""
    cells = []
    for stat in stats:
        change = ""
        if stat.change is not None:
            tone = {True: "bpe-good", False: "bpe-bad", None: "bpe-neutral"}[stat.good]
            change = f'<div class="bpe-stat-change {tone}">{html.escape(stat.change)}</div>'
        cells.append(
            f'<div class="bpe-stat"><div class="bpe-stat-label">{html.escape(stat.label)}</div>'
            f'<div class="bpe-stat-value">{html.escape(stat.value)}</div>{change}</div>'
        )
    return f'<div class="bpe-stats">{"".join(cells)}</div>'
