"""What a Train step draws, built once per (run, step, view options) and shared by every session.

Why: a class follows one example, so sixty students press Next onto the same step of the same
run within seconds, and every element of that step (numbers and narration, the pair-count rows,
the segmented corpus, the latest merges) is a pure function of the run, the step and the view
options. Building each once and handing the same string or spec to every session turns sixty
builds into one (on python-docs a corpus view alone costs about 50 ms, the pair counts more).
What stays per session is only what is truly per session: reading its state, its widgets, and
sending the elements.

How: one bounded least-recently-used store in ``st.cache_resource`` (the pattern of
:mod:`ui.training`), bounded both in entries and in total characters (a corpus view is up to a
quarter of a megabyte of HTML). Keys are ``(run, what, step, options)``, where the run is the
shared :class:`ui.training.Trained`, itself cached once per (corpus content, settings): two
students on the same text and settings get the same ``Trained`` and so the same views; two on
different texts never can.

    >>> calls = []
    >>> def corpus_html():
    ...     calls.append(1)
    ...     return "<p>chips</p>"
    >>> shared, run = BoundedStore(8), Trained(trace=None, text="", table=None)
    >>> views = [_view(shared, run, "corpus", 3, (), corpus_html) for _ in range(60)]  # 60 students
    >>> len(calls), views[0] is views[59]
    (1, True)
    >>> _view(shared, run, "corpus", 4, (), corpus_html) and len(calls)  # the next step: built once more
    2

A view must never be mutated after it is built (sessions share it): the builders return fresh
strings and specs, and :func:`ui.render.show_chart` copies a spec before adding to it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import streamlit as st

from .training import BoundedStore, Trained

T = TypeVar("T")

MAX_VIEWS = 4_096
"""Views kept at once: a 60-merge example's four views per step are 240."""
MAX_CHARS = 16_000_000
"""Total characters kept (about 16 MB of ASCII HTML): some 60 steps of python-docs' corpus view."""


def _weigh(view: Any) -> int:
    """Characters a view holds (a spec counts as its text form; built once per miss, so cheap enough)."""
    return len(view) if isinstance(view, str) else len(repr(view))


@st.cache_resource(show_spinner=False)
def store() -> BoundedStore:
    """The one store shared by every session (cleared by ``st.cache_resource.clear()``)."""
    return BoundedStore(MAX_VIEWS, max_weight=MAX_CHARS, weigh=_weigh)


def step_view(trained: Trained, what: str, step: int, options: Hashable, build: Callable[[], T]) -> T:
    """``build()``'s result for this run, step and options: built by the first session that asks,
    then shared. ``options`` is everything besides the run and the step that the view depends on
    (e.g. the token names), as a hashable value."""
    return _view(store(), trained, what, step, options, build)


def _view(views: BoundedStore, trained: Trained, what: str, step: int, options: Hashable, build: Callable[[], T]) -> T:
    # subtle: ``Trained`` is unhashable, so the run is named by a token kept in its own memo. The
    # key holds the token, so while a view lives no other run can get an equal key (an ``id()``
    # could be reused once a run is evicted). Two sessions making the token at once only cost a
    # miss: the views keyed on the losing token age out.
    key = (trained.view("step-views-token", object), what, step, options)
    view = views.get(key)
    if view is None:
        view = build()
        views.put(key, view)
    return view
