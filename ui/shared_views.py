"""What the pages draw from a run or a tokenizer, built once for the whole server and shared.

Why: a class follows one example, so sixty students press Next onto the same step of the same
run within seconds, and every element of that step (numbers and narration, the pair-count rows,
the segmented corpus, the latest merges) is a pure function of the run, the step and the view
options. Building each once and handing the same string or spec to every session turns sixty
builds into one (on a long text such as python-docs the corpus view and the pair counts are the
costliest part of a step).
The same holds for a run's whole-run tables, an encode of a 200,000-character text and its
walkthrough, and a run's export files. What stays per session is only what is truly per session:
reading its state, its widgets, and sending the elements.

How: one :class:`~bpe.jobs.store.BoundedStore` in ``st.cache_resource``, bounded in entries and in
weight (a corpus view is up to a quarter of a megabyte of HTML), and one helper, :func:`shared_view`.
A key is ``(anchor, *key)``: the anchor is what the view is drawn from, a run
(:class:`ui.training.Trained`, itself shared per corpus content and settings) or a tokenizer, and
``key`` says which view, at which step, with which options and (by :func:`text_key`) for which text.

subtle: an anchor is named by identity (``Trained`` and ``Tokenizer`` compare and hash by identity)
through a weak reference: a view never keeps its run alive, and once a run is gone its views can
never be handed to another run that takes its place in memory (a dead reference equals only
itself), they just age out.

    >>> calls = []
    >>> def corpus_html():
    ...     calls.append(1)
    ...     return "<p>chips</p>"
    >>> shared, run = BoundedStore(8), Trained(trace=None, text="", table=None)
    >>> views = [_view(shared, run, ("corpus", 3), corpus_html) for _ in range(60)]  # 60 students
    >>> len(calls), views[0] is views[59]
    (1, True)
    >>> _view(shared, run, ("corpus", 4), corpus_html) and len(calls)  # the next step: built once more
    2
    >>> _view(shared, Trained(trace=None, text="", table=None), ("corpus", 3), corpus_html) and len(calls)  # an equal run
    3

A view must never be mutated after it is built (sessions share it): the builders return fresh
strings, specs and tables, and :func:`ui.render.show_chart` copies a spec before adding to it.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from bpe.jobs.store import BoundedStore

from .training import Trained

T = TypeVar("T")

MAX_VIEWS = 4_096
"""Views kept at once: a 60-merge example's four views per step are 240."""
MAX_WEIGHT = 24_000_000
"""About 24 MB in all (characters of HTML, bytes of files and tables): some 60 steps of python-docs'
corpus view beside a few long encodes."""


def weigh(view: Any) -> int:
    """About how many bytes a view holds (weighed once, when it is built)."""
    if isinstance(view, (str, bytes)):
        return len(view)
    if isinstance(view, pd.DataFrame):  # its repr is cut short
        return int(view.memory_usage(deep=True).sum())
    return len(repr(view))


@st.cache_resource(show_spinner=False)
def store() -> BoundedStore:
    """The one store shared by every session (cleared by ``st.cache_resource.clear()``)."""
    return BoundedStore(MAX_VIEWS, max_weight=MAX_WEIGHT, weigh=weigh)


def text_key(text: str) -> str:
    """A long text's part of a key: its SHA-256 (a key never holds the text itself)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def shared_view(anchor: Trained | object, *key: Hashable, build: Callable[[], T]) -> T:
    """``build()``'s result for ``anchor`` (a run or a tokenizer) and ``key`` (the view's name and
    everything else it depends on: step, options, :func:`text_key` of a text): built by the first
    session that asks, then shared."""
    return _view(store(), anchor, key, build)


def _view(views: BoundedStore, anchor: object, key: tuple, build: Callable[[], T]) -> T:
    full_key = (weakref.ref(anchor), *key)
    view = views.get(full_key)
    if view is None:
        view = build()
        views.put(full_key, view)
    return view
