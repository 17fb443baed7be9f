"""What a class room draws: the join panel, the room's counts, and the bar chart of its answers.

Pure builders from :mod:`bpe.teaching.room` and :mod:`bpe.teaching.quiz` records to HTML strings,
styled by :data:`ROOM_CSS`. A nickname is the one string here a stranger
chooses: every one passes through :func:`html.escape` (so ``<img onerror=...>`` shows as text),
and so does every label and link.

    >>> print(counts_html(joined=3, answered=2))
    <p class="bpe-room-counts"><span><b>3</b> joined</span> <span><b>2</b> of 3 answered</span></p>
    >>> "&lt;b&gt;" in names_html(["<b>Bo</b>"])
    True

Scope: markup. Out of scope: the QR code's drawing (``segno``, in ``ui``: the engine
and its views need nothing beyond regex, pandas and altair) and Streamlit.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..teaching.quiz import CORRECT, RIGHT_COUNT, Question
from ..teaching.room_questions import guess_histogram
from ..tokens.vocab import Pair
from .charts import CHOSEN, OTHER, STATUS_COLORS, TIED

_MARKS: Mapping[str, str] = MappingProxyType({CHOSEN: "◀ merged next", TIED: "tied", OTHER: ""})
_GUESS_MARKS: Mapping[str, str] = MappingProxyType({CHOSEN: "◀ the real count", OTHER: ""})
_PICKED_MARKS: Mapping[str | None, str] = MappingProxyType({
    None: "◀ your answer", CORRECT: "✓ your answer", RIGHT_COUNT: "⚖ your answer: tied, lost the tie-break",
})
"""The student's pick before the reveal, and after it by verdict: a tick only beside a right answer."""
WRONG_PICK = "✗ your answer"

MAX_NAMES_SHOWN = 40
"""Nicknames the teacher's screen lists (a projector line holds a few; the rest are counted)."""

ROOM_CSS = """
<style>
.bpe-join { display: flex; flex-direction: column; align-items: center; gap: .35rem; text-align: center; }
.bpe-join .bpe-qr { width: min(18rem, 44vh, 80vw); aspect-ratio: 1; display: block; }
.bpe-join .bpe-room-code { font: 700 2.6rem/1.1 ui-monospace, "DejaVu Sans Mono", monospace; letter-spacing: .18em; }
.bpe-join .bpe-room-link { font-size: .95rem; word-break: break-all; margin: 0; }
.bpe-join .bpe-room-note { font-size: .85rem; color: #8a3d00; margin: 0; }
.bpe-room-counts { display: flex; gap: 1.4rem; justify-content: center; font-size: 1.35rem; margin: .2rem 0; }
.bpe-room-counts b { font-size: 1.6em; font-variant-numeric: tabular-nums; }
.bpe-room-names { font-size: .9rem; color: #3d4249; margin: 0; overflow-wrap: anywhere; }
.bpe-room-names span { display: inline-block; background: #F2F5F8; border-radius: 999px; padding: 0 .5em; margin: 0 .2em .2em 0; }
.bpe-room-choices { font-size: 1.3rem; margin: 0 0 .4rem 0; }
.bpe-room-choices li { padding: .1rem 0; }
.bpe-room-choices li.bpe-picked, .bpe-room-choices li.bpe-merged { font-weight: 700; }
.bpe-room-choices b.bpe-merged { color: #A3470A; }
.bpe-answers { border-collapse: collapse; width: 100%; font-size: 1.1rem; }
.bpe-answers caption { text-align: left; color: #3d4249; font-size: .85rem; }
.bpe-answers th { text-align: right; white-space: nowrap; font-weight: 400; padding: .2rem .5rem .2rem 0; }
.bpe-answers td { width: 100%; padding: .2rem 0; }
.bpe-answers .bpe-answer-line { display: flex; align-items: center; gap: .4rem; }
.bpe-answers .bpe-answer-bar { height: 1.5em; border: 1px solid #222; min-width: 3px;
  width: calc((100% - 8.5em) * var(--bpe-share)); }
.bpe-answers .bpe-answer-mark { font-weight: 700; white-space: nowrap; }
.bpe-answers tr.bpe-chosen th { font-weight: 700; }
.bpe-phrase { font-size: 1.5rem; line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0 .4rem 0;
  padding: .4rem .8rem; border-left: 6px solid #0072B2; background: #F2F5F8; }
.bpe-phrase-by { font-size: 1rem; color: #3d4249; margin: 0; }
</style>
"""


