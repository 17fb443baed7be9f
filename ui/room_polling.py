"""How a class room's screens keep up without a click: a fragment re-reads the room every
:data:`TEACHER_POLL_S` / :data:`STUDENT_POLL_S` seconds and redraws what it holds (the projector's
counts; a phone's question, answer and reveal, :mod:`ui.room_student_views`), and reruns the whole
page when the room moved on further than that (the projector: revealed, next question, closed; a
phone: next question, closed).

Polling, not pub/sub: Streamlit redraws a page only from its own script run, so a pushed message
would still have to wake a run; a fragment's timer is that run, and works the same on one process
and on many. What a poll costs is mostly Streamlit's own run (a new script thread, the session's
messages): the store read is shared by a room's phones on a process (:mod:`ui.room_reads`).
"""

from __future__ import annotations

import streamlit as st

from bpe.teaching.room import RoomView
from bpe.views.room import counts_html, names_html

from . import classroom
from .render import show_html
from .room_store import RoomStoreUnavailable

TEACHER_POLL_S = 1.0
"""How often the teacher's counts are re-read: an answer shows on the projector within about this long."""
STUDENT_POLL_S = 1.0
"""How often a student's page looks for the reveal or the next question: the reveal reaches every
phone within about this long and a run (the issue's target is 2 s). Sixty phones make 60 polls a
second; the phones of a room on one process share one store read per quarter second (:mod:`ui.room_reads`)."""


@st.fragment(run_every=STUDENT_POLL_S)
def wait_for_store(code: str) -> None:
    try:
        classroom.room_store().view(code)
    except RoomStoreUnavailable:
        return
    st.rerun()


def room_now(code: str, *, seen: str | None = None) -> RoomView | None:
    """The room as this process read it a moment ago (``seen``: the seat whose phone polls), or
    ``None`` when there is none or the store stopped answering."""
    try:
        return classroom.read_room(code, seen=seen, poll=True)
    except RoomStoreUnavailable:
        return None


def room_changed(code: str, drawn: tuple[int, str]) -> RoomView | None:
    """The room now, or ``None`` after asking for a whole-page run because it is not as drawn
    ``(round, phase)`` (or the store stopped answering)."""
    view = room_now(code)
    if view is None or (view.room.round, view.room.phase) != drawn:
        st.rerun()
    return view


@st.fragment(run_every=TEACHER_POLL_S)
def teacher_counts(code: str, drawn: tuple[int, str]) -> None:
    view = room_changed(code, drawn)
    if view is not None:
        show_html(counts_html(joined=view.joined, answered=view.answered) + names_html(view.nicknames()))


