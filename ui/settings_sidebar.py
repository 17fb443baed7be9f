"""The sidebar: the example picker, then one widget per training setting, drawn from the registry.

The settings are not listed here: :func:`settings_sidebar` loops over
:data:`bpe.app.setting_specs.SETTINGS` and draws each with the drawer its ``widget`` names in
:data:`DRAWERS` (one per kind). Only the stop rule (merges *or* a vocabulary size) and the custom
pre-tokenizer regex have code of their own. Each widget is bound to its field of the session's
:class:`~bpe.app.lab_state.LabState` (``LAB.field_widget``, keyed ``w.<param>``; see :mod:`ui.state`),
so the state survives a page switch.
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
from bpe.text.pretokenize import PRETOKENIZER_HELP, PRETOKENIZERS
from bpe.training.presets import PRESETS

from . import url
from .state import LAB, PLAYING, SessionValue, bind, lab, update_lab, widget_key

CUSTOM_REGEX = "custom regex"
DEFAULT_CUSTOM_PATTERN = r"\w+|[^\w\s]+"
REGEX = "regex"
"""The name of the custom split regex's box (``w.regex``)."""
BASE_SIZE = SessionValue("base_size", None)
"""The base vocabulary size of the last run (the Train page sets it), to turn merges into a
vocabulary size and back."""


def bound(spec: SettingSpec, **how) -> dict:
    """``key=`` and ``on_change=`` of the widget editing ``spec``'s field of the lab state."""
    return LAB.field_widget(spec.name, name=spec.param, **how)


# -- one drawer per widget kind: (sidebar, spec, current state) -> draws it ----------------------------
def _radio(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.radio(spec.label, list(spec.choices), horizontal=True, help=spec.help, **bound(spec))


def _select(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.selectbox(spec.label, list(spec.choices), help=spec.help, **bound(spec))


def _number(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.number_input(spec.label, min_value=spec.low, step=1, help=spec.help, **bound(spec, convert=int))


def _optional_number(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.number_input(
        spec.label, min_value=spec.low, step=1, value=None, placeholder=spec.placeholder, help=spec.help,
        **bound(spec, convert=lambda value: None if value is None else int(value)),
    )


def _text(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.text_input(
        spec.label, placeholder=spec.placeholder, help=spec.help, **bound(spec, show=spec.show, convert=spec.parse),
    )


def _lines(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.text_area(
        spec.label, height=80, placeholder=spec.placeholder, help=spec.help,
        # kept as typed, repeats and all: training then says what is wrong (the link's parse would drop it)
        **bound(spec, show="\n".join, convert=lambda text: tuple(line.rstrip("\r") for line in text.split("\n") if line.strip())),
    )


def _toggle(sidebar, spec: SettingSpec, current: LabState) -> None:
    sidebar.checkbox(spec.label, help=spec.help, **bound(spec))


def _choose_pretokenizer(choice: str) -> None:
    if choice == CUSTOM_REGEX:
        pattern = st.session_state.get(widget_key(REGEX)) or DEFAULT_CUSTOM_PATTERN
        update_lab(pretokenizer=f"regex:{pattern}")
    else:
        update_lab(pretokenizer=choice)


def _pretokenizer(sidebar, spec: SettingSpec, current: LabState) -> None:
    """A named pattern, or a regex of the learner's own in a second box."""
    custom = current.pretokenizer.startswith("regex:")
    sidebar.selectbox(
        spec.label, [*PRETOKENIZERS, CUSTOM_REGEX], disabled=current.is_word_table, help=spec.help,
        **bind(widget_key(spec.param), _choose_pretokenizer, shown=CUSTOM_REGEX if custom else current.pretokenizer),
    )
    if current.is_word_table:
        sidebar.caption("A word table is already split into words, so no pre-tokenizer runs.")
    elif custom:
        sidebar.text_input(
            "Your split regex", help="Its matches are the words; text between matches is kept but never trained on.",
            **LAB.field_widget("pretokenizer", name=REGEX, show=lambda p: p[len("regex:"):], convert=lambda p: f"regex:{p}"),
        )
        sidebar.caption(PRETOKENIZER_HELP["regex:PATTERN"])
    else:
        sidebar.caption(PRETOKENIZER_HELP[current.pretokenizer])


DRAWERS: MappingProxyType[str, Callable[[Any, SettingSpec, LabState], None]] = MappingProxyType({
    "radio": _radio, "select": _select, "number": _number, "optional_number": _optional_number, "text": _text,
    "lines": _lines, "toggle": _toggle,
    "pretokenizer": _pretokenizer,
})
if set(DRAWERS) != set(WIDGETS):  # a widget kind without a drawer is an error at import, not a missing widget
    raise RegistryError(
        f"ui.settings_sidebar draws {sorted(DRAWERS)}, but setting_specs.WIDGETS names {sorted(WIDGETS)}: "
        "give each widget kind a drawer in DRAWERS"
    )


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
def _choose_source(source: str) -> None:
    LAB.set(LabState.for_source(source, step=0))
    PLAYING.set(False)


def _reset_settings() -> None:
    current = lab()
    LAB.set(LabState.for_source(current.source, step=current.step))


def _switch_stop_by(stop_by: str) -> None:
    current = lab()
    if stop_by == current.stop_by:
        return
    # Keep the same run when switching: 10 merges on bytes <-> a vocabulary of 266.
    # The base size is known once a run was trained; before that, bytes give a fair guess.
    base = BASE_SIZE.get() or 256
    extra = len(current.special_tokens)
    amount = current.amount + base + extra if stop_by == "vocab_size" else max(current.amount - base - extra, 0)
    update_lab(stop_by=stop_by, amount=amount)


def _stop_rule(sidebar, current: LabState) -> None:
    sidebar.radio(
        "Stop after", list(STOP_BY), horizontal=True, format_func=STOP_BY.get,
        **bind(widget_key("stop_by"), _switch_stop_by, shown=current.stop_by),
    )
    by_merges = current.stop_by == "merges"
    sidebar.number_input(
        f"Merges (at most {MAX_MERGES:,})" if by_merges else "Vocabulary size (base + merges + special)",
        min_value=0 if by_merges else 1, max_value=MAX_MERGES if by_merges else None,
        step=1, **LAB.field_widget("amount", convert=int),
    )


def settings_sidebar() -> None:
    """The example picker and every training setting, in the sidebar."""
    url.write_lab_now()  # before the page draws: the address bar names the step about to be shown
    current = lab()
    sidebar = st.sidebar
    sidebar.header("Example")
    sidebar.selectbox(
        "Corpus", list(SOURCES), format_func=SOURCES.get, **bind(widget_key("source"), _choose_source, shown=current.source),
        help="A built-in example with its source's own settings, or your own text / word table.",
    )
    if current.source in PRESETS:
        sidebar.caption(PRESETS[current.source].description)

    sidebar.header("Settings")
    _stop_rule(sidebar, current)
    for spec in setting_specs.SETTINGS:  # read when drawn, so a setting registered later is drawn too
        draw_setting(sidebar, spec, current)
    sidebar.button("Reset to the example's settings", on_click=_reset_settings, width="stretch")
