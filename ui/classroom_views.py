"""The class room's screens on Predict the next merge: the teacher's projector, a student's phone,
the join form, and the buttons that open a room (here) or join one (on Home).

The teacher's screen and the students' both keep up without a click: a fragment re-reads the
room every :data:`TEACHER_POLL_S` / :data:`STUDENT_POLL_S` seconds, redraws its counts, and reruns
the whole page when the room moved on (revealed, next question, closed). Polling, not pub/sub:
Streamlit redraws a page only from its own script run, so a pushed message would still have to
wake a run; a fragment's timer is that run, costs one store read, and works the same on one process
and on many. What the students' phones receive before the reveal holds no one's answer but their own.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bpe.app import pages
from bpe.app.lab_state import SOURCES
from bpe.limits import MAX_NICKNAME_CHARS
from bpe.presets import PRESETS
from bpe.teaching.quiz import grade, make_question, reveal
from bpe.teaching.room import ASKING, CLOSED, CODE_LENGTH, REVEALED, RoomView
from bpe.markdown import escape_markdown
from bpe.views.room import ROOM_CSS, answer_rows, answers_html, choices_html, counts_html, join_panel_html, names_html

from . import classroom, state, url
from .classroom import Membership
from .preamble import current_run
from .quiz_views import verdict
from .render import show_html
from .room_store import RoomStoreUnavailable
from .state import widget_key
from .streamlit_dom import keyed
from .training import Trained

TEACHER_POLL_S = 1.0
"""How often the teacher's counts are re-read: an answer shows on the projector within about this long."""
STUDENT_POLL_S = 2.0
"""How often a student's page looks for the reveal or the next question (60 phones: 30 reads a second)."""

JOIN_CODE_KEY = widget_key("join_code")
"""Home's room-code field (a form's field: read when Join is pressed)."""

DrawCorpus = Callable[[Trained, int], None]

VIEW_CSS = ROOM_CSS + f"""
<style>
{keyed("bpe-room")} h1 {{ font-size: 1.7rem; }}
{keyed("bpe-room")} h2 {{ font-size: 1.35rem; padding-top: .2rem; }}
</style>
"""


def show_room(draw_corpus: DrawCorpus) -> bool:
    """Draw this session's class room (the teacher's or a student's view) and return ``True``; or
    return ``False`` when it is in none, or the room's store is down (one line says so), and the
    page goes on as the quiz alone."""
    classroom.apply_link()
    membership = classroom.member()
    if membership is None:
        classroom.show_notes()
        return False
    try:
        view = classroom.room_store().view(membership.code)
    except RoomStoreUnavailable:
        classroom.show_notes()
        st.warning(
            f"Class room {membership.code} cannot be reached just now: you carry on alone here, and this page "
            "goes back to the room (your answers kept) as soon as it answers again.", icon="📡",
        )
        _wait_for_store(membership.code)
        return False
    if view is None or view.room.phase == CLOSED:
        classroom.show_notes()
        gone = (f"The teacher closed room {membership.code}." if view is not None else
                f"There is no open room {membership.code}: check the code on the projector (a room ends when its "
                "teacher closes it, or after two hours without an answer).")
        st.info(f"{gone} The quiz goes on here alone.", icon="🚪")
        classroom.leave()
        return False
    membership = classroom.checked(membership, view)
    classroom.show_notes()
    classroom.follow(view.room)
    show_html(VIEW_CSS)
    trained = current_run()
    if trained is None:
        return True
    with st.container(key="bpe-room"):
        if membership.token:
            teacher_view(view, membership, trained, draw_corpus)
        elif membership.seat:
            student_view(view, membership, trained, draw_corpus)
        else:
            join_form(view)
    url.write_url(page=membership.link_params(), lab=False)
    return True


@st.fragment(run_every=STUDENT_POLL_S)
def _wait_for_store(code: str) -> None:
    try:
        classroom.room_store().view(code)
    except RoomStoreUnavailable:
        return
    st.rerun()


def _room_changed(code: str, drawn: tuple[int, str]) -> RoomView | None:
    """The room now, or ``None`` after asking for a whole-page run because it is not as drawn."""
    try:
        view = classroom.room_store().view(code)
    except RoomStoreUnavailable:
        view = None
    if view is None or (view.room.round, view.room.phase) != drawn:
        st.rerun()
    return view


