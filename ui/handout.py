"""The lesson's handout, where a teacher prepares the lesson: a download per paper and a look at it.

Home's lesson chooser and the teacher's controls of a class room draw :func:`handout_row`. The
download is the whole printable page (:func:`bpe.views.handout.handout_html`): the teacher opens it
in a browser and prints it (Ctrl+P), A4 or US Letter as chosen. "Show the handout" opens it in a
dialog, in a frame of its own (its print styles never reach the app's page).
"""

from __future__ import annotations

import streamlit as st

from bpe.app.lessons import Lesson, lesson_named, link_of
from bpe.views.handout import PAPERS, handout_html

from .state import widget_key

SHOWN_HEIGHT = 640
"""The dialog's frame, in CSS pixels (a laptop screen keeps the dialog's buttons in view)."""


@st.cache_data(max_entries=32, show_spinner=False)
def handout(link: str, paper: str) -> str:
    """The handout of the lesson ``link`` names, cached: a lesson's stops are registry data, so two
    teachers asking for one lesson get one page (the first build trains the stops' presets: ~20 ms)."""
    return handout_html(lesson_named(link), paper=paper)


@st.dialog("The lesson's handout", width="large")
def _show(link: str) -> None:
    st.caption("What the class gets on paper, the answer key on its own last page. Download it for your paper, "
               "open it in a browser and print it (Ctrl+P); print all but the last page to keep the key for yourself.")
    _downloads(link, key="dialog")
    st.iframe(handout(link, next(iter(PAPERS))), height=SHOWN_HEIGHT)


def _downloads(link: str, *, key: str):
    """A download button per paper, in a row (returned: a caller may add to it)."""
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    for paper in PAPERS.values():
        row.download_button(
            f"Handout, {paper.title}", data=handout(link, paper.name), file_name=f"bpe-lab-handout-{link}-{paper.name}.html",
            mime="text/html", key=widget_key(key, "handout", paper.name), icon=":material/print:", on_click="ignore",
            help="A page to print from your browser: the corpus and the pairs to count by hand, the class room's "
                 "questions, room to write, and the answer key on its own page",
        )
    return row


def handout_row(lesson: Lesson, *, key: str) -> None:
    """The handout of ``lesson``: a download per paper, and a button that shows it."""
    link = link_of(lesson)
    row = _downloads(link, key=key)
    if row.button("Show the handout", key=widget_key(key, "handout", "show"), icon=":material/description:", type="tertiary"):
        _show(link)