@dataclass(frozen=True)
class AnswerRow:
    choice: str
    """As on the students' buttons: ``1. 'a' + 'b'``."""
    count: int
    status: str
    """``chosen`` (the merge), ``tied`` (the same count, passed over by the rule) or ``other``."""


def join_panel_html(*, link: str, code: str, qr_image: str, note: str = "") -> str:
    """The QR code of ``link`` (``qr_image``: its picture as a ``data:`` URI), the code in large
    letters and the link itself, all escaped.

    Why a picture and not inline SVG: Streamlit's ``st.html`` keeps HTML only (its sanitiser drops
    every ``<svg>``); an ``<img>`` of an SVG stays sharp at any size and carries the alt text.
    """
    spaced = f"{code[:3]} {code[3:]}"  # read aloud and typed in two halves
    note_html = f'<p class="bpe-room-note">{html.escape(note)}</p>' if note else ""
    return (
        '<div class="bpe-join">'
        f'<img class="bpe-qr" src="{html.escape(qr_image, quote=True)}" alt="QR code of the join link, {html.escape(link, quote=True)}">'
        f'<div class="bpe-room-code" aria-label="Room code {" ".join(html.escape(code))}">{html.escape(spaced)}</div>'
        f'<p class="bpe-room-link">{html.escape(link)}</p>{note_html}</div>'
    )


def choices_html(
    labels: Sequence[str], *, picked: int | None = None, merged: int | None = None, verdict: str | None = None, columns: int = 1,
) -> str:
    """The question's choices as a numbered list (numbers as on the students' buttons): on the
    projector while the class answers, and on a phone once its answer is in (no buttons left to
    press), with the student's pick (``picked``, 0-based) and, after the reveal, the merge and the
    pick's ``verdict`` marked (a tick only beside a right answer).

    >>> print(choices_html(["'a' + 'b'", "<b>"], picked=1, merged=0, verdict="wrong"))
    <ol class="bpe-room-choices"><li class="bpe-merged">'a' + 'b' <b class="bpe-merged">◀ merged next</b></li><li class="bpe-picked">&lt;b&gt; <b class="bpe-picked">✗ your answer</b></li></ol>
    >>> "◀ your answer" in choices_html(["'a' + 'b'"], picked=0)      # before the reveal: no verdict
    True
    """
    pick_mark = _PICKED_MARKS.get(verdict, WRONG_PICK)
    items = []
    for number, label in enumerate(labels):
        marked = [(css, mark) for css, mark, on in (("bpe-merged", "◀ merged next", number == merged),
                                                     ("bpe-picked", pick_mark, number == picked)) if on]
        classes = f' class="{" ".join(css for css, _ in marked)}"' if marked else ""
        marks = "".join(f' <b class="{css}">{mark}</b>' for css, mark in marked)
        items.append(f"<li{classes}>{html.escape(label, quote=False)}{marks}</li>")  # element text: quotes are safe
    style = f' style="columns: {columns}"' if columns > 1 else ""
    return f'<ol class="bpe-room-choices"{style}>{"".join(items)}</ol>'


def counts_html(*, joined: int, answered: int) -> str:
    return (
        f'<p class="bpe-room-counts"><span><b>{joined:,}</b> joined</span> '
        f"<span><b>{answered:,}</b> of {joined:,} answered</span></p>"
    )


def names_html(names: Sequence[str], *, limit: int = MAX_NAMES_SHOWN) -> str:
    """The nicknames given so far (escaped), the first ``limit`` of them, then how many more."""
    if not names:
        return ""
    shown = "".join(f"<span>{html.escape(name)}</span>" for name in names[:limit])
    more = f" and {len(names) - limit:,} more" if len(names) > limit else ""
    return f'<p class="bpe-room-names">{shown}{html.escape(more)}</p>'


