"""The URL carries the example, the settings and the step (never the corpus), both ways.

* :func:`apply_url` at the top of a page: a query string this session has not seen (a shared
  link, a gallery link, the browser's back button) replaces the state; bad values become
  warnings. An *empty* query string is ignored: Streamlit clears it when you switch page from
  the sidebar, and that must not reset your work.
* :func:`write_url` at the end: the current state goes into the address bar, so copying it
  reproduces this view.
"""

from __future__ import annotations

import streamlit as st

from bpe.views.app_state import LabState

from . import state


def _current() -> dict[str, str | list[str]]:
    params = st.query_params
    return {key: (values if len(values := params.get_all(key)) > 1 or key == "special" else values[-1]) for key in params}


def apply_url() -> None:
    params = _current()
    if not params or params == st.session_state[state.URL_SEEN]:
        st.session_state[state.URL_WARNINGS] = []
        return
    lab, warnings = LabState.from_query(params)
    st.session_state[state.LAB] = lab
    st.session_state[state.URL_WARNINGS] = warnings
    st.session_state[state.STEP_FROM_URL] = "step" in params
    st.session_state[state.PLAYING] = False
    st.session_state[state.URL_SEEN] = params


def show_url_warnings() -> None:
    for warning in st.session_state[state.URL_WARNINGS]:
        st.warning(f"In the link: {warning}.", icon="🔗")


def write_url() -> None:
    query = state.lab().to_query()
    if _current() != query:
        st.query_params.from_dict(query)
    st.session_state[state.URL_SEEN] = query
