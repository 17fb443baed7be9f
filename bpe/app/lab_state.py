"""The app's small, shareable state (example, settings, step) and its URL form.

Everything a link must reproduce lives in :class:`LabState`; the corpus text never does (links
stay short and private text stays private). A URL is parsed leniently: each bad value becomes a
warning that teaches, and the example's own default is used instead, so a hand-edited link never
ends in a traceback.

The training settings are typed fields of :class:`LabState` (``state.tie_break`` is a ``str`` to a type
checker), one per knob of :class:`~bpe.training.settings.TrainSettings`, checked against it at import. Which of
them the app offers, and how each travels in a link, is :data:`bpe.app.setting_specs.SETTINGS`: the URL
form loops over that registry. Only the stop rule (a number of merges *or* a vocabulary size, two
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

from ..errors import BpeError, SettingsError
from ..limits import MAX_MERGES
from ..training.presets import PRESETS
from ..training.settings import TrainSettings
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


KNOBS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(TrainSettings) if field.name not in STOP_BY)
"""The :class:`TrainSettings` fields a :class:`LabState` holds as they are (the stop rule is
``stop_by`` and ``amount``)."""


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
    """One of :data:`SOURCES`."""
    # The knobs of TrainSettings, as the learner chose them: possibly invalid (to_settings says why),
    # so they are plain values here, never a TrainSettings. check_knobs keeps this list whole.
    unit: str
    pretokenizer: str
    end_of_word: str | None
    end_of_word_mode: str
    tie_break: str
    min_frequency: int
    special_tokens: tuple[str, ...]
    specials_as_text: bool
    top_k: int
    max_ties: int
    transition: int | None
    objective: str
    stop_by: str = "merges"
    """One of :data:`STOP_BY`."""
    amount: int = 10
    """The number of merges, or the vocabulary size, depending on ``stop_by``."""
    step: int = 0
    names: bool = False
    """Name merged tokens Z, Y, X, ... (tiny examples only)."""

    @classmethod
    def for_source(cls, source: str, *, step: int = 0) -> "LabState":
        """The state an example opens with: its own settings, step ``step``."""
        settings = source_settings(source)
        by_vocab = settings.vocab_size is not None
        return cls(
            source=source,
            **{name: getattr(settings, name) for name in KNOBS},
            stop_by="vocab_size" if by_vocab else "merges",
            amount=settings.vocab_size if by_vocab else settings.target_merges(0),
            step=step,
            names=source == "wikipedia",  # Wikipedia's own example reads best as ZabdZabac
        )

    def replace(self, **changes: Any) -> "LabState":
        """A copy with fields changed: ``state.replace(step=3, tie_break="hf")``."""
        return dataclasses.replace(self, **changes)

    @property
    def is_word_table(self) -> bool:
        return self.source == OWN_TABLE_SOURCE or (self.source in PRESETS and PRESETS[self.source].word_counts is not None)

    def to_settings(self) -> TrainSettings:
        """The engine's settings; raises a :class:`~bpe.errors.BpeError` that teaches if invalid."""
        values = {name: getattr(self, name) for name in KNOBS}
        if not values.get("end_of_word"):
            # subtle: the placement stays chosen while the marker is cleared (it comes back with it);
            # without a marker it means nothing
            values.update(end_of_word=None, end_of_word_mode="separate")
        return TrainSettings(**values, **{stop: self.amount if stop == self.stop_by else None for stop in STOP_BY})

    def settings_key(self) -> "LabState":
        """Everything but the step and the naming: what training depends on (with the corpus)."""
        return self.replace(step=0, names=False)

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


def check_knobs(state: type, settings: type) -> None:
    """Every knob of ``settings`` is a field of ``state`` of the same type: an engine setting the
    state cannot hold is an error here, at import, never a value silently dropped."""
    held = {field.name: field.type for field in dataclasses.fields(state)}
    for field in dataclasses.fields(settings):
        if field.name not in STOP_BY and held.get(field.name) != field.type:
            raise SettingsError(
                f"{state.__name__} has no field {field.name}: {field.type} ({settings.__name__} has it): "
                f"add it to {state.__name__}"
            )


check_knobs(LabState, TrainSettings)
