"""Per-session state: a value declared once, its widget and its link derived from it.

How a page declares a key, a widget bound to it, and a link parameter
---------------------------------------------------------------------
1. **A value that outlives the page** (text typed, a choice, a score) is a :class:`SessionValue`,
   declared once, as a named constant at the top of the page that owns it (or of the ``ui`` module
   that shares it between pages), with its default::

       ENCODE_TEXT = SessionValue("encode_text", None)          # session key "bpe.encode_text"
       PICKED = SessionValue("compare_with", factory=lambda: ["gpt2"])   # a fresh list per session

   ``ENCODE_TEXT.get()`` reads it (the default on first read), ``ENCODE_TEXT.set(text)`` writes it.
2. **A widget bound to it**: spread ``ENCODE_TEXT.widget()`` into the widget call. It shows the value
   (seeds the widget key ``"w.encode_text"`` just before drawing) and writes the widget's value back
   in ``on_change``::

       st.text_area("Text to encode", height=110, **ENCODE_TEXT.widget())

   Options: ``suffix=`` (two widgets for one value: ``"w.speed.main"``), ``options=`` (a choice no
   longer offered shows the first option), ``show=``/``convert=`` (the value as the widget holds it,
   and back), ``then=`` (a callback after the write). A widget editing one field of a dataclass
   value (the lab's settings, a form) uses ``.field_widget(name)``; a callback that does more than
   store the value uses :func:`bind`. A widget holding nothing worth keeping (a button, an uploader)
   takes ``key=widget_key("quiz", "reset")``. Pages never spell a ``"w.…"`` or ``"bpe.…"`` key, and
   no two declarations share a name (``tests/test_state_keys.py`` reads the sources).
3. **A link parameter**: the example, the settings and the step live in one typed
   :class:`~bpe.app.lab_state.LabState` (:data:`LAB`, :func:`lab`, :func:`update_lab`); its link form
   is derived from it, and its sidebar widgets from :data:`bpe.app.setting_specs.SETTINGS` (a new
   training setting is one entry there: widget and link parameter follow). A page's own parameter
   is declared once in ``ui/links.py`` (its name, range, default and written form), read when a
   link opens the page (``url.read(links.CARD, CARD)``) and written back with
   ``url.write_url({links.CARD: CARD.get()})``.

Why session keys and widget keys both: Streamlit drops a widget's key when the learner switches page,
so the value lives under its own ``bpe.*`` key and the ``w.*`` widget key is only its current view.
Module-level constants here are immutable declarations; every value lives in ``st.session_state``,
never in a module (module state is shared by every user of the server).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import streamlit as st

from bpe.app.lab_state import DEFAULT_SOURCE, LabState

T = TypeVar("T")

_HIDDEN = object()
"""``bind``'s ``shown`` when the widget cannot be seeded (a file uploader) or seeds itself."""


def widget_key(*parts: object) -> str:
    """The key of a widget: ``widget_key("quiz", "answer", 2)`` -> ``"w.quiz.answer.2"``."""
    return "w." + ".".join(map(str, parts))


def bind(key: str, write: Callable[[Any], None], *, shown: Any = _HIDDEN, then: Callable[[], None] | None = None) -> dict:
    """``key=`` and ``on_change=`` for a widget: show ``shown`` in it (unless omitted), and hand its
    new value to ``write`` when the learner changes it (then call ``then``)."""
    if shown is not _HIDDEN:
        st.session_state[key] = shown  # subtle: before the widget is drawn, never after (Streamlit refuses)

    def on_change() -> None:
        write(st.session_state[key])
        if then is not None:
            then()

    return {"key": key, "on_change": on_change}


@dataclass(frozen=True)
class SessionValue(Generic[T]):
    """One value of a session that survives a page switch, under the key ``bpe.<name>``."""

    name: str
    default: T | None = None
    factory: Callable[[], T] | None = None
    """Makes the default, for a value that must not be shared between sessions (a list)."""

    @property
    def key(self) -> str:
        return f"bpe.{self.name}"

    def initial(self) -> T:
        """The value a session starts with."""
        return self.factory() if self.factory is not None else self.default  # type: ignore[return-value]

    def get(self) -> T:
        if self.key not in st.session_state:
            st.session_state[self.key] = self.initial()
        return st.session_state[self.key]

    def set(self, value: T) -> None:
        st.session_state[self.key] = value

    def update(self, **changes: Any) -> None:
        """Replace fields of this (frozen dataclass) value: ``FORM.update(merges=b"...")``."""
        self.set(dataclasses.replace(self.get(), **changes))

    def among(self, options: Sequence) -> T:
        """The value if ``options`` still offers it, else the first option (another search, another
        step): what a select bound with ``widget(options=...)`` shows, for a page drawing it later."""
        value = self.get()
        return value if value in options else options[0]

    def widget(
        self, *, suffix: str | None = None, options: Sequence | None = None, show: Callable[[T], Any] | None = None,
        convert: Callable[[Any], T] | None = None, then: Callable[[], None] | None = None,
    ) -> dict:
        """``key=`` and ``on_change=`` for a widget showing this value (see the module's guide):
        ``show`` turns the value into what the widget holds, ``convert`` back."""
        value = show(self.get()) if show else self.get()
        if options is not None and value not in options:  # another search, another step: no longer offered
            value = options[0]
        return bind(
            widget_key(self.name, *([suffix] if suffix else [])), lambda new: self.set(convert(new) if convert else new),
            shown=value, then=then,
        )

    def field_widget(
        self, field: str, *, name: str | None = None, show: Callable[[Any], Any] | None = None,
        convert: Callable[[Any], Any] | None = None, suffix: str | None = None,
    ) -> dict:
        """A widget editing one field of this (frozen dataclass) value, keyed ``w.<name or field>``;
        ``show`` turns the field into what the widget holds, ``convert`` back."""
        shown = getattr(self.get(), field)
        return bind(
            widget_key(name or field, *([suffix] if suffix else [])),
            lambda new: self.set(dataclasses.replace(self.get(), **{field: convert(new) if convert else new})),
            shown=show(shown) if show else shown,
        )

    def item_widget(self, index: int, name: str, *, shown: Any, current: Callable[[], tuple] | None = None) -> dict:
        """A widget editing item ``index`` of this tuple value (or of ``current()``, its value as
        shown, when the value may still be unset), keyed ``w.<name>``."""
        def write(new: Any) -> None:
            items = list((current or self.get)())
            items[index] = new
            self.set(tuple(items))
        return bind(widget_key(name), write, shown=shown)


LAB: SessionValue[LabState] = SessionValue("lab", factory=lambda: LabState.for_source(DEFAULT_SOURCE))
"""The shareable :class:`LabState`: example, settings, step, naming (the link is made from it)."""


def lab() -> LabState:
    return LAB.get()


def update_lab(**changes: Any) -> None:
    LAB.set(lab().replace(**changes))


PLAYING = SessionValue("playing", False)
"""Whether the run is playing, one step per tick (a new link or another example stops it)."""
