"""A lesson across pages (:mod:`bpe.app.lessons`) on the screen: where it is, and the ways on and back.

The link carries the lesson and the stop shown (``lesson=first-class&stop=3``). On the stop's page,
:func:`bar` says where the lesson is ("Lesson · page 3 of 8: Count the pairs") and draws the two
ways between pages, the previous stop (Home before the first) and the next. The clicker takes them
when the page's own lesson is at an end (:func:`ways`, read by ``ui.clicker.keys``): PageDown at a
page's last place opens the next stop at its first place, PageUp at a page's first place opens the
previous stop at its *last* (:func:`enter`), so a teacher who went too far steps back place by place.

Home starts a lesson: its chooser (``app.py``) names one (kept in Home's link), and Home's last place
goes on to the first stop.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bpe.app.lessons import DEFAULT_LESSON, Lesson, is_lesson, lesson_named, link_of
from bpe.app.pages import HOME, Page

from . import url
from .state import SessionValue, widget_key

ONWARD = widget_key("lesson", "onward")
BACKWARD = widget_key("lesson", "backward")
"""The keys of the bar's two buttons (the clicker's marker names them: ``data-onward``, ``data-backward``)."""
BAR = "bpe-lesson-bar"
"""The bar's keyed row (``ui.page_css`` pins it to the projector's bottom left in presenter mode)."""
ENTRY: SessionValue[tuple[str, int, bool] | None] = SessionValue("lesson_entry", None)
"""``(page file, stop, last)`` of the stop the lesson just opened: it shows its first place, or its
last when opened backwards (:func:`enter`), whatever the session showed there before."""


def lesson() -> Lesson | None:
    """The lesson the session walks, or ``None``."""
    spelled = url.LESSON.get()
    return lesson_named(spelled) if spelled and is_lesson(spelled) else None


def chosen() -> Lesson:
    """The lesson Home offers: the one walked or chosen there, else the first built-in one."""
    return lesson() or lesson_named(DEFAULT_LESSON)


def position(page: Page) -> int | None:
    """Which stop of the lesson ``page`` shows (1: the first; 0: Home, before it), or ``None`` when
    the page is not where the lesson is."""
    if page == HOME:
        return 0
    walked, stop = lesson(), url.STOP.get()
    if walked is None or not stop or not 1 <= stop <= len(walked.stops) or walked.stops[stop - 1].page != page:
        return None
    return stop


SHOWN: SessionValue[Page | None] = SessionValue("lesson_page", None)
"""The page this run draws (``bar`` notes it for ``ways`` and ``enter``, which the clicker calls)."""


def bar(page: Page) -> None:
    """On the lesson's stop: where the lesson is, and the buttons to the previous and next stop."""
    SHOWN.set(page)
    at = position(page)
    url.IN_LESSON.set(at is not None and (at > 0 or lesson() is not None))
    if ENTRY.get() is not None and ENTRY.get()[:2] != (page.file, at):
        ENTRY.set(None)  # the stop the lesson opened is left: its entry is spent
    walked = lesson()
    if walked is None or not at:
        return
    count = len(walked.stops)
    stop = walked.stops[at - 1]
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key=BAR):
        back = st.button(
            "Home" if at == 1 else walked.stops[at - 2].title, key=BACKWARD, icon=":material/chevron_left:", type="tertiary",
            help="The lesson's previous page (PageUp at this page's first place)",
        )
        st.markdown(f"**Lesson · page {at} of {count}:** {stop.title}")
        onward = at < count and st.button(
            walked.stops[at].title, key=ONWARD, icon=":material/chevron_right:", type="tertiary",
            help="The lesson's next page (PageDown at this page's last place)",
        )
    if back:
        go(walked, at - 1, last=True)
    if onward:
        go(walked, at + 1)


def go(walked: Lesson, to: int, *, last: bool = False) -> None:
    """Open stop ``to`` of ``walked`` (0: Home) at its first place, or at its ``last``."""
    page, link = (HOME, {}) if to == 0 else (walked.stops[to - 1].page, walked.stops[to - 1].link)
    url.LESSON.set(link_of(walked))
    url.STOP.set(to or None)
    url.IN_LESSON.set(True)
    ENTRY.set((page.file, to, last))
    url.reopen(page, {**link, **url.carried()})


def start(walked: Lesson) -> None:
    """Home's way in: the lesson's first stop, at its first place."""
    go(walked, 1)


def ways(at: int, count: int) -> tuple[str | None, str | None]:
    """``(onward, backward)``: the keys of the buttons the clicker presses past the page's own
    lesson at place ``at`` of ``count`` (``None``: the page's end is the lesson's)."""
    page = SHOWN.get()
    stop = None if page is None else position(page)
    walked = lesson() if page != HOME else chosen()
    if stop is None or walked is None:
        return None, None
    onward = (START if page == HOME else ONWARD) if at >= count - 1 and stop < len(walked.stops) else None
    backward = BACKWARD if at <= 0 and stop > 0 else None
    return onward, backward


START = widget_key("lesson", "start")
"""Home's "Start the lesson" button (``app.py``)."""


def enter(at: int, count: int, seek: Callable[[int], None] | None) -> None:
    """The stop the lesson just opened shows its first place (its last, opened backwards): ``seek``
    there once, and draw the page again."""
    page, entry = SHOWN.get(), ENTRY.get()
    if seek is None or page is None or entry is None or entry[:2] != (page.file, position(page)):
        return
    ENTRY.set(None)
    place = count - 1 if entry[2] else 0
    if at != place:
        seek(place)
        st.rerun()
