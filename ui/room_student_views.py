"""A student's phone in a class room: a verdict screen, kept up by its own poll (the question, the
answer and the reveal are one fragment, redrawn at every poll; a new question redraws the page).

The answer first (the buttons, or the guess box), then what the question is about (the corpus, the
phrase): on a 390 x 844 phone the first button sits high on the screen, whatever the corpus' length.
After the reveal, the verdict as a coloured alert with an icon and words (green right, amber
close or tied, red not this one) and the class's chart; the pick is marked with a tick only when it
was right. Phones are tapped, never hovered: the page says "tap".
"""

from __future__ import annotations

import streamlit as st

from bpe.limits import MAX_TOKEN_GUESS
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.quiz import grade, reveal
from bpe.teaching.room import ASKING, CLOSED, REVEALED, RoomView
from bpe.teaching.room_questions import CountAsk, grade_guess
from bpe.views.room import choices_html, guesses_html, phrase_html

from . import classroom
from .classroom import Membership
from .quiz_views import verdict
from .render import show_html
from .room_polling import STUDENT_POLL_S, room_now
from .room_teacher_views import answers, chips
from .state import widget_key
from .training import Trained

GUESS_KEY = widget_key("room", "guess")


def student_view(view: RoomView, membership: Membership, trained: Trained, draw_corpus, *, reachable: bool = True) -> None:
    """``reachable=False``: drawn from the last read while the store is out of reach (a tap is kept)."""
    room = view.room
    name = view.nickname(membership.seat)
    st.markdown(f"Room **{room.code}** · question **{room.round}**" + (f" · {escape_markdown(name)}" if name else ""))
    if reachable:
        _live_question(room.code, membership.seat, room.round, trained)
    else:
        _question(view, membership.seat, trained)
    if not isinstance(room.question, CountAsk):
        st.subheader("The corpus")
        draw_corpus(trained, room.step)
    st.button("Leave the room", key=widget_key("room", "leave"), type="tertiary", icon=":material/logout:", on_click=classroom.leave)


@st.fragment(run_every=STUDENT_POLL_S)
def _live_question(code: str, seat: str, round: int, trained: Trained) -> None:
    """The question, this student's answer and the reveal, drawn again from the room at every poll.

    Why a fragment holds them: a tap and the reveal then redraw this alone, not the whole page (its
    sidebar, styles and corpus were over half of a phone's redraw, and a reveal is sixty redraws at
    once). A new question or a closed room changes the rest of the page: that runs the whole page."""
    view = room_now(code, seen=seat)
    if view is None or view.room.round != round or view.room.phase == CLOSED:
        st.rerun()
    classroom.show_notes()  # a tap's refusal (the tap ran this fragment only)
    _question(view, seat, trained)
    if view.room.phase == ASKING:
        st.markdown(f"{view.answered} of {view.joined} have answered.")


def _question(view: RoomView, seat: str, trained: Trained) -> None:
    room = view.room
    mine = view.answer_of(seat)
    pending = classroom.PENDING.get()
    kept = mine is None and pending is not None and pending[:3] == (room.code, seat, room.round)
    if kept:
        mine = pending[3]
    if isinstance(room.question, CountAsk):
        _guess(view, seat, mine)
    else:
        _merge(view, seat, trained, mine)
    if room.phase == ASKING and mine is not None:
        if kept:
            st.warning("Your answer is kept on this phone: it is sent as soon as the room is back.", icon="📡")
        else:
            st.success("Your answer is in. The teacher reveals everyone's answers soon.", icon="📨")


def _merge(view: RoomView, seat: str, trained: Trained, mine) -> None:
    room = view.room
    question = classroom.room_question(trained, room.step)
    st.header(question.prompt)
    choices = classroom.offered(question, room)
    graded = grade(question, mine) if mine is not None and room.phase == REVEALED else None
    if mine is None and room.phase == ASKING:
        st.markdown("Tap the pair you think the trainer joins next:")
        for number, candidate in enumerate(choices, start=1):
            st.button(f"{number}. {escape_markdown(candidate.label)}", key=widget_key("room", "answer", number), width="stretch",
                      on_click=classroom.answer, args=(room.code, seat, room.round, candidate.pair))
    else:  # answered, or too late: the choices as text, nothing left to press
        pairs = [candidate.pair for candidate in choices]
        show_html(choices_html(
            [candidate.label for candidate in choices], picked=pairs.index(mine) if mine in pairs else None,
            merged=pairs.index(question.answer) if room.phase == REVEALED and question.answer in pairs else None,
            verdict=graded.verdict if graded else None,
        ))
    if room.phase == REVEALED:
        if mine is None:
            st.markdown("You did not answer this one.")
        verdict(graded or reveal(question))
        answers(view, question)


def _guess(view: RoomView, seat: str, mine) -> None:
    room, question = view.room, view.room.question
    title = PRETRAINED[question.tokenizer].title
    st.header(f"How many tokens does {title} make of this phrase?")
    if mine is None and room.phase == ASKING:
        with st.form("bpe-room-guess", border=False):
            st.number_input("Your guess (tokens)", min_value=1, max_value=MAX_TOKEN_GUESS, step=1, value=None, key=GUESS_KEY,
                            placeholder="tap to type a number")
            st.form_submit_button("Send my guess", key=widget_key("room", "send_guess"), type="primary", width="stretch",
                                  icon=":material/send:", on_click=send_guess, args=(room.code, seat, room.round))
    elif mine is not None:
        st.markdown(f"Your guess: **{mine:,}** token{'s' * (mine != 1)}.")
    show_html(phrase_html(question.text, tokenizer=title))
    if room.phase == REVEALED:
        if mine is None:
            st.markdown("You did not guess this one.")
        verdict(grade_guess(question, mine))
        show_html(guesses_html([guess for _, guess in view.answers], real=question.count))
        chips(question)


def send_guess(code: str, seat: str, round: int) -> None:
    guess = st.session_state.get(GUESS_KEY)
    if guess is None:
        classroom.note("error", "Type a number of tokens first, then send it.")
        return
    classroom.answer(code, seat, round, int(guess))
