"""The app's small, shareable state (example, settings, step) and its URL form.

Everything a link must reproduce lives in :class:`LabState`; the corpus text never does (links
stay short and private text stays private). A URL is parsed leniently: each bad value becomes a
warning that teaches, and the example's own default is used instead, so a hand-edited link never
ends in a traceback.

The training settings are not listed here: :class:`LabState` holds one value per entry of
:data:`bpe.app.setting_specs.SETTINGS` (read as attributes, ``state.tie_break``), and the URL form
loops over that registry. Only the stop rule (a number of merges *or* a vocabulary size, two
exclusive engine fields behind one control), the step and the naming are written out.

    >>> state, warnings = LabState.from_query({"preset": "sennrich", "step": "3"})
    >>> state.source, state.step, state.tie_break, warnings
    ('sennrich', 3, 'lexicographic-max', [])
    >>> state.to_query()                       # only what differs from the example's defaults
    {'preset': 'sennrich', 'step': '3'}
    >>> state.replace(tie_break="hf").to_query()
    {'preset': 'sennrich', 'tie': 'hf', 'step': '3'}
    >>> LabState.from_query({"preset": "sennrich", "step": "three"})[1]
    ["step must be a whole number at least 0, got 'three': showing step 0"]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import BpeError
from ..limits import MAX_MERGES
from ..presets import PRESETS
from ..settings import TrainSettings
from . import setting_specs  # SETTINGS is read when used, so a test may register one more
from .setting_specs import flag, show_flag, whole

OWN_TEXT_SOURCE = "own-text"
OWN_TABLE_SOURCE = "own-table"
SOURCES: Mapping[str, str] = MappingProxyType({
    **{name: preset.title for name, preset in PRESETS.items()},
    OWN_TEXT_SOURCE: "Your own text",
    OWN_TABLE_SOURCE: "Your own word table",
})
DEFAULT_SOURCE = "sennrich"
STOP_BY: Mapping[str, str] = MappingProxyType({"merges": "a number of merges", "vocab_size": "a vocabulary size"})
"""How a run is told when to stop: the :class:`TrainSettings` field that gets :attr:`LabState.amount`."""
STOP_PARAMS: Mapping[str, str] = MappingProxyType({"merges": "merges", "vocab_size": "vocab"})
"""The query parameter of each way to stop."""
APP_PARAMS = ("preset", *STOP_PARAMS.values(), "step", "names")
"""The query parameters a :class:`LabState` writes besides its settings' (see :func:`lab_params`)."""

_UNSET = object()
"""A link parameter that is absent or bad (``None`` is a value: ``eow=`` means no marker)."""

# What "your own" sources start from: a byte-level GPT-2-style run, or Sennrich's word setting.
_OWN_DEFAULTS: Mapping[str, TrainSettings] = MappingProxyType({
    OWN_TEXT_SOURCE: TrainSettings(unit="byte", pretokenizer="gpt2", tie_break="first-seen", merges=30),
    OWN_TABLE_SOURCE: TrainSettings(unit="char", pretokenizer="whitespace", end_of_word="</w>", tie_break="first-seen", merges=15),
})


def source_settings(source: str) -> TrainSettings:
    """The settings an example (or an own source) starts with."""
    return PRESETS[source].settings if source in PRESETS else _OWN_DEFAULTS[source]


def lab_params() -> frozenset[str]:
    """Every query parameter a :class:`LabState` may write (the settings' read from the registry)."""
    return frozenset((*APP_PARAMS, *(spec.param for spec in setting_specs.SETTINGS)))


def repeated_params() -> frozenset[str]:
    """The parameters that repeat in a link, one value each (``special=<a>&special=<b>``)."""
    return frozenset(spec.param for spec in setting_specs.SETTINGS if spec.repeated)


