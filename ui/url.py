"""The URL carries the example, the settings and the step (never the corpus), both ways.

* :func:`apply_url` at the top of a page: a link that *opens* the page (the session's first run,
  a page switch, the browser's back or forward, a lesson's next stop) replaces the state; bad
  values become warnings. An *empty* query string is ignored: Streamlit clears it when you switch
  page from the sidebar, and that must not reset your work.
* subtle: any other run of the page (a button, a key, a slider) is not a link, whatever query
  string it brings. Streamlit's frontend sends a rerun's query string from its React state, which
  lags the address bar: it is set when the page's write arrives but read only after React renders
  again, so a press that lands in between (a clicker's PageDown on a busy machine, or just after a
  step) brought the query before the last write. Read as a link, it sent the lesson back a place
  (the press looked lost, and the address bar stayed one place off); ``benchmarks/clicker_presses.py``
  traces it (31 of 200 presses lost with both cores busy, docs/measurements.md).
* :func:`write_url` at the end: the current state goes into the address bar, so copying it
  reproduces this view; it is sent whenever it differs from what the frontend last sent *or* from
  what this session last wrote (either can lag). :func:`write_lab_now` does the example's part at
  the *start* of a run: a slow page would otherwise show the new step while the address bar still
  names the old one.
* A page's own parameters are declared once, in ``ui/links.py``: :func:`read` reads one from the
  link that opened the page (one warning for a bad value, said on the page), and ``write_url``
  writes each back its declared way. Presenter mode, the "why" switch, the tour and the lesson are
  :data:`~ui.links.CARRIED`: read here, on every page, and written by every page.
* A link to the learner's own text or table cannot carry it: opened in a session that has none,
  it says so, and keeps what it can (the settings and the step).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from bpe.app.lab_state import OWN_TABLE_SOURCE, LabState, lab_params, repeated_params
from bpe.app.links import LinkParam, LinkValueCut
from bpe.app.pages import Page
from bpe.errors import SettingsError
from bpe.notation.markdown import escape_markdown

from . import links, state
from .own_corpus import has_own_corpus
from .state import LAB, PLAYING, SessionValue

T = TypeVar("T")

PRESENT = SessionValue("present", False)
"""Presenter mode: large type, the sidebar folded (also ``present=1`` in the link)."""
WHY = SessionValue("why", True)
"""The Train page shows why each merge happened (its narration's sentences): a setting that stays
across steps, switched by the stepper's Why button (key W); ``why=0`` in the link when off."""
LESSON = SessionValue("lesson", None)
"""The lesson a teacher walks, as its link spells it (a built-in name, or stops joined by dots), or ``None``."""
STOP = SessionValue("lesson_stop", None)
"""Which stop of :data:`LESSON` is shown (1: the first), or ``None`` before the first (on Home)."""
IN_LESSON = SessionValue("lesson_here", False)
"""The page shown is where the lesson is (``ui.lesson_bar``): only then does its link carry the lesson."""
CARRIED_VALUES: Mapping[LinkParam, SessionValue] = {
    links.PRESENT: PRESENT, links.WHY: WHY, links.LESSON: LESSON, links.STOP: STOP,
}
"""Each of :data:`ui.links.CARRIED` and the session value it sets."""

SEEN = SessionValue("url_seen", None)
"""The query string this session last applied or wrote: what the address bar holds, as far as it knows."""
WARNINGS: SessionValue[list[str]] = SessionValue("url_warnings", factory=list)
NEW: SessionValue[dict] = SessionValue("url_new", factory=dict)
"""The query parameters of the link that opened the page in this run (``{}`` on its other runs)."""
ON_PAGE = SessionValue("url_on_page", None)
"""The page the session's last run was of (Streamlit's page script hash)."""
OPENING = SessionValue("url_opening", False)
"""This run opens its page (with a link or bare, from the sidebar): :func:`opened_bare`."""
REOPEN = SessionValue("url_reopen", False)
"""The next run opens its page's link even on the page already shown (a lesson's next stop on it)."""
STEP_FROM_URL = SessionValue("step_from_url", False)
"""The step shown came from a link (so a step past the run's end gets a warning)."""


def _current() -> dict[str, str | list[str]]:
    params, repeated = st.query_params, repeated_params()
    return {key: (values if len(values := params.get_all(key)) > 1 or key in repeated else values[-1]) for key in params}


def _opens_page() -> bool:
    """Whether this run opens its page (see the module's docstring): only then is the query a link."""
    ctx = get_script_run_ctx()
    page = ctx.page_script_hash if ctx is not None else None
    opening = page != ON_PAGE.get() or REOPEN.get() or (ctx is not None and ctx.is_history_navigation)
    ON_PAGE.set(page)
    REOPEN.set(False)
    return opening


def reopen(page: Page, query: Mapping[str, str]) -> None:
    """Open ``page`` with the link ``query`` (as a link opens it), even when it is the page shown."""
    REOPEN.set(True)
    st.switch_page(page.file, query_params=dict(query))


def apply_url(page: Page) -> None:
    """Apply the link that opened ``page`` (nothing on its other runs): the carried parameters, the
    example's (unless the page declares the name its own: Vocabulary's ``vocab`` is a vocabulary,
    not the lab's vocabulary size), and keep the page's own for :func:`read`."""
    OPENING.set(_opens_page())
    params = _current() if OPENING.get() else {}
    NEW.set(params)
    WARNINGS.set([])
    if not params:
        return
    warnings: list[str] = []
    for param, value in CARRIED_VALUES.items():
        read(param, value, warn=warnings.append)
    if links.LESSON.name not in params:  # a link from outside the lesson leaves it
        LESSON.set(None)
        STOP.set(None)
    lab_keys = lab_params() - {param.name for param in links.PAGE_LINKS[page.file]}
    # A link without any of the example's parameters (``Byte_inspector?text=é``) leaves the example alone.
    if lab_keys.intersection(params):
        linked, lab_warnings = LabState.from_query({key: value for key, value in params.items() if key in lab_keys})
        # A step or settings mean someone trained on their own text and shared the view (the gallery's
        # "your own text" card links with the example alone).
        if not has_own_corpus(linked.source) and (lab_keys - {"preset"}).intersection(params):
            lab_warnings.append(
                f"the sender's own {'word table' if linked.source == OWN_TABLE_SOURCE else 'text'} is not in the link (a link "
                "never carries it), so this is a sample in its place, with the link's settings and step; paste or "
                "upload your own in the Corpus box on the Train page"
            )
        LAB.set(linked)
        STEP_FROM_URL.set("step" in params)
        PLAYING.set(False)
        warnings += lab_warnings
    WARNINGS.set(warnings)
    SEEN.set(params)


def read(param: LinkParam[T], into: SessionValue | Callable[[Any], None] | None = None, *,
         warn: Callable[[str], None] | None = None, **bounds: Any) -> T | None:
    """The value of ``param`` in the link that opened the page (``None``: not in it, or bad), set
    ``into`` a session value (or handed to a callable). A bad value is one warning on the page,
    naming what it must be and what is kept (``warn``: collect it instead of drawing it).
    ``bounds``: a range only the page knows (``high=``: the run's last merge)."""
    raw = NEW.get().get(param.name)
    if isinstance(raw, list):
        raw = raw[-1] if raw else None
    if raw is None:
        return None
    say = warn or warn_link
    try:
        value = param.parse(raw, **bounds)
    except LinkValueCut as cut:
        say(str(cut))
        value = cut.kept
    except SettingsError as error:
        kept = param.show(into.get()) if isinstance(into, SessionValue) and into.get() is not None else None
        say(f"{error}" + (f": using {kept}" if kept else ""))
        return None
    if isinstance(into, SessionValue):
        into.set(value)
    elif into is not None:
        into(value)
    return value


def read_links(values: Mapping[LinkParam, SessionValue]) -> None:
    """:func:`read` each parameter into its session value (a page's or a section's own, declared together)."""
    for param, value in values.items():
        read(param, value)


def linked(param: LinkParam) -> bool:
    """Whether the link that opened the page carries ``param`` (good or bad)."""
    return param.name in NEW.get()


def opened_by_link() -> bool:
    """Whether a link (with any parameter) opened the page in this run."""
    return bool(NEW.get())


def opened_bare() -> bool:
    """Whether this run opens the page with no link (from the sidebar, or its address with no query)."""
    return OPENING.get() and not NEW.get()


def write_lab_now() -> None:
    """Put the example's part of the state in the address bar at once, keeping the other
    parameters (the settings sidebar calls it first, on every page that shows the example)."""
    known = _current() if OPENING.get() else SEEN.get() or _current()  # a rerun's own query may lag (see above)
    lab_keys = lab_params()
    query = {**state.lab().to_query(), **{key: value for key, value in known.items() if key not in lab_keys}}
    _send(query)


def show_url_warnings() -> None:
    for warning in WARNINGS.get():
        warn_link(warning)


def warn_link(message: str) -> None:
    """Say on the page that a link parameter was not usable (``message``: plain text, escaped here)."""
    st.warning(f"In the link: {escape_markdown(message)}.", icon="🔗")


def carried() -> dict[str, str]:
    """The carried parameters as the link writes them (``present=1``, ``why=0``, the lesson where it is)."""
    values = {param: value.get() for param, value in CARRIED_VALUES.items()}
    if not IN_LESSON.get():
        values[links.LESSON] = values[links.STOP] = None
    return _written(values)


def _written(values: Mapping[LinkParam, Any]) -> dict[str, str]:
    """Each parameter's text in the link (a value that is ``None``, a default or a long text is left out)."""
    return {param.name: written for param, value in values.items()
            if value is not None and (written := param.written(value)) is not None}


def write_url(page: Mapping[LinkParam, Any] | None = None, *, lab: bool = True) -> None:
    """Put the state in the address bar: the example (unless ``lab=False``), then ``page``'s own
    parameters (each written its declared way), then the carried ones (:func:`carried`)."""
    query = state.lab().to_query() if lab else {}
    _send({**query, **_written(page or {}), **carried()})


def _send(query: dict) -> None:
    if query != _current() or query != SEEN.get():
        st.query_params.from_dict(query)
    SEEN.set(query)
