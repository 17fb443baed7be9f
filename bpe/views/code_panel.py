""""The code" panel: lines of ``bpe/reference.py`` with a step's values beside them, as HTML.

Each line keeps its number in the file, so a learner can find it; lines that are not consecutive
are separated by a "⋮" row. Code and values are escaped (a value can hold a token from the corpus).

    >>> from bpe.teaching.reference_code import CodeLine
    >>> panel = code_panel_html([CodeLine(3, "count = max(stats.values())", "count = 4"),
    ...                          CodeLine(7, "vocab[new_id] = x", "vocab[256] = '<a>'")])
    >>> "&#x27;&lt;a&gt;&#x27;" in panel, panel.count("bpe-gap")
    (True, 1)
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..teaching.reference_code import CodeLine
from .plain_tables import scroll_box

CODE_PANEL_CSS = """
<style>
.bpe-code { border-collapse: collapse; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
.bpe-code td { padding: .05em .6em .05em 0; vertical-align: top; }
.bpe-code td.bpe-line { color: #555; text-align: right; user-select: none; }
.bpe-code td.bpe-src { white-space: pre; color: #111; }
.bpe-code td.bpe-value { color: #7a3b00; white-space: pre-wrap; min-width: 16rem; }
.bpe-code td.bpe-value::before { content: "# "; color: #595E63; }
.bpe-code tr.bpe-gap td { color: #595E63; }
</style>
"""


def code_panel_html(lines: Sequence[CodeLine], *, label: str = "bpe/reference.py, the lines this step runs") -> str:
    """The lines in file order, each with its value as a comment beside it."""
    rows = []
    previous = None
    for line in sorted(lines, key=lambda line: line.number):
        if previous is not None and line.number > previous + 1:
            rows.append('<tr class="bpe-gap"><td class="bpe-line">⋮</td><td></td><td></td></tr>')
        value = f'<td class="bpe-value">{html.escape(line.value)}</td>' if line.value else "<td></td>"
        rows.append(
            f'<tr><td class="bpe-line">{line.number}</td><td class="bpe-src">{html.escape(line.code)}</td>{value}</tr>'
        )
        previous = line.number
    return scroll_box(f'<table class="bpe-code">{"".join(rows)}</table>', label)
