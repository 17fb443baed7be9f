"""A clicker drives every lesson page: PageDown / PageUp walk the page's lesson, whatever was clicked last.

One mechanism, used two ways (the router and its hint are :mod:`bpe.views.clicker`):

* A page with steps of its own (Train's stepper, Encode's merge walk, Predict's reveal) draws its
  Previous and Next buttons as before and calls :func:`keys` with their keys and where the lesson is.
* Every other lesson page declares its lesson as a :class:`Walk` (its places in order, the one shown,
  how to show one) and draws :func:`walk_buttons`: Previous and Next (PageUp / PageDown) and where
  it is ("Card 3 of 7: Numbers")::

      walk_buttons(Walk("card", tuple(PHENOMENA), CARD.get, CARD.set, title=lambda key: PHENOMENA[key].title))

Either way the page keeps the place in its link with its own parameter (``card=``, ``preset=``,
``step=``...), so a reload or a shared link opens the same place. The two tools (Check my BPE,
Import & export) draw neither, and keep every key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import streamlit as st

from bpe.views.clicker import CLICKER_JS, clicker_html
from bpe.views.tab_focus import TAB_FOCUS_JS

from . import lesson_bar, url
from .state import SessionValue, widget_key

T = TypeVar("T")

NEXT = widget_key("clicker", "next")
PREVIOUS = widget_key("clicker", "previous")
"""The keys of :func:`walk_buttons`' buttons (a page with its own buttons names theirs to :func:`keys`)."""
RUN = SessionValue("clicker_run", 0)
"""Counts the session's runs that drew a marker: each marker names its run (the router waits for a
press's run to be drawn before it acts on the next press)."""
ROW = "bpe-walk-row"
"""The key of :func:`walk_buttons`' own row (``ui.page_css`` styles it: compact on a projector, wrapping on a phone)."""


@dataclass(frozen=True)
class Walk(Generic[T]):
    """A lesson the clicker walks: ``places`` in order; ``current()`` the one shown (or one that is
    none of them: a text the learner typed, from where PageDown goes to the first); ``go(place)``
    shows one. ``current`` is read when the key is pressed, so two quick presses take two steps."""

    noun: str
    """What a place is called: "card", "example", "token"."""
    places: tuple[T, ...]
    current: Callable[[], T | None]
    go: Callable[[T], None]
    title: Callable[[T], str] | None = str
    """A place's name in the label ("Card 3 of 7: Numbers"); ``None``: no label (the page says where it is)."""

    def at(self) -> int | None:
        """The index of the place shown, or ``None`` when it is none of them."""
        current = self.current()
        return self.places.index(current) if current in self.places else None


def _step(walk: Walk, by: int) -> None:
    at = walk.at()
    target = (0 if by > 0 else -1) if at is None else at + by
    if 0 <= target < len(walk.places):
        walk.go(walk.places[target])


def walk_buttons(
    walk: Walk, *, next_label: str | None = None, previous_label: str | None = None, at_start: str | None = None, row=None,
):
    """Previous and Next (PageUp / PageDown) and where the walk is, in one row (``row``: a horizontal
    container of the page's, e.g. beside the control that chooses a place); returns the row (a page
    may add a button of its own to it). ``at_start``: what PageUp says at the first place."""
    at, count = walk.at(), len(walk.places)
    if row is None:
        row = st.container(horizontal=True, vertical_alignment="center", gap="small", key=ROW)
    row.button(
        previous_label or f"Previous {walk.noun}", key=PREVIOUS, icon=":material/chevron_left:", on_click=_step, args=(walk, -1),
        disabled=not at, shortcut="PageUp",
    )
    row.button(
        next_label or f"Next {walk.noun}", key=NEXT, icon=":material/chevron_right:", type="primary", on_click=_step,
        args=(walk, 1), disabled=at is not None and at >= count - 1, shortcut="PageDown",
    )
    label = "" if walk.title is None else (
        f"{walk.noun.capitalize()} {at + 1} of {count}: {walk.title(walk.places[at])}" if at is not None
        else f"{count} {walk.noun}s: Next shows the first"
    )
    with row:
        keys(
            next_key=NEXT, previous_key=PREVIOUS, at=-1 if at is None else at, count=count, label=label,
            at_end=f"That was the last {walk.noun}: PageUp goes back.",
            at_start=at_start or f"This is the first {walk.noun}: PageDown goes on.",
            seek=lambda place: walk.go(walk.places[place]),
        )
    return row


def pills_walk(label: str, noun: str, places: tuple[str, ...], place: SessionValue[str], title: Callable[[str], str],
               **pills) -> str:
    """One row: a pill per place (``place`` holds the one shown) and Previous / Next beside them (PageUp /
    PageDown); returns the place shown. The pills name the places, so the walk's label says none. ``pills``:
    the pills' own options (``width``, ``wrap``)."""
    row = st.container(horizontal=True, vertical_alignment="center", gap="small", key=ROW)
    row.pills(label, list(places), format_func=title, label_visibility="collapsed", **pills,
              **place.widget(convert=lambda key: key or place.get()))  # clicking the chosen pill again keeps it
    walk_buttons(Walk(noun, places, place.get, place.set, title=None), row=row)
    return place.get()


def keys(
    *, next_key: str, previous_key: str, at: int, count: int, at_end: str, at_start: str, label: str = "",
    seek: Callable[[int], None] | None = None,
) -> None:
    """The page's lesson for the clicker: PageDown clicks the button keyed ``next_key``, PageUp the one
    keyed ``previous_key``, whatever holds the focus; at the ends the key goes on to the lesson's
    next page or back to its previous one (``ui.lesson_bar``), or shows ``at_end`` or ``at_start``.
    ``at`` of ``count``: where the lesson is (a test reads it); ``seek(place)`` shows a place (a page
    opened backwards by the lesson opens at its last)."""
    lesson_bar.enter(at, count, seek)
    onward, backward = lesson_bar.ways(at, count)
    RUN.set(RUN.get() + 1)
    marker = clicker_html(
        next_key=next_key, previous_key=previous_key, at=at, count=count, at_end=at_end, at_start=at_start,
        presenting=url.PRESENT.get(), label=label, run=RUN.get(), onward_key=onward, backward_key=backward,
    )
    st.html(CLICKER_JS + TAB_FOCUS_JS + marker, unsafe_allow_javascript=True, width="content")
