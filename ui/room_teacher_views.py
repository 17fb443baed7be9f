"""The teacher's two screens of a class room: the projector and the teacher's controls.

The **projector** shows what the class needs and nothing that gives control: the question, the way
in (QR code, code, join link) while the class answers, the counts, then the chart of the answers.
A clicker drives it: PageDown reveals, then moves on; Esc twice closes the room. It never draws the
teacher key (not in its text, its links, its title or its address bar): it acts as the teacher
because its browser opened the room (``ui.classroom``).

The **teacher's controls** are for the teacher's own laptop screen or phone, opened from the
projector in a new tab (its link holds no key: the browser is the teacher's) or on another device
from the teacher link, which only the controls show: the next question (a merge, or "Guess the
tokens" on a phrase or a Why card's case and a tokenizer), reveal, the room's size, the seats per
network address and their removal, and close.
"""

from __future__ import annotations

import time

import streamlit as st

from bpe.limits import MAX_GUESS_PHRASE_CHARS, MAX_ROOM_SEATS
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.quiz import reveal
from bpe.teaching.room import ASKING, REVEALED, RoomView
from bpe.teaching.room_questions import CountAsk, RoomRefused, ask_count, grade_guess, guess_cases, split_of
from bpe.views.room import answer_rows, answers_html, choices_html, guesses_html, join_panel_html, phrase_html
from bpe.views.why_cards import WHY_CSS, split_rows_html

from . import classroom, lesson_bar, room_links
from .handout import handout_row
from .classroom import Membership
from .quiz_views import verdict
from .render import show_html
from .room_polling import teacher_counts
from .state import SessionValue, widget_key
from .tokenizers import pretrained, pretrained_label
from .training import Trained

OWN_PHRASE = "Your own phrase"
CASE_KEY, PHRASE_KEY, TOKENIZER_KEY = widget_key("room", "case"), widget_key("room", "phrase"), widget_key("room", "tokenizer")
SIZE_KEY, REMOVE_KEY = widget_key("room", "size"), widget_key("room", "remove")
PHONE_KEY: SessionValue[tuple[str, str] | None] = SessionValue("room_phone_key", None)
"""``(code, key)``: a teacher key made on the controls for the teacher's phone (one of the room's screens)."""


def question_title(view: RoomView, trained: Trained) -> str:
    room = view.room
    if isinstance(room.question, CountAsk):
        return f"Question {room.round}: how many tokens does {PRETRAINED[room.question.tokenizer].title} make of this?"
    return f"Question {room.round}: {classroom.room_question(trained, room.step).prompt}"


# -- the projector -----------------------------------------------------------------------------------
def projector_view(view: RoomView, membership: Membership, trained: Trained, draw_corpus) -> None:
    """The question on the left; the way in while the class answers, then the chart, on the right."""
    room = view.room
    st.title(question_title(view, trained))
    left, right = st.columns([1.25, 1], gap="large")
    with left:
        if isinstance(room.question, CountAsk):
            show_html(phrase_html(room.question.text, tokenizer=PRETRAINED[room.question.tokenizer].title))
            if room.phase == REVEALED:
                verdict(grade_guess(room.question, None))
                chips(room.question)
        else:
            question = classroom.room_question(trained, room.step)
            draw_corpus(trained, room.step)
            if room.phase == ASKING:
                show_html(choices_html([c.label for c in classroom.offered(question, room)], columns=2))
            else:
                verdict(reveal(question))
        if room.phase == ASKING:
            teacher_counts(room.code, (room.round, room.phase))
            st.button("Reveal the answers", key=widget_key("room", "reveal"), type="primary", width="stretch", shortcut="PageDown",
                      icon=":material/bar_chart:", on_click=classroom.reveal, args=(membership, room.round))
    with right:
        if room.phase == ASKING:
            link = room_links.join_link(room.code)
            show_html(join_panel_html(link=link, code=room.code, qr_image=room_links.qr_image(link),
                                      note=room_links.public_base()[1]))
        else:
            st.header("The class's answers")
            answers(view, None if isinstance(room.question, CountAsk) else classroom.room_question(trained, room.step))
            teacher_counts(room.code, (room.round, room.phase))
            last = room.step + 1 >= len(trained.trace.steps)
            st.button("Next question" if not last else "That was the last merge", key=widget_key("room", "next"), type="primary",
                      width="stretch", shortcut="PageDown", icon=":material/arrow_forward:", disabled=last,
                      on_click=classroom.next_merge, args=(membership, room.round, trained, room.step))
    closing = classroom.CLOSING.get() == room.code
    with st.container(horizontal=True, key="bpe-room-screen"):
        # No tooltip: the projector's pointer often rests here after "Start a class room"
        st.link_button("Teacher's controls (new tab)", url=f"?room={room.code}&controls=1", icon=":material/tune:", type="tertiary")
        st.button(f"Press Esc again to close room {room.code} for everyone" if closing else "End the class (Esc twice)",
                  key=widget_key("room", "end"), shortcut="Escape", icon=":material/logout:",
                  type="primary" if closing else "tertiary", on_click=classroom.press_close, args=(membership,))


def answers(view: RoomView, question) -> None:
    """The chart of the class's answers, the merge (or the real count) marked: after the reveal only."""
    if isinstance(view.room.question, CountAsk):
        show_html(guesses_html([guess for _, guess in view.answers], real=view.room.question.count))
    else:
        show_html(answers_html(answer_rows(question, view.tally())))