# -- the teacher's projector -------------------------------------------------------------------------
def teacher_view(view: RoomView, membership: Membership, trained: Trained, draw_corpus: DrawCorpus) -> None:
    """The projector: the question and the corpus on the left; the way in (QR code, code, link)
    while the class answers, then the chart of their answers, on the right. PageDown reveals,
    then moves on, as a clicker sends it."""
    room = view.room
    question = make_question(trained.trace, room.step)
    st.title(f"Question {room.round}: {question.prompt}")
    left, right = st.columns([1.25, 1], gap="large")
    with left:
        draw_corpus(trained, room.step)
        if room.phase == ASKING:
            show_html(choices_html([c.label for c in classroom.offered(question, room)], columns=2))
            _teacher_counts(room.code, (room.round, room.phase))
            st.button("Reveal the answers", key=widget_key("room", "reveal"), type="primary", width="stretch", shortcut="PageDown",
                      icon=":material/bar_chart:", on_click=classroom.reveal, args=(membership, room.round))
        else:
            verdict(reveal(question))
    with right:
        if room.phase == ASKING:
            link = classroom.join_link(room.code)
            show_html(join_panel_html(link=link, code=room.code, qr_image=classroom.qr_image(link),
                                      note=classroom.public_base()[1]))
        else:
            st.header("The class's answers")
            answers(view, question)
            _teacher_counts(room.code, (room.round, room.phase))
            last = room.step + 1 >= len(trained.trace.steps)
            st.button("Next question" if not last else "That was the last merge", key=widget_key("room", "next"), type="primary",
                      width="stretch", shortcut="PageDown", icon=":material/arrow_forward:", disabled=last,
                      on_click=classroom.next_question, args=(membership, room.round, trained, room.step))
    with st.expander("Teacher controls"):
        st.markdown("The teacher link opens these controls on another device. Keep it to yourself: it is "
                    "not the students' link.")
        st.code(classroom.teacher_link(membership), language=None, wrap_lines=True)
        st.button("Close the room for everyone", key=widget_key("room", "close"), icon=":material/logout:",
                  on_click=classroom.close, args=(membership,))


@st.fragment(run_every=TEACHER_POLL_S)
def _teacher_counts(code: str, drawn: tuple[int, str]) -> None:
    view = _room_changed(code, drawn)
    if view is not None:
        show_html(counts_html(joined=view.joined, answered=view.answered) + names_html(view.nicknames()))


def answers(view: RoomView, question) -> None:
    """The bar chart of the class's answers, the merge marked (after the reveal only)."""
    show_html(answers_html(answer_rows(question, view.tally())))


# -- a student's phone -------------------------------------------------------------------------------
def join_form(view: RoomView) -> None:
    room = view.room
    st.title(f"Join class room {room.code[:3]} {room.code[3:]}")
    st.markdown(f"**{escape_markdown(SOURCES.get(dict(room.lesson).get('preset', ''), 'An example'))}**, "
                f"question {room.round}. A nickname is optional; nothing else about you is kept.")
    with st.form("bpe-room-join", border=False):
        st.text_input("Nickname (optional)", key=classroom.NICKNAME_KEY, max_chars=MAX_NICKNAME_CHARS,
                      placeholder="shown to the teacher")
        st.form_submit_button("Join", key=widget_key("room", "join"), type="primary", icon=":material/login:",
                              on_click=classroom.join, args=(room.code,))


def student_view(view: RoomView, membership: Membership, trained: Trained, draw_corpus: DrawCorpus) -> None:
    room = view.room
    question = make_question(trained.trace, room.step)
    mine = view.answer_of(membership.seat)
    name = view.nickname(membership.seat)
    st.markdown(f"Room **{room.code}** · question **{room.round}**" + (f" · {escape_markdown(name)}" if name else ""))
    st.header(question.prompt)
    draw_corpus(trained, room.step)
    choices = classroom.offered(question, room)
    if mine is None and room.phase == ASKING:
        for number, candidate in enumerate(choices, start=1):
            st.button(f"{number}. {escape_markdown(candidate.label)}", key=widget_key("room", "answer", number), width="stretch",
                      on_click=classroom.answer, args=(room.code, membership.seat, room.round, candidate.pair))
    else:  # answered, or too late: the choices as text, nothing left to press
        pairs = [candidate.pair for candidate in choices]
        show_html(choices_html(
            [candidate.label for candidate in choices], picked=pairs.index(mine) if mine in pairs else None,
            merged=pairs.index(question.answer) if room.phase == REVEALED and question.answer in pairs else None,
        ))
    if room.phase == REVEALED:
        if mine is None:
            st.markdown("You did not answer this one.")
        verdict(grade(question, mine) if mine is not None else reveal(question))
        answers(view, question)
    elif mine is not None:
        st.success("Your answer is in. The teacher reveals everyone's answers soon.", icon="📨")
    _student_status(room.code, (room.round, room.phase))
    st.button("Leave the room", key=widget_key("room", "leave"), type="tertiary", icon=":material/logout:", on_click=classroom.leave)


@st.fragment(run_every=STUDENT_POLL_S)
def _student_status(code: str, drawn: tuple[int, str]) -> None:
    view = _room_changed(code, drawn)
    if view is not None and view.room.phase == ASKING:
        st.markdown(f"{view.answered} of {view.joined} have answered.")


# -- doors in: open a room (Predict), type a code (Home) ---------------------------------------------
def start_button(trained: Trained, step: int) -> None:
    """"Start a class room" on this question (the built-in examples only: a room never sends your
    own text to students' phones)."""
    own = state.lab().source not in PRESETS
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
        st.switch_page(pages.QUIZ.file, query_params={"room": typed.strip()[: CODE_LENGTH * 4]})
