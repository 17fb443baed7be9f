"""A row of headline numbers (label, value, change) drawn as one block of HTML.

Streamlit's ``st.metric`` makes each number an element of its own, and the browser redraws every
element of the step view on every step; one row of HTML looks the same and costs one element.
A change is green when it is good news and red when it is bad, whatever its sign: fewer tokens
in the corpus is good, so "-4" there is green.

    >>> print(stats_html([Stat("Step", "3 / 9"), Stat("Tokens", "120", change="-4", good=True)]))
    <div class="bpe-stats"><div class="bpe-stat"><div class="bpe-stat-label">Step</div>...
    >>> "bpe-good" in stats_html([Stat("Tokens", "120", change="-4", good=True)])
    True

:func:`step_stats` gives the Train page's four numbers for a step of a trace:

    >>> from bpe.presets import PRESETS
    >>> from bpe.trainer import train
    >>> trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    >>> [(stat.label, stat.value, stat.change) for stat in step_stats(trace, 3)]  # doctest: +NORMALIZE_WHITESPACE
    [('Step', '3 / 10', None), ('Vocabulary', '259', '+1'), ('Tokens in corpus', '70', '-7'),
     ('Bytes per token', '1.36', None)]
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from ..trace import Trace

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


def step_stats(trace: Trace, step: int) -> list[Stat]:
    """Step, vocabulary size, tokens in the corpus and bytes per token after ``step`` merges,
    with the change the step made (fewer tokens is good news)."""
    before, after = trace.tokens_after(max(step - 1, 0)), trace.tokens_after(step)
    return [
        Stat("Step", f"{step:,} / {len(trace.steps):,}"),
        Stat("Vocabulary", f"{trace.vocab_size(step):,}", change="+1" if step else None),
        Stat("Tokens in corpus", f"{after:,}", change=f"{after - before:+,}" if step else None, good=after <= before),
        Stat("Bytes per token", f"{trace.corpus_bytes / after:.2f}" if after else "–"),
    ]
