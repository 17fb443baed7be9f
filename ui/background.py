"""Big work on a page: ask the server's job board for it, show how far it is, draw it when it is done.

The board (:mod:`bpe.jobs.board`) runs the work in a worker process within a budget, shares it with every
session that asks the same, and stops it once nobody asks. A page asks at every run
(:func:`job`); while the job works, a progress bar (:func:`progress`) asks again each second (a fragment,
so only the bar reruns), and reruns the whole page when there is something new to draw: a part of the
result, the end, or a failure. A learner who leaves the page stops asking, and the job is stopped after
:data:`~bpe.limits.JOB_ABANDON_S`.

subtle: the board is this module's own, not an ``st.cache_resource``: it must outlive a cache clear (a
running worker belongs to it), and it is meant to be shared by every session of the server.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable

import streamlit as st

from bpe.jobs.board import JobBoard, JobRequest, JobView

BOARD = JobBoard()
POLL_S = 1.0
"""How often a waiting page asks about its job (the board stops a job nobody asked about for 15 s)."""


def job(anchor: object, *key: Hashable, request: Callable[[], JobRequest]) -> JobView:
    """The job for ``anchor`` (a tokenizer or a run, by identity as :func:`ui.shared_views.shared_view`'s
    anchors are) and ``key``, as it stands; ``request`` builds its request if it must start (in the job's
    own thread). Draw :func:`progress` where the page shows how far it is."""
    return BOARD.ask(_key(anchor, key), request)


def progress(anchor: object, *key: Hashable, request: Callable[[], JobRequest], what: str) -> None:
    """A progress bar saying ``what`` (Markdown) and what the job is doing, asking about it each second,
    until it is finished; the page reruns whole when there is something new to draw."""
    full_key = _key(anchor, key)
    view = BOARD.ask(full_key, request)
    if not view.finished:
        _progress(full_key, request, what, tuple(view.parts))


def _key(anchor: object, key: tuple) -> tuple:
    return (weakref.ref(anchor), *key)


@st.fragment(run_every=POLL_S)
def _progress(key: tuple, request: Callable[[], JobRequest], what: str, drawn: tuple[str, ...]) -> None:
    view = BOARD.ask(key, request)
    if view.finished or tuple(view.parts) != drawn:
        st.rerun()  # the whole page: it draws what has come
    st.progress(view.fraction, text=f"{what}: {view.doing}…" if view.doing else what)
