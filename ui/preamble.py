"""The shared top of the pages that read the current run: link warnings, the run at its step,
a summary line and a step slider."""

from __future__ import annotations

import streamlit as st

from bpe.app.lab_state import SOURCES
from bpe.notation.markdown import escape_markdown

from . import url
from .state import LAB, lab, update_lab
from .stepper import step_slider
from .training import Trained, clamp_step, get_trained


def run_summary(trained_trace, *, step: bool = True) -> None:
    """One caption line naming the example, the settings and (``step``) the step in use."""
    current = lab()
    settings = trained_trace.settings
    at = f" · step {current.step:,} of {len(trained_trace.steps):,}" if step else f" · {len(trained_trace.steps):,} merges"
    st.caption(
        f"**{SOURCES[current.source]}** · {settings.unit} · pre-tokenizer {escape_markdown(settings.pretokenizer)} · "
        f"ties: {settings.tie_break}"
        + (f" · SuperBPE: split lifted after merge {settings.transition:,}" if settings.transition is not None else "")
        + f"{at} (change them in the sidebar or on the Train page)."
    )


def open_trained() -> None:
    """A page opened bare in a session that has not had a run yet (no page drew or set one: the
    session's first look at the example) shows the example trained, at its last step: at step 0 a
    run is every byte as itself, and encoding or a vocabulary's health has nothing to show. Call
    it before the sidebar draws the step. A link, or a run the learner has seen, is kept."""
    if not url.opened_bare() or LAB.key in st.session_state:
        return
    trained = get_trained(lab())
    if trained is not None:
        update_lab(step=len(trained.trace.steps))


def current_run() -> Trained | None:
    """The shared top of every page that reads the current run: link warnings, then the run
    (trained now if needed) with the step kept inside it. ``None`` after an error message; the
    URL is still written, so a copied link keeps the settings that caused it."""
    url.show_url_warnings()
    trained = get_trained(lab())
    if trained is None:
        url.write_url()
        return None
    clamp_step(trained)
    return trained


def run_at_step(*, slider_key: str) -> tuple[Trained, int] | None:
    """:func:`current_run`, its summary line and a step slider: ``(run, step)``, or ``None``."""
    trained = current_run()
    if trained is None:
        return None
    run_summary(trained.trace)
    return trained, step_slider(len(trained.trace.steps), key=slider_key)