def answer_rows(question: Question, tally: Sequence[tuple[Pair, int]]) -> list[AnswerRow]:
    """One row per choice, in the order the students saw them: how many picked it, and whether it
    is the merge (``chosen``), tied with it at the top count (``tied``), or neither (``other``)."""
    labels = {candidate.pair: candidate.label for candidate in question.candidates}
    tied = set(question.tied)
    return [
        # Numbered as on the students' buttons; the number also keeps equal spellings apart.
        AnswerRow(f"{number}. {labels.get(pair, str(pair))}", count,
                  CHOSEN if pair == question.answer else TIED if pair in tied else OTHER)
        for number, (pair, count) in enumerate(tally, start=1)
    ]


def answers_html(rows: Sequence[AnswerRow], *, caption: str = "How many picked each pair",
                 marks: Mapping[str, str] = _MARKS) -> str:
    """The class's answers as a bar chart in HTML: a row per choice, its bar as long as its share of
    the most-picked one, its count, and the merge (and the pairs tied with it) marked in words as
    well as colour.

    Why HTML and not a Vega-Lite chart like the pair counts: its text is text (a screen reader reads
    it, presenter mode's larger type grows it without squeezing the bars out of a projector's half
    screen), and sixty phones draw it at once without each starting a chart renderer.

        >>> rows = [AnswerRow("1. 'a' + 'b'", 3, CHOSEN), AnswerRow("2. 'aa' + 'a'", 1, TIED)]
        >>> markup = answers_html(rows)
        >>> "--bpe-share: 1.000" in markup, "◀ merged next" in markup, "tied" in markup
        (True, True, True)
    """
    most = max((row.count for row in rows), default=0) or 1
    body = "".join(
        f'<tr class="bpe-{row.status}"><th scope="row">{html.escape(row.choice)}</th>'
        f'<td><span class="bpe-answer-line"><span class="bpe-answer-bar" style="--bpe-share: {row.count / most:.3f}; '
        f'background: {STATUS_COLORS[row.status]}"></span><b>{row.count:,}</b>'
        + (f' <span class="bpe-answer-mark">{marks[row.status]}</span>' if marks[row.status] else "") + "</span></td></tr>"
        for row in rows
    )
    return f'<table class="bpe-answers"><caption>{html.escape(caption)}</caption>{body}</table>'


def guesses_html(guesses: Sequence[int], *, real: int) -> str:
    """The class's guesses of a token count as a histogram (a bar per count guessed, or per range
    when they spread wide), the real count's bar marked in words as well as colour, even if
    nobody guessed it.

    >>> markup = guesses_html([8, 9, 9], real=9)
    >>> markup.count("<tr"), "◀ the real count" in markup, "--bpe-share: 1.000" in markup
    (2, True, True)
    """
    rows = [
        AnswerRow(f"{value[0]:,}–{value[1]:,}" if isinstance(value, tuple) else f"{value:,}", count,
                  CHOSEN if (value[0] <= real <= value[1] if isinstance(value, tuple) else value == real) else OTHER)
        for value, count in guess_histogram(guesses, real=real)
    ]
    return answers_html(rows, caption="How many guessed each count of tokens", marks=_GUESS_MARKS)


def phrase_html(text: str, *, tokenizer: str) -> str:
    """A "Guess the tokens" question: the phrase as typed (spaces and line breaks kept) and whose tokenizer counts it.

    >>> print(phrase_html("<b> hi", tokenizer="GPT-2"))
    <blockquote class="bpe-phrase">&lt;b&gt; hi</blockquote><p class="bpe-phrase-by">counted by <b>GPT-2</b></p>
    """
    return (f'<blockquote class="bpe-phrase">{html.escape(text)}</blockquote>'
            f'<p class="bpe-phrase-by">counted by <b>{html.escape(tokenizer)}</b></p>')
