"""A page's lesson as a row of buttons: a numbered sequence of moments, one shown at a time.

A page whose lesson is a sequence (the Extend page's new merges, Vocabulary health's groups of
tokens) keeps the moment shown in one :class:`~ui.state.SessionValue` that its link also carries,
and draws this row: first, previous (PageUp), next (PageDown, what a presenter's clicker sends),
last, and a slider for a long sequence; the clicker (``ui.clicker``) routes PageDown / PageUp to it.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from . import clicker
from .state import SessionValue, widget_key

SLIDER_FROM = 6
"""A sequence this long gets a slider besides the buttons."""


def lesson_stepper(value: SessionValue[int], last: int, *, key: str, name: str, label: Callable[[int], str] = str) -> int:
    """Buttons (and, for a long sequence, a slider named ``name``) moving ``value`` through ``0..last``;
    returns it. ``label(moment)`` says where the lesson is."""
    at = min(max(value.get(), 0), last)
    row = st.container(horizontal=True, key=f"bpe-stepper-{key}", vertical_alignment="center", gap="small")
    row.button("First", icon=":material/first_page:", key=widget_key(key, "first"), on_click=value.set, args=(0,), disabled=at == 0)
    row.button(
        "Previous", icon=":material/chevron_left:", key=widget_key(key, "previous"), on_click=value.set, args=(max(at - 1, 0),),
        disabled=at == 0, shortcut="PageUp",
    )
    row.button(
        "Next", icon=":material/chevron_right:", key=widget_key(key, "next"), on_click=value.set, args=(min(at + 1, last),),
        disabled=at >= last, type="primary", shortcut="PageDown",
    )
    row.button("Last", icon=":material/last_page:", key=widget_key(key, "last"), on_click=value.set, args=(last,), disabled=at >= last)
    row.caption(label(at))
    if last + 1 >= SLIDER_FROM:
        row.slider(name, 0, last, label_visibility="collapsed", width="stretch", **value.widget(suffix=key, show=lambda _: at))
    with row:  # PageDown / PageUp reach these buttons whatever was clicked last (the slider took them)
        clicker.keys(
            next_key=widget_key(key, "next"), previous_key=widget_key(key, "previous"), at=at, count=last + 1,
            at_end=f"That was the end of the lesson ({label(last)}): PageUp goes back.",
            at_start=f"This is the start of the lesson ({label(0)}): PageDown goes on.", seek=value.set,
        )
    return at
