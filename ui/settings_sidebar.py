"""The sidebar: the example picker, then one widget per training setting, drawn from the registry.

The settings are not listed here: :func:`settings_sidebar` loops over
:data:`bpe.app.setting_specs.SETTINGS` and draws each with the drawer its ``widget`` names in
:data:`DRAWERS` (one per kind). Only the stop rule (merges *or* a vocabulary size) and the custom
pre-tokenizer regex have code of their own. Each widget has a ``w.<param>`` key, is seeded from the
session's :class:`~bpe.app.lab_state.LabState` just before it is drawn and writes back in
``on_change`` (see :mod:`ui.state`), so the state survives a page switch.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import streamlit as st

from bpe.app import setting_specs
from bpe.app.lab_state import SOURCES, STOP_BY, LabState
from bpe.app.setting_specs import WIDGETS, SettingSpec
from bpe.errors import RegistryError
from bpe.limits import MAX_MERGES
from bpe.presets import PRESETS
from bpe.pretokenize import NAMED_PATTERNS, PRETOKENIZER_HELP

from . import state, url
from .state import lab, seed, update_lab, write_lab

CUSTOM_REGEX = "custom regex"
DEFAULT_CUSTOM_PATTERN = r"\w+|[^\w\s]+"


def widget_key(spec: SettingSpec) -> str:
    return f"w.{spec.param}"


# -- one drawer per widget kind: (sidebar, spec, current state) -> draws it ----------------------------
def _radio(sidebar, spec: SettingSpec, current: LabState) -> None:
    key = widget_key(spec)
    seed(key, getattr(current, spec.name))
    sidebar.radio(spec.label, list(spec.choices), key=key, horizontal=True, help=spec.help, on_change=write_lab(key, spec.name))


def _select(sidebar, spec: SettingSpec, current: LabState) -> None:
    key = widget_key(spec)
    seed(key, getattr(current, spec.name))
    sidebar.selectbox(spec.label, list(spec.choices), key=key, help=spec.help, on_change=write_lab(key, spec.name))


def _number(sidebar, spec: SettingSpec, current: LabState) -> None:
    key = widget_key(spec)
    seed(key, getattr(current, spec.name))
    sidebar.number_input(spec.label, min_value=spec.low, step=1, key=key, help=spec.help, on_change=write_lab(key, spec.name, int))


def _text(sidebar, spec: SettingSpec, current: LabState) -> None:
    key = widget_key(spec)
    seed(key, spec.show(getattr(current, spec.name)))
    sidebar.text_input(
        spec.label, key=key, placeholder=spec.placeholder, help=spec.help, on_change=write_lab(key, spec.name, spec.parse),
    )


def _lines(sidebar, spec: SettingSpec, current: LabState) -> None:
    key = widget_key(spec)
    seed(key, "\n".join(getattr(current, spec.name)))
    sidebar.text_area(
        spec.label, key=key, height=80, placeholder=spec.placeholder, help=spec.help,
        # kept as typed, repeats and all: training then says what is wrong (the link's parse would drop it)
        on_change=write_lab(key, spec.name, lambda text: tuple(line.rstrip("\r") for line in text.split("\n") if line.strip())),
    )


def _toggle(sidebar, spec: SettingSpec, current: LabState) -> None:
    key = widget_key(spec)
    seed(key, getattr(current, spec.name))
    sidebar.checkbox(spec.label, key=key, help=spec.help, on_change=write_lab(key, spec.name))


def _choose_pretokenizer() -> None:
    choice = st.session_state["w.pretok"]
    if choice == CUSTOM_REGEX:
        pattern = st.session_state.get("w.regex") or DEFAULT_CUSTOM_PATTERN
        update_lab(pretokenizer=f"regex:{pattern}")
    else:
        update_lab(pretokenizer=choice)


def _pretokenizer(sidebar, spec: SettingSpec, current: LabState) -> None:
    """A named pattern, or a regex of the learner's own in a second box."""
    custom = current.pretokenizer.startswith("regex:")
    seed(widget_key(spec), CUSTOM_REGEX if custom else current.pretokenizer)
    sidebar.selectbox(
        spec.label, [*NAMED_PATTERNS, CUSTOM_REGEX], key=widget_key(spec), on_change=_choose_pretokenizer,
        disabled=current.is_word_table, help=spec.help,
    )
    if current.is_word_table:
        sidebar.caption("A word table is already split into words, so no pre-tokenizer runs.")
    elif custom:
        seed("w.regex", current.pretokenizer[len("regex:"):])
        sidebar.text_input(
            "Your split regex", key="w.regex", on_change=write_lab("w.regex", "pretokenizer", lambda p: f"regex:{p}"),
            help="Its matches are the words; text between matches is kept but never trained on.",
        )
        sidebar.caption(PRETOKENIZER_HELP["regex:PATTERN"])
    else:
        sidebar.caption(PRETOKENIZER_HELP[current.pretokenizer])


