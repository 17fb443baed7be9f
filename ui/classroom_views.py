"""The class room's screens on Predict the next merge: which one this session draws, the join form,
the room's polling, and the doors in (the button that opens a room here, the code box on Home).

The screens themselves are :mod:`ui.room_teacher_views` (the projector, the teacher's controls) and
:mod:`ui.room_student_views` (a phone); each keeps up without a click (:mod:`ui.room_polling`).
What the students' phones receive before the reveal holds no one's answer but their own.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bpe.app import pages
from bpe.app.lab_state import SOURCES
from bpe.limits import MAX_NICKNAME_CHARS
from bpe.notation.markdown import escape_markdown
from bpe.teaching.room import CLOSED, CODE_LENGTH, RoomView
from bpe.training.presets import PRESETS
from bpe.views.room import ROOM_CSS

from . import browser, classroom, links, url
from .page_css import ROOM_SCREEN_CSS
from .preamble import current_run
from .render import show_html
from .room_polling import wait_for_store
from .room_store import RoomStoreUnavailable
from .room_student_views import student_view
from .room_teacher_views import controls_view, projector_view
from .state import SessionValue, lab, widget_key
from .training import Trained

JOIN_CODE_KEY = widget_key("join_code")
"""Home's room-code field (a form's field: read when Join is pressed)."""
LAST_VIEW: SessionValue[RoomView | None] = SessionValue("room_last_view", None)
"""The room as this session last read it: a phone draws its question from it while the store is out of reach."""

DrawCorpus = Callable[[Trained, int], None]


def show_room(draw_corpus: DrawCorpus) -> bool:
    """Draw this session's class room (the projector, the teacher's controls or a phone) and return
    ``True``; or return ``False`` when it is in none, or the teacher's store is down (one line says
    so), and the page goes on as the quiz alone."""
    classroom.apply_link()
    membership = classroom.member()
    if membership is None:
        browser.keep()  # before "Start": the room it opens knows this browser as the teacher's
        classroom.show_notes()
        return False
    browser.keep()
    try:
        if membership.seat:
            classroom.send_pending(membership)
        view = classroom.read_room(membership.code, seen=membership.seat)
    except RoomStoreUnavailable:
        return _out_of_reach(membership, draw_corpus)
    if view is None or view.room.phase == CLOSED:
        classroom.show_notes()
        gone = (f"The teacher closed room {membership.code}." if view is not None else
                f"There is no open room {membership.code}: check the code on the projector (a room ends when its "
                "teacher closes it, or after two hours without an answer).")
        st.info(f"{gone} The quiz goes on here alone.", icon="🚪")
        classroom.leave()
        return False
    membership = classroom.checked(membership, view)
    LAST_VIEW.set(view)
    classroom.show_notes()
    classroom.follow(view.room)
    show_html(ROOM_CSS + ROOM_SCREEN_CSS)
    trained = current_run()
    if trained is None:
        return True
    with st.container(key="bpe-room"):
        if membership.controls:
            controls_view(view, membership, trained)
        elif membership.screen:
            projector_view(view, membership, trained, draw_corpus)
        elif membership.seat:
            student_view(view, membership, trained, draw_corpus)
        else:
            join_form(view)
    url.write_url(page=membership.link_params(), lab=False)
    return True


def _out_of_reach(membership, draw_corpus: DrawCorpus) -> bool:
    """The store does not answer. A phone keeps its question (from the last read) with a note that a
    tap waits on the phone until the room is back; the teacher's screens say so and the page is the
    quiz alone meanwhile. Either way the page returns to the room by itself."""
    classroom.show_notes()
    last = LAST_VIEW.get()
    trained = current_run() if membership.seat and last is not None and last.room.code == membership.code else None
    if trained is None:
        st.warning(
            f"Class room {membership.code} cannot be reached just now: you carry on alone here, and this page "
            "goes back to the room as soon as it answers again.", icon="📡",
        )
        wait_for_store(membership.code)
        return False
    st.warning(
        f"Class room {membership.code} cannot be reached just now. **A tap is kept on this phone** and sent as "
        "soon as the room answers again; this page goes back to it by itself.", icon="📡",
    )
    show_html(ROOM_CSS + ROOM_SCREEN_CSS)
    with st.container(key="bpe-room"):
        student_view(last, membership, trained, draw_corpus, reachable=False)
    wait_for_store(membership.code)
    return True


# -- a student's way in ------------------------------------------------------------------------------
def join_form(view: RoomView) -> None:
    room = view.room
    st.title(f"Join class room {room.code[:3]} {room.code[3:]}")
    st.markdown(f"**{escape_markdown(SOURCES.get(dict(room.lesson).get('preset', ''), 'An example'))}**, "
                f"question {room.round}. A nickname is optional; nothing else about you is kept.")
    with st.form("bpe-room-join", border=False):
        st.text_input("Nickname (optional)", key=classroom.NICKNAME_KEY, max_chars=MAX_NICKNAME_CHARS,
                      placeholder="shown to the teacher")
        st.form_submit_button("Join", key=widget_key("room", "join"), type="primary", icon=":material/login:",
                              on_click=classroom.join, args=(room.code, room.size))


# -- doors in: open a room (Predict), type a code (Home) ---------------------------------------------
def start_button(trained: Trained, step: int) -> None:
    """"Start a class room" on this question (the built-in examples only: a room never sends your
    own text to students' phones)."""
    own = lab().source not in PRESETS
    finished = step >= len(trained.trace.steps)
    st.button(
        "Start a class room", key=widget_key("room", "start"), icon=":material/groups:", on_click=classroom.start_room,
        args=(trained, step), disabled=own or finished,
        help="Your class answers each question on their phones (a QR code to join); you reveal the answers "
        "and move everyone on." + (" Class rooms use the built-in examples: a room never sends your own text to "
                                   "students' phones." if own else ""),
    )


def join_box() -> None:
    """Home's "join a class" box: a typed code opens the room on Predict the next merge."""
    with st.form("bpe-join-code", border=True):
        code_column, button_column = st.columns([3, 1], vertical_alignment="bottom")
        code_column.text_input("In a class? Type the room code", key=JOIN_CODE_KEY, max_chars=CODE_LENGTH * 2,
                               placeholder="e.g. K7Q X3M")
        joined = button_column.form_submit_button("Join", icon=":material/login:")
    if joined:
        typed = st.session_state.get(JOIN_CODE_KEY) or ""
        st.switch_page(pages.QUIZ.file, query_params={links.ROOM.name: typed.strip()[: CODE_LENGTH * 4]})
