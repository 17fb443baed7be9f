"""The step controls every stepped page shares: first / previous / next / last, play, the slider,
and the fragment that redraws only the step view when they change.

Each control writes the step into the session's lab state (``ui.state``), not into a widget key,
so the step survives a page switch; the URL follows it (``ui.url``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from . import state, url
from .state import lab, seed, update_lab, write_lab
from .training import Trained


def _go(step: int) -> None:
    update_lab(step=step)
    st.session_state[state.LAST_TICK] = time.monotonic()  # a click is this tick: play goes on from here


def _set_step(key: str) -> None:
    _go(st.session_state[key])


def _toggle_play(total: int) -> None:
    playing = not st.session_state[state.PLAYING]
    if playing and lab().step >= total:
        update_lab(step=0)  # play from the start again
    st.session_state[state.PLAYING] = playing
    st.rerun()  # the whole page: the step fragment's timer is set (or cleared) by a full run


def _set_speed(key: str) -> None:
    st.session_state[state.SPEED] = st.session_state[key]
    if st.session_state[state.PLAYING]:
        st.rerun()  # a full run gives the step fragment's timer the new interval


def _interval() -> float:
    return 1.0 / state.SPEEDS[st.session_state[state.SPEED]]


def step_fragment(draw: Callable[[Trained], None], trained: Trained) -> None:
    """Draw ``draw(trained)`` (the stepper and all that depends on the step) as one fragment.

    A click on a control inside it (Next, the slider...) reruns only the fragment, so the browser
    redraws only the step's elements, not the sidebar and the rest of the page. While playing,
    the fragment also reruns on a timer, one step per tick; Play, Pause and a new speed rerun the
    whole page, which sets or clears that timer (Streamlit drops fragment timers on a full run).
    """
    st.session_state[state.LAST_TICK] = time.monotonic()  # a full run is never a tick
    run_every = _interval() if st.session_state[state.PLAYING] else None
    st.fragment(_stepping, run_every=run_every)(draw, trained)


def _stepping(draw: Callable[[Trained], None], trained: Trained) -> None:
    if st.session_state[state.PLAYING]:
        _tick(len(trained.trace.steps))
    url.write_lab_now()  # before drawing: a link copied during a slow step names the step shown
    draw(trained)


def _tick(total: int) -> None:
    """One step on, if this run is the timer's (not a click within the last tick)."""
    now = time.monotonic()
    if now - st.session_state[state.LAST_TICK] < _interval() * 0.8:
        return
    st.session_state[state.LAST_TICK] = now
    step = lab().step
    if step < total:
        update_lab(step=step + 1)
    if step + 1 >= total:
        st.session_state[state.PLAYING] = False
        st.rerun(scope="app")  # the last step: a full run draws it and stops the timer


def _flip(key: str) -> None:
    st.session_state[key] = not st.session_state[key]


def stepper(total: int, *, key: str = "main") -> int:
    """First / previous / next / last, play/pause, before/after (key B), why (key W), a speed and
    a slider, in one row (the speed and the slider wrap under the buttons on a phone). Returns the
    step. Why is a setting, not a fold in the page: it stays as it is across steps (and in the link).

    The row is a keyed horizontal container (CSS class ``st-key-bpe-stepper``): the page's CSS
    keeps it one compact row at every width (see ``ui.page_css.LAYOUT_CSS``), where Streamlit's columns
    would stack six full-width buttons on a phone.
    """
    step = lab().step
    playing = st.session_state[state.PLAYING]
    row = st.container(horizontal=True, key=f"bpe-stepper-{key}", vertical_alignment="center", gap="small")
    row.button("First", icon=":material/first_page:", key=f"w.first.{key}", on_click=_go, args=(0,), disabled=step == 0)
    row.button(
        "Previous", icon=":material/chevron_left:", key=f"w.prev.{key}", on_click=_go,
        args=(max(step - 1, 0),), disabled=step == 0,
        shortcut="PageUp",  # what a presenter's clicker sends
    )
    row.button(
        "Next", icon=":material/chevron_right:", key=f"w.next.{key}", on_click=_go,
        args=(min(step + 1, total),), disabled=step >= total, type="primary",
        shortcut="PageDown",
    )
    row.button("Last", icon=":material/last_page:", key=f"w.last.{key}", on_click=_go, args=(total,), disabled=step >= total)
    row.button(
        "Pause" if playing else "Play", icon=":material/pause:" if playing else ":material/play_arrow:",
        key=f"w.play.{key}", on_click=_toggle_play, args=(total,), disabled=total == 0,
    )
    row.button(
        "Before / after", icon=":material/compare:", key=f"w.moment.{key}", on_click=_flip, args=(state.HOLD_BEFORE,),
        disabled=total == 0, shortcut="B", help="The corpus just before each merge, or just after it",
    )
    why = st.session_state[state.WHY]
    row.button(
        "Hide why" if why else "Why", icon=":material/visibility_off:" if why else ":material/lightbulb:",
        key=f"w.why.{key}", on_click=_flip, args=(state.WHY,), shortcut="W",
        help="Why this pair won (ties and the rule), and what the merge did: shown at every step until hidden again",
    )
    seed(f"w.speed.{key}", st.session_state[state.SPEED])
    row.selectbox(
        "Speed", list(state.SPEEDS), key=f"w.speed.{key}", label_visibility="collapsed",
        on_change=_set_speed, args=(f"w.speed.{key}",), width=140,
    )
    if total > 0:
        seed(f"w.step.{key}", step)
        row.slider(
            "Step (merges applied so far)", 0, total, key=f"w.step.{key}", label_visibility="collapsed",
            on_change=_set_step, args=(f"w.step.{key}",), width="stretch",
        )
    else:
        row.caption("No merge was learned, so there is only step 0.")
    return step


def step_slider(total: int, *, key: str) -> int:
    """Just the step slider (the encode and vocabulary pages share the training page's step)."""
    if total > 0:
        seed(f"w.step.{key}", lab().step)
        st.slider(
            "Merges learned so far (the step on the training page)", 0, total, key=f"w.step.{key}",
            on_change=write_lab(f"w.step.{key}", "step"),
        )
    return lab().step
