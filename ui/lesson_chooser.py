"""Home's lesson: a built-in lesson or the teacher's own stops, chosen and ordered, its plan, and the
walk that starts it (PageDown on Home: the welcome, the lesson's plan, then the lesson's first page).

The choice is the lesson the link carries (``url.LESSON``: Home's address bar names it, so a teacher
can bookmark their lesson); the stops come from :data:`bpe.app.lessons.STOPS`.
"""

from __future__ import annotations

import streamlit as st

from bpe.app.lessons import DEFAULT_LESSON, JOIN, LESSONS, OWN, STOPS, Lesson
from bpe.notation.markdown import escape_markdown

from . import handout, lesson_bar, url
from .clicker import Walk, walk_buttons
from .state import SessionValue, bind, widget_key

PLACES = ("Welcome", "Today's lesson")
"""Home's walk: the page as it opens, then the chosen lesson's plan at the top."""
PLACE = SessionValue("home_place", 0)
OWN_DEFAULT = ("bytes", "counting", "train-sennrich", "encode-walk")
"""The stops a teacher's own lesson starts from, until they choose theirs."""
KIND_KEY, STOPS_KEY = widget_key("lesson", "kind"), widget_key("lesson", "stops")


def home_walk() -> None:
    """Home's places for the clicker (its last goes on to the lesson's first page)."""
    walk_buttons(Walk("part", tuple(range(len(PLACES))), PLACE.get, PLACE.set, title=PLACES.__getitem__),
                 next_label="Next", previous_label="Back")


def plan_on_top() -> bool:
    """Whether Home shows the lesson's plan first (its second place)."""
    return PLACE.get() == len(PLACES) - 1


def plan(lesson: Lesson) -> None:
    """The lesson, page by page, and the button that starts it."""
    st.header(f"Today's lesson: {lesson.title}")
    st.caption(escape_markdown(lesson.about))
    st.markdown("\n".join(
        f"{number}. **{escape_markdown(stop.title)}**"
        + (f" ({escape_markdown(stop.page.title)})" if stop.page.title != stop.title else "") + f": {escape_markdown(stop.teaches)}"
        for number, stop in enumerate(lesson.stops, start=1)
    ))
    if st.button(f"Start the lesson: page 1 of {len(lesson.stops)}", key=lesson_bar.START, type="primary",
                 icon=":material/co_present:", help="PageDown at Home's last place starts it too, as a clicker does"):
        lesson_bar.start(lesson)
    handout.handout_row(lesson, key="home")


def chooser() -> Lesson:
    """Choose a built-in lesson, or order stops into your own; returns the lesson chosen."""
    lesson = lesson_bar.chosen()
    kinds = {**{name: built.title for name, built in LESSONS.items()}, OWN: "Your own: choose and order the pages"}
    st.selectbox("Lesson", list(kinds), format_func=kinds.get, **bind(KIND_KEY, _choose_kind, shown=lesson.name))
    if lesson.name == OWN:
        st.multiselect(
            "Your pages, in the order you teach them (the order you pick them in)", list(STOPS),
            format_func=lambda name: STOPS[name].title, **bind(STOPS_KEY, _choose_stops, shown=[s.name for s in lesson.stops]),
        )
    return lesson_bar.chosen()


def _choose_kind(kind: str) -> None:
    url.LESSON.set(JOIN.join(OWN_DEFAULT) if kind == OWN else (None if kind == DEFAULT_LESSON else kind))
    url.STOP.set(None)


def _choose_stops(names: list[str]) -> None:
    url.LESSON.set(JOIN.join(names) if names else JOIN.join(OWN_DEFAULT))  # a lesson is at least one page