DRAWERS: MappingProxyType[str, Callable[[Any, SettingSpec, LabState], None]] = MappingProxyType({
    "radio": _radio, "select": _select, "number": _number, "text": _text, "lines": _lines, "toggle": _toggle,
    "pretokenizer": _pretokenizer,
})
if set(DRAWERS) != set(WIDGETS):  # a widget kind without a drawer is an error at import, not a missing widget
    raise RegistryError(f"ui.settings_sidebar draws {sorted(DRAWERS)}, the settings use {sorted(WIDGETS)}")


def draw_setting(sidebar, spec: SettingSpec, current: LabState) -> None:
    """One setting's widget, its caption and folded details (if it is shown for ``current``)."""
    if not spec.shown(current):
        return
    DRAWERS[spec.widget](sidebar, spec, current)
    if spec.caption is not None:
        sidebar.caption(spec.caption(getattr(current, spec.name)))
    if spec.details is not None:
        title, body = spec.details
        sidebar.expander(title).markdown(body())


# -- the example and the stop rule -------------------------------------------------------------------
def _choose_source() -> None:
    st.session_state[state.LAB] = LabState.for_source(st.session_state["w.source"], step=0)
    st.session_state[state.PLAYING] = False


def _reset_settings() -> None:
    current = lab()
    st.session_state[state.LAB] = LabState.for_source(current.source, step=current.step)


def _switch_stop_by() -> None:
    stop_by = st.session_state["w.stop_by"]
    current = lab()
    if stop_by == current.stop_by:
        return
    # Keep the same run when switching: 10 merges on bytes <-> a vocabulary of 266.
    # The base size is known once a run was trained; before that, bytes give a fair guess.
    base = st.session_state[state.BASE_SIZE] or 256
    extra = len(current.special_tokens)
    amount = current.amount + base + extra if stop_by == "vocab_size" else max(current.amount - base - extra, 0)
    update_lab(stop_by=stop_by, amount=amount)


def _stop_rule(sidebar, current: LabState) -> None:
    seed("w.stop_by", current.stop_by)
    sidebar.radio(
        "Stop after", list(STOP_BY), key="w.stop_by", horizontal=True, format_func=STOP_BY.get, on_change=_switch_stop_by,
    )
    seed("w.amount", current.amount)
    by_merges = current.stop_by == "merges"
    sidebar.number_input(
        f"Merges (at most {MAX_MERGES:,})" if by_merges else "Vocabulary size (base + merges + special)",
        min_value=0 if by_merges else 1, max_value=MAX_MERGES if by_merges else None,
        step=1, key="w.amount", on_change=write_lab("w.amount", "amount", int),
    )


def settings_sidebar() -> None:
    """The example picker and every training setting, in the sidebar."""
    url.write_lab_now()  # before the page draws: the address bar names the step about to be shown
    current = lab()
    sidebar = st.sidebar
    sidebar.header("Example")
    seed("w.source", current.source)
    sidebar.selectbox(
        "Corpus", list(SOURCES), key="w.source", format_func=SOURCES.get, on_change=_choose_source,
        help="A built-in example with its source's own settings, or your own text / word table.",
    )
    if current.source in PRESETS:
        sidebar.caption(PRESETS[current.source].description)

    sidebar.header("Settings")
    _stop_rule(sidebar, current)
    for spec in setting_specs.SETTINGS:  # read when drawn, so a setting registered later is drawn too
        draw_setting(sidebar, spec, current)
    sidebar.button("Reset to the example's settings", on_click=_reset_settings, width="stretch")
