"""The URL carries the example, the settings and the step (never the corpus), both ways.

* :func:`apply_url` at the top of a page: a query string this session has not seen (a shared
  link, a gallery link, the browser's back button) replaces the state; bad values become
  warnings. An *empty* query string is ignored: Streamlit clears it when you switch page from
  the sidebar, and that must not reset your work.
* :func:`write_url` at the end: the current state goes into the address bar, so copying it
  reproduces this view. :func:`write_lab_now` does the example's part at the *start* of a run:
  a slow page would otherwise show the new step while the address bar still names the old one.
* A link to the learner's own text or table cannot carry it: opened in a session that has none,
  it says so, and keeps what it can (the settings and the step).
* Presenter mode travels as ``present=1``, a folded "why" as ``why=0``. A lab page's own parameters (a short text, a pair) are
  read once from :func:`new_param` and written back by ``write_url(page=..., lab=False)``.
"""

from __future__ import annotations

import streamlit as st

from bpe.app.lab_state import OWN_TABLE_SOURCE, OWN_TEXT_SOURCE, LabState, lab_params, repeated_params
from bpe.views.markdown import escape_markdown

from . import state


def _current() -> dict[str, str | list[str]]:
    params, repeated = st.query_params, repeated_params()
    return {key: (values if len(values := params.get_all(key)) > 1 or key in repeated else values[-1]) for key in params}


PRESENT_KEY = "present"
WHY_KEY = "why"


def apply_url() -> None:
    params = _current()
    if not params or params == st.session_state[state.URL_SEEN]:
        st.session_state[state.URL_WARNINGS] = []
        st.session_state[state.URL_NEW] = {}
        return
    st.session_state[state.URL_NEW] = params
    if PRESENT_KEY in params:
        st.session_state[state.PRESENT] = params[PRESENT_KEY] == "1"
    if WHY_KEY in params:
        st.session_state[state.WHY] = params[WHY_KEY] != "0"
    # The parameters LabState writes; a link without any (``Byte_inspector?text=é``) leaves the
    # example alone. Pages read their own parameters from new_params().
    lab_keys = lab_params()
    if not lab_keys.intersection(params):
        st.session_state[state.URL_WARNINGS] = []
        st.session_state[state.URL_SEEN] = params
        return
    lab, warnings = LabState.from_query(params)
    # A step or settings mean someone trained on their own text and shared the view (the gallery's
    # "your own text" card links with the example alone).
    if not _has_own_corpus(lab.source) and (lab_keys - {"preset"}).intersection(params):
        warnings.append(
            f"the sender's own {'word table' if lab.source == OWN_TABLE_SOURCE else 'text'} is not in the link (a link "
            "never carries it), so this is a sample in its place, with the link's settings and step; paste or "
            "upload your own in the Corpus box on the Train page"
        )
    st.session_state[state.LAB] = lab
    st.session_state[state.URL_WARNINGS] = warnings
    st.session_state[state.STEP_FROM_URL] = "step" in params
    st.session_state[state.PLAYING] = False
    st.session_state[state.URL_SEEN] = params


def _has_own_corpus(source: str) -> bool:
    """False for a link to "your own text" (or table) in a session that still has only the sample."""
    if source == OWN_TEXT_SOURCE:
        return st.session_state[state.OWN_TEXT] != state.DEFAULT_OWN_TEXT
    if source == OWN_TABLE_SOURCE:
        return st.session_state[state.OWN_TABLE] != state.default(state.OWN_TABLE)
    return True


def write_lab_now() -> None:
    """Put the example's part of the state in the address bar at once, keeping the other
    parameters (the settings sidebar calls it first, on every page that shows the example)."""
    current = _current()
    lab_keys = lab_params()
    query = {key: value for key, value in current.items() if key not in lab_keys}
    query = {**state.lab().to_query(), **query}
    if query != current:
        st.query_params.from_dict(query)
        st.session_state[state.URL_SEEN] = query


def show_url_warnings() -> None:
    for warning in st.session_state[state.URL_WARNINGS]:
        st.warning(f"In the link: {escape_markdown(warning)}.", icon="🔗")


def new_params() -> dict[str, str | list[str]]:
    """The query parameters of a link opened in this run; ``{}`` on a rerun or a page switch."""
    return st.session_state[state.URL_NEW] or {}


def new_param(key: str) -> str | None:
    """One parameter of a just-opened link (the last one if repeated), or ``None``."""
    value = new_params().get(key)
    return value[-1] if isinstance(value, list) else value


def write_url(page: dict[str, str] | None = None, *, lab: bool = True) -> None:
    """Put the state in the address bar: the example (unless ``lab=False``), then ``page``'s own
    parameters, then ``present=1`` in presenter mode and ``why=0`` with the "why" folded."""
    query = state.lab().to_query() if lab else {}
    query.update(page or {})
    if st.session_state[state.PRESENT]:
        query[PRESENT_KEY] = "1"
    if not st.session_state[state.WHY]:
        query[WHY_KEY] = "0"
    if _current() != query:
        st.query_params.from_dict(query)
    st.session_state[state.URL_SEEN] = query