@dataclass(frozen=True)
class LabState:
    source: str
    chosen: tuple[tuple[str, Any], ...]
    """``(name, value)`` of each training setting in :data:`~bpe.app.setting_specs.SETTINGS`, as the
    learner chose it (possibly invalid: :meth:`to_settings` says why); read as ``state.<name>``."""
    stop_by: str = "merges"
    """One of :data:`STOP_BY`."""
    amount: int = 10
    """The number of merges, or the vocabulary size, depending on ``stop_by``."""
    step: int = 0
    names: bool = False
    """Name merged tokens Z, Y, X, ... (tiny examples only)."""

    def __getattr__(self, name: str) -> Any:
        # subtle: Python calls this only when ordinary lookup fails, so the fields above never come
        # here; reading __dict__ (not self.chosen) keeps a half-built copy from recursing
        for key, value in self.__dict__.get("chosen", ()):
            if key == name:
                return value
        raise AttributeError(f"LabState has no field or setting {name!r}")

    @classmethod
    def for_source(cls, source: str, *, step: int = 0) -> "LabState":
        """The state an example opens with: its own settings, step ``step``."""
        settings = source_settings(source)
        by_vocab = settings.vocab_size is not None
        return cls(
            source=source,
            chosen=tuple((spec.name, getattr(settings, spec.name)) for spec in setting_specs.SETTINGS),
            stop_by="vocab_size" if by_vocab else "merges",
            amount=settings.vocab_size if by_vocab else settings.target_merges(0),
            step=step,
            names=source == "wikipedia",  # Wikipedia's own example reads best as ZabdZabac
        )

    def replace(self, **changes: Any) -> "LabState":
        """A copy with fields or settings changed: ``state.replace(step=3, tie_break="hf")``."""
        own = {field.name for field in dataclasses.fields(self)}
        settings = {name: value for name, value in changes.items() if name not in own}
        unknown = settings.keys() - dict(self.chosen).keys()
        if unknown:
            raise TypeError(f"LabState has no setting {', '.join(sorted(unknown))}")
        chosen = tuple((name, settings.get(name, value)) for name, value in self.chosen)
        return dataclasses.replace(self, **{name: value for name, value in changes.items() if name in own}, chosen=chosen)

    @property
    def is_word_table(self) -> bool:
        return self.source == OWN_TABLE_SOURCE or (self.source in PRESETS and PRESETS[self.source].word_counts is not None)

    def to_settings(self) -> TrainSettings:
        """The engine's settings; raises a :class:`~bpe.errors.BpeError` that teaches if invalid."""
        values = dict(self.chosen)
        if not values.get("end_of_word"):
            # subtle: the placement stays chosen while the marker is cleared (it comes back with it);
            # without a marker it means nothing
            values.update(end_of_word=None, end_of_word_mode="separate")
        return TrainSettings(**values, **{stop: self.amount if stop == self.stop_by else None for stop in STOP_BY})

    def settings_key(self) -> tuple:
        """Everything but the step and the naming: what training depends on (with the corpus)."""
        return (self.source, self.chosen, self.stop_by, self.amount)

    # -- the URL ------------------------------------------------------------------------------
    def to_query(self) -> dict[str, str | list[str]]:
        """Query parameters: the example, then only what differs from its defaults."""
        default = LabState.for_source(self.source)
        query: dict[str, str | list[str]] = {"preset": self.source}
        for spec in setting_specs.SETTINGS:
            if getattr(self, spec.name) != getattr(default, spec.name):
                query[spec.param] = spec.show(getattr(self, spec.name))
        if (self.stop_by, self.amount) != (default.stop_by, default.amount):
            query[STOP_PARAMS[self.stop_by]] = str(self.amount)
        if self.step:
            query["step"] = str(self.step)
        if self.names != default.names:
            query["names"] = show_flag(self.names)
        return query

    @classmethod
    def from_query(cls, params: Mapping[str, str | list[str]]) -> tuple["LabState", list[str]]:
        """Parse query parameters; each bad value -> a warning and the example's default."""
        warnings: list[str] = []

        def last(key: str) -> str | None:
            value = params.get(key)
            if isinstance(value, list):
                return value[-1] if value else None
            return value

        def read(key: str, parse, fallback: str, *, repeated: bool = False) -> Any:
            """The parsed parameter, or ``_UNSET`` (absent, or bad: a warning says what is used instead)."""
            raw = params.get(key) if repeated else last(key)
            if raw is None:
                return _UNSET
            try:
                return parse(list(raw) if isinstance(raw, list) else [raw]) if repeated else parse(raw)
            except BpeError as error:
                warnings.append(f"{error}: {fallback}")
                return _UNSET

        source = last("preset")
        if source is None:
            source = DEFAULT_SOURCE
        elif source not in SOURCES:
            warnings.append(
                f"unknown example {source!r} in the link: showing {SOURCES[DEFAULT_SOURCE]!r} instead "
                f"(examples: {', '.join(SOURCES)})"
            )
            source = DEFAULT_SOURCE
        state = cls.for_source(source)
        changes: dict[str, object] = {}
        for spec in setting_specs.SETTINGS:
            default = getattr(state, spec.name)
            if (value := read(spec.param, spec.parse, spec.fallback(default), repeated=spec.repeated)) is not _UNSET:
                changes[spec.name] = value
        merges = read("merges", whole("merges", 0, MAX_MERGES), f"using {state.amount}")
        vocab = read("vocab", whole("vocab", 1), "ignored")
        if merges is not _UNSET and vocab is not _UNSET:
            warnings.append("the link gives both merges and vocab: using merges")
        if merges is not _UNSET:
            changes.update(stop_by="merges", amount=merges)
        elif vocab is not _UNSET:
            changes.update(stop_by="vocab_size", amount=vocab)
        if (step := read("step", whole("step", 0), "showing step 0")) is not _UNSET:
            changes["step"] = step
        if (names := read("names", flag("names"), "ignored")) is not _UNSET:
            changes["names"] = names
        return state.replace(**changes), warnings
