"""A lesson's handout as one printable HTML page: its tasks, room to write, the answer key on a page of its own.

A pure builder: :func:`handout_html` turns :func:`~bpe.views.handout_tasks.lesson_tasks` into a
whole HTML document with its own print styles, so the teacher downloads it, opens it in a browser
and prints it (Ctrl+P), on A4 or US Letter (:data:`PAPERS`: the paper is the document's ``@page``
size; its margins and the page numbers in the footer are the same on both). Every text is escaped
here, once: a stop's title, a token, a corpus word.

    >>> from bpe.app.lessons import lesson_named
    >>> page = handout_html(lesson_named("bpe-in-three-merges"), paper="letter")
    >>> "@page { size: letter;" in page, page.count('class="bpe-task"'), page.count('class="bpe-answers"')  # 5 tasks, 5 answered
    (True, 10, 1)
    >>> page.index("Page 5 of 5") < page.index("Answer key") < page.rindex("Page 5 of 5")  # after the tasks, then answered
    True

Subtle: the answer key starts with ``break-before: page`` and every task with ``break-inside:
avoid``, so a task is never cut across two sheets and the key can be torn off (or left unprinted:
print "pages 1 to N-1"). Printed through Chromium, ``tests/test_browser_handout.py`` reads each
PDF page's text back to check it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from ..app.lessons import Lesson, link_of
from ..registry import Registry
from .handout_tasks import Ask, Table, Task, lesson_tasks

ANSWER_KEY = "Answer key"
FOOTER_FONT = 'font: 8.5pt "Noto Sans", sans-serif; color: #444;'


@dataclass(frozen=True)
class Paper:
    name: str
    title: str
    size: str
    """CSS ``@page`` size."""


PAPERS: Registry[Paper] = Registry("paper size", (Paper("a4", "A4", "A4"), Paper("letter", "US Letter", "letter")))
"""The papers a handout prints on (the first is the default)."""

CSS = """
@page { margin: 14mm 15mm 16mm; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.4 "Noto Sans", "Noto Color Emoji", sans-serif; color: #111; margin: 0 auto; max-width: 180mm; }
h1 { font-size: 17pt; margin: 0 0 2mm; }
h2 { font-size: 12.5pt; margin: 0 0 1mm; }
p { margin: 0 0 2mm; }
.bpe-who { display: flex; gap: 8mm; margin: 3mm 0; }
.bpe-who span { flex: 1; border-bottom: 0.3mm solid #333; padding-top: 4mm; }
.bpe-plan { margin: 0 0 4mm; padding-left: 6mm; }
.bpe-task { break-inside: avoid; border-top: 0.4mm solid #333; padding: 3mm 0 2mm; }
.bpe-teaches { color: #333; font-style: italic; }
.bpe-page { color: #333; font-size: 9pt; }
.bpe-tables { display: flex; flex-wrap: wrap; gap: 2mm 6mm; align-items: flex-start; }
table { border-collapse: collapse; margin: 1mm 0 2mm; break-inside: avoid; }
caption { text-align: left; font-weight: 600; padding-bottom: 1mm; caption-side: top; }
th, td { border: 0.3mm solid #555; padding: 1mm 2.5mm; text-align: left; vertical-align: middle; }
th { background: #eee; font-weight: 600; }
td.bpe-fill { min-width: 22mm; height: 7.5mm; }
.bpe-tokens, td { font-family: "Noto Sans Mono", "DejaVu Sans Mono", "Noto Color Emoji", monospace; }
.bpe-asks { padding-left: 7mm; margin: 1mm 0; }
.bpe-asks > li { margin-bottom: 2mm; break-inside: avoid; }
.bpe-line { border-bottom: 0.3mm solid #777; height: 8mm; }
.bpe-choices { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 2mm 8mm; margin: 1mm 0; }
.bpe-choices li::before { content: ""; display: inline-block; width: 3.2mm; height: 3.2mm; border: 0.3mm solid #333;
  border-radius: 50%; margin-right: 1.5mm; vertical-align: -0.4mm; }
.bpe-answers { break-before: page; }
.bpe-answers .bpe-task { padding-top: 2mm; }
.bpe-answers ol { padding-left: 7mm; }
@media screen { body { padding: 8mm; } .bpe-answers { border-top: 1mm dashed #999; margin-top: 10mm; padding-top: 6mm; } }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _css_string(text: str) -> str:
    """``text`` as a CSS string (the footer's content): quotes, backslashes and line ends escaped."""
    return '"' + "".join(f"\\{ord(char):x} " if char in '"\\\n\r<>' else char for char in text) + '"'


def _table(table: Table, *, answered: bool) -> str:
    rows = table.answers if answered else table.rows
    head = "".join(f'<th scope="col">{_e(column)}</th>' for column in table.columns)
    body = "".join(
        "<tr>" + "".join(f'<td class="bpe-fill"></td>' if cell == "" else f"<td>{_e(cell)}</td>" for cell in row) + "</tr>"
        for row in rows
    )
    return f"<table><caption>{_e(table.caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _tables(tables: Iterable[Table], *, answered: bool = False) -> str:
    """A task's tables side by side, as many as fit across the sheet."""
    drawn = "".join(_table(table, answered=answered) for table in tables)
    return f'<div class="bpe-tables">{drawn}</div>' if drawn else ""


def _ask(ask: Ask) -> str:
    if ask.choices:
        room = '<ul class="bpe-choices bpe-tokens">' + "".join(f"<li>{_e(choice)}</li>" for choice in ask.choices) + "</ul>"
        room += '<div class="bpe-line" aria-hidden="true"></div>'  # why: a line for the reason
    else:
        room = '<div class="bpe-line" aria-hidden="true"></div>' * ask.lines
    return f"<li><p>{_e(ask.prompt)}</p>{room}</li>"


def _task(task: Task, first: int) -> str:
    tables = _tables(table for table in task.tables)
    asks = "".join(_ask(ask) for ask in task.asks)
    return (f'<section class="bpe-task"><h2>{_e(task.heading)}</h2>'
            f'<p class="bpe-teaches">{_e(task.teaches)} <span class="bpe-page">(on the page {_e(task.page)})</span></p>'
            f'{tables}<ol class="bpe-asks" start="{first}">{asks}</ol></section>')


def _answers(task: Task, first: int) -> str:
    tables = _tables((table for table in task.tables if not table.given), answered=True)
    asks = "".join(f"<li>{_e(ask.answer or 'Your own words.')}</li>" for ask in task.asks)
    return f'<section class="bpe-task"><h2>{_e(task.heading)}</h2>{tables}<ol start="{first}">{asks}</ol></section>'


def handout_html(lesson: Lesson, *, paper: str = "a4") -> str:
    """The whole handout of ``lesson`` as an HTML document printed on ``paper`` (a :data:`PAPERS` name)."""
    size = PAPERS.lookup(paper).size
    tasks = lesson_tasks(lesson)
    firsts = [1]
    for task in tasks:
        firsts.append(firsts[-1] + len(task.asks))
    plan = "".join(f"<li>{_e(stop.title)}</li>" for stop in lesson.stops)
    footer = _css_string(f"BPE Lab · {lesson.title} · lesson={link_of(lesson)}")
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Handout: {_e(lesson.title)}</title>'
        f"<style>@page {{ size: {size}; @bottom-left {{ content: {footer}; {FOOTER_FONT} }}\n"
        f'  @bottom-right {{ content: "sheet " counter(page) " of " counter(pages); {FOOTER_FONT} }} }}{CSS}</style></head><body>'
        f'<header><h1>{_e(lesson.title)}</h1><p>{_e(lesson.about)}</p>'
        '<p class="bpe-who"><span>Name</span><span>Date</span></p>'
        f'<ol class="bpe-plan">{plan}</ol></header><main>'
        + "".join(_task(task, first) for task, first in zip(tasks, firsts))
        + f'</main><section class="bpe-answers" aria-label="{ANSWER_KEY}"><h1>{ANSWER_KEY}</h1>'
        + "".join(_answers(task, first) for task, first in zip(tasks, firsts))
        + "</section></body></html>"
    )