def chips(question: CountAsk) -> None:
    """The phrase's tokens as a Why card draws a split (its ids below), from the tokenizer itself."""
    tokenizer = pretrained(question.tokenizer)
    if tokenizer is not None:
        show_html(WHY_CSS + split_rows_html([split_of(question, tokenizer, title=PRETRAINED[question.tokenizer].title)]))


# -- the teacher's controls --------------------------------------------------------------------------
def controls_view(view: RoomView, membership: Membership, trained: Trained) -> None:
    room = view.room
    st.title(f"Teacher's controls · room {room.code[:3]} {room.code[3:]}")
    st.warning("Keep this screen off the projector: it can close the room and make a teacher link.", icon="🔒")
    st.markdown(f"**{escape_markdown(question_title(view, trained))}** ({'the class answers' if room.phase == ASKING else 'revealed'})")
    teacher_counts(room.code, (room.round, room.phase))
    with st.container(horizontal=True):
        if room.phase == ASKING:
            st.button("Reveal the answers", key=widget_key("room", "reveal"), type="primary", icon=":material/bar_chart:",
                      on_click=classroom.reveal, args=(membership, room.round))
        st.button("Next: predict the next merge", key=widget_key("room", "next"), icon=":material/arrow_forward:",
                  disabled=room.step + 1 >= len(trained.trace.steps),
                  on_click=classroom.next_merge, args=(membership, room.round, trained, room.step))
    _guess_form(membership, room.round, room.step)
    st.header("The lesson on paper")
    handout_row(lesson_bar.chosen(), key="controls")
    _seats(view, membership)
    st.header("Your phone as the teacher's controls")
    phone = PHONE_KEY.get()
    if phone is not None and phone[0] == room.code:
        link = room_links.teacher_link(room.code, phone[1])
        st.markdown("Scan it with your phone (never with the projector on this screen): it opens these controls there.")
        show_html(join_panel_html(link=link, code=room.code, qr_image=room_links.qr_image(link)))
    else:
        st.button("Make a teacher link for my phone", key=widget_key("room", "phone"), icon=":material/smartphone:",
                  on_click=make_phone_key, args=(membership,))
    st.button("Close the room for everyone", key=widget_key("room", "close"), icon=":material/logout:",
              on_click=classroom.close, args=(membership,))


def _guess_form(membership: Membership, round: int, step: int) -> None:
    st.header("Next: guess the tokens")
    cases = [OWN_PHRASE, *guess_cases()]
    with st.form("bpe-room-ask-guess", border=True):
        st.selectbox("A Why card's case, or your own phrase", cases, key=CASE_KEY)
        st.text_area("Your own phrase", key=PHRASE_KEY, max_chars=MAX_GUESS_PHRASE_CHARS, height=68,
                     placeholder="used when “Your own phrase” is picked above")
        st.selectbox("Counted by", list(PRETRAINED), format_func=pretrained_label, key=TOKENIZER_KEY)
        st.form_submit_button("Ask the class", key=widget_key("room", "ask"), type="primary", icon=":material/quiz:",
                              on_click=ask_guess, args=(membership, round, step))


def ask_guess(membership: Membership, round: int, step: int) -> None:
    case = st.session_state.get(CASE_KEY) or OWN_PHRASE
    text = st.session_state.get(PHRASE_KEY) or "" if case == OWN_PHRASE else guess_cases()[case]
    name = st.session_state.get(TOKENIZER_KEY) or next(iter(PRETRAINED))
    tokenizer = pretrained(name)
    if tokenizer is None:
        return
    try:
        question = ask_count(text, name=name, tokenizer=tokenizer)
    except RoomRefused as refusal:
        classroom.note("error", f"**Cannot ask that:** {escape_markdown(refusal)}.")
        return
    classroom.next_question(membership, round, step, question)


def _seats(view: RoomView, membership: Membership) -> None:
    room = view.room
    st.header("Seats")
    now = time.time()
    networks = view.per_client()
    per_network = ", ".join(f"network {number}: **{count:,}**" for number, (_, count) in enumerate(networks, start=1))
    st.markdown(f"**{view.joined:,}** of **{room.size:,}** seats taken, {view.away(now):,} away (no look for two minutes)."
                + (f" Seats per network address: {per_network} (a school's network holds a whole class)." if networks else ""))
    with st.form("bpe-room-size", border=False):
        st.number_input("Room size (seats)", min_value=1, max_value=MAX_ROOM_SEATS, value=room.size, step=1, key=SIZE_KEY)
        st.form_submit_button("Set the size", on_click=classroom.resize, args=(membership, SIZE_KEY))
    label = {number: f"network {number}" for number, _ in enumerate(networks, start=1)}
    network_of = {client: label[number] for number, (client, _) in enumerate(networks, start=1)}
    names = {seat.id: f"{seat.nickname or 'no name'} · {network_of[seat.client]}{' · away' if seat.away(now) else ''}"
             for seat in view.seats}
    with st.form("bpe-room-remove", border=False):
        st.multiselect("Seats to remove (with their answers to this question)", list(names), format_func=names.get, key=REMOVE_KEY)
        st.form_submit_button("Remove these seats", on_click=classroom.remove_seats, args=(membership, REMOVE_KEY))


def make_phone_key(membership: Membership) -> None:
    """A new teacher key for the teacher's phone: one of the room's screens, shown on the controls only."""
    key = classroom.new_teacher_token()

    def add(store) -> None:
        store.change(membership.code, lambda room: room.screen_added_by(membership.credential(), key))
        PHONE_KEY.set((membership.code, key))

    classroom.act(add)
