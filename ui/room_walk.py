"""A class room as places of a lesson (a stop of :mod:`bpe.app.lessons` with ``room=True``), for the clicker.

On such a stop the quiz's first question is the first place; PageDown starts the class room (the
projector shows the question and the way in), reveals the answers, asks the next merge, reveals it,
then asks "Guess the tokens" (how many tokens GPT-4o makes of a Why card's phrase) and reveals that;
the next PageDown opens the lesson's next page. The room itself is ``ui.classroom``'s: this module
only names its buttons to the clicker and asks the guess with its functions. A room goes forward
only (an answer given cannot be taken back): PageUp on the room's screen goes back to the lesson's
previous page, and the room stays open until its teacher ends it.
"""

from __future__ import annotations

import streamlit as st

from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.room import ASKING
from bpe.teaching.room_questions import CountAsk, RoomRefused, ask_count, guess_cases

from . import classroom, clicker, lesson_bar, tokenizers
from .classroom_views import LAST_VIEW
from .state import widget_key
from .tokenizers import pretrained

MERGE_QUESTIONS = 2
"""Merges the class predicts before it guesses the tokens."""
GUESSED_BY = "o200k_base"
"""Whose tokens the class guesses: GPT-4o's."""
START, REVEAL, NEXT = widget_key("room", "start"), widget_key("room", "reveal"), widget_key("room", "next")
"""The class room's own buttons (``ui.classroom_views``, ``ui.room_teacher_views``)."""
ASK_GUESS = widget_key("lesson", "guess")
PLACES = 1 + 2 * (MERGE_QUESTIONS + 1)
"""The quiz's first question, then each question asked and revealed."""


def in_room_stop() -> bool:
    """Whether the lesson is on a stop that runs a class room."""
    walked, stop = lesson_bar.lesson(), lesson_bar.position(lesson_bar.SHOWN.get()) if lesson_bar.SHOWN.get() else None
    return bool(walked and stop and walked.stops[stop - 1].room)


def before_the_room(previous_key: str) -> bool:
    """On a room stop, before the room: the quiz's question is the first place, PageDown starts the
    room. Whether it drew the marker (on any other page of a lesson the quiz draws its own)."""
    if not in_room_stop():
        return False
    clicker.keys(
        next_key=START, previous_key=previous_key, at=0, count=PLACES,
        at_end="", at_start="This is the lesson's class room: PageDown starts it.",
    )
    return True


def on_the_projector() -> None:
    """The projector of the room on a room stop: the clicker reveals, asks the next merge, then the guess."""
    view, membership = LAST_VIEW.get(), classroom.member()
    if view is None or membership is None or not membership.screen or not in_room_stop():
        return
    room = view.room
    tokenizers.start_loading([GUESSED_BY])  # the guess is counted by it: loaded while the class answers
    guessing, asking = isinstance(room.question, CountAsk), room.phase == ASKING
    at = min(2 * room.round - (1 if asking else 0), PLACES - 1)
    if asking:
        next_key = REVEAL
    elif guessing:  # the guess revealed: the room's last place, from which the lesson goes on
        next_key, at = ASK_GUESS, PLACES - 1
    elif room.round < MERGE_QUESTIONS:
        next_key = NEXT
    else:
        next_key = ASK_GUESS
        st.button("Ask: how many tokens?", key=ASK_GUESS, icon=":material/quiz:", type="primary",
                  on_click=ask_the_guess, args=(membership, room.round, room.step),
                  help=f"The class guesses how many tokens {PRETRAINED[GUESSED_BY].title} makes of a Why card's phrase")
    clicker.keys(
        next_key=next_key, previous_key=lesson_bar.BACKWARD, at=at, count=PLACES,
        at_end="That was the room's last question, and the lesson's.",
        at_start="A class room goes forward only: PageUp goes back to the lesson's previous page.",
    )


def ask_the_guess(membership, round: int, step: int) -> None:
    """Ask "Guess the tokens" on the first Why card's phrase, counted by :data:`GUESSED_BY`."""
    tokenizer = pretrained(GUESSED_BY)
    if tokenizer is None:
        return  # pretrained() said why on the page
    try:
        question = ask_count(next(iter(guess_cases().values())), name=GUESSED_BY, tokenizer=tokenizer)
    except RoomRefused as refusal:
        classroom.note("error", f"**Cannot ask that:** {refusal}.")
        return
    classroom.next_question(membership, round, step, question)
