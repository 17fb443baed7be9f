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
* Presenter mode travels as ``present=1``, a folded "why" as ``why=0``. A lab page's own
  parameters (a short text, a pair) are read once from :func:`new_param` and written back by ``write_url(page=..., lab=False)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bpe.app.lab_state import OWN_TABLE_SOURCE, LabState, lab_params, repeated_params
from bpe.notation.markdown import escape_markdown
from bpe.tokens.ids import is_digits

from . import state
from .own_corpus import has_own_corpus
from .state import LAB, PLAYING, SessionValue

PRESENT = SessionValue("present", False)
"""Presenter mode: large type, the sidebar folded (also ``present=1`` in the link)."""
WHY = SessionValue("why", True)
"""The Train page shows why each merge happened (its narration's sentences): a setting that stays
across steps, switched by the stepper's Why button (key W); ``why=0`` in the link when off."""
SEEN = SessionValue("url_seen", None)
"""The query string this session last applied or wrote (to tell a new link from our own)."""
WARNINGS: SessionValue[list[str]] = SessionValue("url_warnings", factory=list)
NEW: SessionValue[dict] = SessionValue("url_new", factory=dict)
"""The query parameters of a link opened in this run (``{}`` on reruns): pages read their own."""
STEP_FROM_URL = SessionValue("step_from_url", False)
"""The step shown came from a link (so a step past the run's end gets a warning)."""


def _current() -> dict[str, str | list[str]]:
    params, repeated = st.query_params, repeated_params()
    return {key: (values if len(values := params.get_all(key)) > 1 or key in repeated else values[-1]) for key in params}


PRESENT_KEY = "present"
WHY_KEY = "why"


def apply_url() -> None:
    params = _current()
    if not params or params == SEEN.get():
        WARNINGS.set([])
        NEW.set({})
        return
    NEW.set(params)
    if PRESENT_KEY in params:
        PRESENT.set(params[PRESENT_KEY] == "1")
    if WHY_KEY in params:
        WHY.set(params[WHY_KEY] != "0")
    # The parameters LabState writes; a link without any (``Byte_inspector?text=é``) leaves the
    # example alone. Pages read their own parameters from new_params().
    lab_keys = lab_params()
    if not lab_keys.intersection(params):
        WARNINGS.set([])
        SEEN.set(params)
        return
    linked, warnings = LabState.from_query(params)
    # A step or settings mean someone trained on their own text and shared the view (the gallery's
    # "your own text" card links with the example alone).
    if not has_own_corpus(linked.source) and (lab_keys - {"preset"}).intersection(params):
        warnings.append(
            f"the sender's own {'word table' if linked.source == OWN_TABLE_SOURCE else 'text'} is not in the link (a link "
            "never carries it), so this is a sample in its place, with the link's settings and step; paste or "
            "upload your own in the Corpus box on the Train page"
        )
    LAB.set(linked)
    WARNINGS.set(warnings)
    STEP_FROM_URL.set("step" in params)
    PLAYING.set(False)
    SEEN.set(params)


def write_lab_now() -> None:
    """Put the example's part of the state in the address bar at once, keeping the other
    parameters (the settings sidebar calls it first, on every page that shows the example)."""
    current = _current()
    lab_keys = lab_params()
    query = {key: value for key, value in current.items() if key not in lab_keys}
    query = {**state.lab().to_query(), **query}
    if query != current:
        st.query_params.from_dict(query)
        SEEN.set(query)


def show_url_warnings() -> None:
    for warning in WARNINGS.get():
        warn_link(warning)


def warn_link(message: str) -> None:
    """Say on the page that a page's own link parameter was not usable (``message``: plain text, escaped here)."""
    st.warning(f"In the link: {escape_markdown(message)}.", icon="🔗")


def new_params() -> dict[str, str | list[str]]:
    """The query parameters of a link opened in this run; ``{}`` on a rerun or a page switch."""
    return NEW.get() or {}


def new_param(key: str) -> str | None:
    """One parameter of a just-opened link (the last one if repeated), or ``None``."""
    value = new_params().get(key)
    return value[-1] if isinstance(value, list) else value


def write_url(page: dict[str, str] | None = None, *, lab: bool = True) -> None:
    """Put the state in the address bar: the example (unless ``lab=False``), then ``page``'s own
    parameters, then ``present=1`` in presenter mode and ``why=0`` with the "why" folded."""
    query = state.lab().to_query() if lab else {}
    query.update(page or {})
    if PRESENT.get():
        query[PRESENT_KEY] = "1"
    if not WHY.get():
        query[WHY_KEY] = "0"
    if _current() != query:
        st.query_params.from_dict(query)
    SEEN.set(query)


def read_choice(key: str, value: SessionValue, options: Sequence[str]) -> None:
    """A just-opened link's ``key`` into ``value`` if it is one of ``options``; else a warning naming them."""
    given = new_param(key)
    if given is None:
        return
    if given in options:
        value.set(given)
    else:
        warn_link(f"{key} must be one of {', '.join(options)}, got {given!r}")


def read_whole_number(key: str, value: SessionValue, low: int, high: int) -> None:
    """A just-opened link's ``key`` into ``value`` if it is a whole number from ``low`` to ``high``; else a warning."""
    given = new_param(key)
    if given is None:
        return
    if is_digits(given) and len(given) <= len(str(high)) and low <= int(given) <= high:
        value.set(int(given))
    else:
        warn_link(f"{key} must be a whole number from {low} to {high:,}, got {given!r}")
