"""The step controls every stepped page shares: first / previous / next / last, play, the slider,
and the fragment that redraws only the step view when they change.

Each control writes the step into the session's lab state (``ui.state``), not into a widget key,
so the step survives a page switch; the URL follows it (``ui.url``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from . import clicker, url
from .state import LAB, PLAYING, SessionValue, bind, lab, update_lab, widget_key
from .training import Trained

SPEEDS = {"1 step/s": 1.0, "2 steps/s": 2.0, "5 steps/s": 5.0}  # short: the select is one button wide, even on a phone
SPEED = SessionValue("speed", "2 steps/s")
LAST_TICK = SessionValue("last_tick", 0.0)
"""When the step last moved on its own (a tick) or the page was drawn whole: a full run is never a tick."""
HOLD_BEFORE = SessionValue("hold_before", False)
"""The Train page shows the corpus *before* each merge until "Before / after" (key B) is pressed again."""


def _go(step: int) -> None:
    """A step chosen by hand (a button, the slider, a clicker's key): it takes over from play."""
    update_lab(step=step)
    PLAYING.set(False)


def _go_by(steps: int, total: int) -> None:
    """From the step shown *now* (not when the button was drawn): two quick presses of a clicker take two steps."""
    _go(min(max(lab().step + steps, 0), total))


def _toggle_play(total: int) -> None:
    playing = not PLAYING.get()
    if playing and lab().step >= total:
        update_lab(step=0)  # play from the start again
    PLAYING.set(playing)
    st.rerun()  # the whole page: the step fragment's timer is set (or cleared) by a full run


def _speed_changed() -> None:
    if PLAYING.get():
        st.rerun()  # a full run gives the step fragment's timer the new interval


def _interval() -> float:
    return 1.0 / SPEEDS[SPEED.get()]


def step_fragment(draw: Callable[[Trained], None], trained: Trained) -> None:
    """Draw ``draw(trained)`` (the stepper and all that depends on the step) as one fragment.

    A click on a control inside it (Next, the slider...) reruns only the fragment, so the browser
    redraws only the step's elements, not the sidebar and the rest of the page. While playing,
    the fragment also reruns on a timer, one step per tick; Play, Pause and a new speed rerun the
    whole page, which sets or clears that timer (Streamlit drops fragment timers on a full run).
    """
    LAST_TICK.set(time.monotonic())  # a full run is never a tick
    run_every = _interval() if PLAYING.get() else None
    st.fragment(_stepping, run_every=run_every)(draw, trained)


def _stepping(draw: Callable[[Trained], None], trained: Trained) -> None:
    if PLAYING.get():
        _tick(len(trained.trace.steps))
    url.write_lab_now()  # before drawing: a link copied during a slow step names the step shown
    draw(trained)


def _tick(total: int) -> None:
    """One step on, if this run is the timer's (not a click within the last tick)."""
    now = time.monotonic()
    if now - LAST_TICK.get() < _interval() * 0.8:
        return
    LAST_TICK.set(now)
    step = lab().step
    if step < total:
        update_lab(step=step + 1)
    if step + 1 >= total:
        PLAYING.set(False)
        st.rerun(scope="app")  # the last step: a full run draws it and stops the timer


def _flip(value: SessionValue[bool]) -> None:
    value.set(not value.get())


def stepper(total: int, *, key: str = "main") -> int:
    """First / previous / next / last, play/pause, before/after (key B), why (key W), a speed and
    a slider, in one row (the speed and the slider wrap under the buttons on a phone). Returns the
    step. Why is a setting, not a fold in the page: it stays as it is across steps (and in the link).

    The row is a keyed horizontal container (CSS class ``st-key-bpe-stepper``): the page's CSS
    keeps it one compact row at every width (see ``ui.page_css.LAYOUT_CSS``), where Streamlit's columns
    would stack six full-width buttons on a phone.
    """
    step = lab().step
    playing = PLAYING.get()
    row = st.container(horizontal=True, key=f"bpe-stepper-{key}", vertical_alignment="center", gap="small")
    row.button("First", icon=":material/first_page:", key=widget_key("first", key), on_click=_go, args=(0,), disabled=step == 0)
    row.button(
        "Previous", icon=":material/chevron_left:", key=widget_key("prev", key), on_click=_go_by,
        args=(-1, total), disabled=step == 0,
        shortcut="PageUp",  # what a presenter's clicker sends
    )
    row.button(
        "Next", icon=":material/chevron_right:", key=widget_key("next", key), on_click=_go_by,
        args=(1, total), disabled=step >= total, type="primary",
        shortcut="PageDown",
    )
    row.button("Last", icon=":material/last_page:", key=widget_key("last", key), on_click=_go, args=(total,), disabled=step >= total)
    row.button(
        "Pause" if playing else "Play", icon=":material/pause:" if playing else ":material/play_arrow:",
        key=widget_key("play", key), on_click=_toggle_play, args=(total,), disabled=total == 0,
    )
    row.button(
        "Before / after", icon=":material/compare:", key=widget_key("moment", key), on_click=_flip, args=(HOLD_BEFORE,),
        disabled=total == 0, shortcut="B", help="The corpus just before each merge, or just after it",
    )
    why = url.WHY.get()
    row.button(
        "Hide why" if why else "Why", icon=":material/visibility_off:" if why else ":material/lightbulb:",
        key=widget_key("why", key), on_click=_flip, args=(url.WHY,), shortcut="W",
        help="Why this pair won (ties and the rule), and what the merge did: shown at every step until hidden again",
    )
    row.selectbox(
        "Speed", list(SPEEDS), label_visibility="collapsed", width=140, **SPEED.widget(suffix=key, then=_speed_changed),
    )
    if total > 0:
        # Held still while playing (Pause, or any button, takes over): the timer moves it, and a browser
        # that was still drawing the page when Play was pressed can report the slider's value from
        # before a tick, which taken as the learner's hand stopped play at once. Streamlit drops what
        # a disabled widget reports.
        row.slider(
            "Step (merges applied so far)", 0, total, label_visibility="collapsed", width="stretch", disabled=playing,
            **bind(widget_key("step", key), _go, shown=step),
        )
    else:
        row.caption("No merge was learned, so there is only step 0.")
    with row:
        clicker.keys(
            next_key=widget_key("next", key), previous_key=widget_key("prev", key), at=step, count=total + 1,
            at_end="That was the last merge: training stopped here. PageUp goes back.",
            at_start="This is step 0, before any merge: PageDown goes on.", seek=_go,
        )
    return step


def step_slider(total: int, *, key: str) -> int:
    """Just the step slider (the encode and vocabulary pages share the training page's step)."""
    if total > 0:
        st.slider("Merges learned so far (the step on the training page)", 0, total, **LAB.field_widget("step", suffix=key))
    return lab().step
