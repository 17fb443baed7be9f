"""The app's small, shareable state (example, settings, step) and its URL form.

Everything a link must reproduce lives in :class:`LabState`; the corpus text never does (links
stay short and private text stays private). A URL is parsed leniently: each bad value becomes a
warning that teaches, and the example's own default is used instead, so a hand-edited link never
ends in a traceback.

    >>> state, warnings = LabState.from_query({"preset": "sennrich", "step": "3"})
    >>> state.source, state.step, state.tie_break, warnings
    ('sennrich', 3, 'lexicographic-max', [])
    >>> state.to_query()                       # only what differs from the example's defaults
    {'preset': 'sennrich', 'step': '3'}
    >>> LabState.from_query({"preset": "sennrich", "step": "three"})[1]
    ["step must be a whole number at least 0, got 'three': showing step 0"]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType

from ..end_of_word import END_OF_WORD_MODES
from ..errors import BpeError
from ..limits import MAX_MERGES
from ..presets import PRESETS
from ..pretokenize import Pretokenizer
from ..settings import TrainSettings
from ..tiebreak import TIE_BREAK_RULES
from ..vocab import UNITS

OWN_TEXT = "own-text"
OWN_TABLE = "own-table"
SOURCES: Mapping[str, str] = MappingProxyType({
    **{name: preset.title for name, preset in PRESETS.items()},
    OWN_TEXT: "Your own text",
    OWN_TABLE: "Your own word table",
})
DEFAULT_SOURCE = "sennrich"
STOP_BY = ("merges", "vocab_size")

# What "your own" sources start from: a byte-level GPT-2-style run, or Sennrich's word setting.
_OWN_DEFAULTS: Mapping[str, TrainSettings] = MappingProxyType({
    OWN_TEXT: TrainSettings(unit="byte", pretokenizer="gpt2", tie_break="first-seen", merges=30),
    OWN_TABLE: TrainSettings(unit="char", pretokenizer="whitespace", end_of_word="</w>", tie_break="first-seen", merges=15),
})


def source_settings(source: str) -> TrainSettings:
    """The settings an example (or an own source) starts with."""
    return PRESETS[source].settings if source in PRESETS else _OWN_DEFAULTS[source]


@dataclass(frozen=True)
class LabState:
    source: str = DEFAULT_SOURCE
    unit: str = "byte"
    pretokenizer: str = "gpt2"
    end_of_word: str | None = None
    eow_mode: str = "separate"
    """Where the marker goes (``separate`` or ``attached``); read only when there is a marker."""
    tie_break: str = "first-seen"
    stop_by: str = "merges"
    amount: int = 10
    """The number of merges, or the vocabulary size, depending on ``stop_by``."""
    min_frequency: int = 2
    special_tokens: tuple[str, ...] = ()
    specials_as_text: bool = False
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
            unit=settings.unit,
            pretokenizer=settings.pretokenizer,
            end_of_word=settings.end_of_word,
            eow_mode=settings.end_of_word_mode,
            tie_break=settings.tie_break,
            stop_by="vocab_size" if by_vocab else "merges",
            amount=settings.vocab_size if by_vocab else settings.target_merges(0),
            min_frequency=settings.min_frequency,
            special_tokens=settings.special_tokens,
            specials_as_text=settings.specials_as_text,
            step=step,
            names=source == "wikipedia",  # Wikipedia's own example reads best as ZabdZabac
        )

    @property
    def is_word_table(self) -> bool:
        return self.source == OWN_TABLE or (self.source in PRESETS and PRESETS[self.source].word_counts is not None)

    def to_settings(self) -> TrainSettings:
        """The engine's settings; raises a :class:`~bpe.errors.BpeError` that teaches if invalid."""
        return TrainSettings(
            unit=self.unit,
            pretokenizer=self.pretokenizer,
            end_of_word=self.end_of_word or None,
            end_of_word_mode=self.eow_mode if self.end_of_word else "separate",
            tie_break=self.tie_break,
            merges=self.amount if self.stop_by == "merges" else None,
            vocab_size=self.amount if self.stop_by == "vocab_size" else None,
            min_frequency=self.min_frequency,
            special_tokens=self.special_tokens,
            specials_as_text=self.specials_as_text,
        )

    def settings_key(self) -> tuple:
        """Everything but the step and the naming: what training depends on (with the corpus)."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name not in ("step", "names"))

    # -- the URL ------------------------------------------------------------------------------
    def to_query(self) -> dict[str, str | list[str]]:
        """Query parameters: the example, then only what differs from its defaults."""
        default = LabState.for_source(self.source)
        query: dict[str, str | list[str]] = {"preset": self.source}
        if self.unit != default.unit:
            query["unit"] = self.unit
        if self.pretokenizer != default.pretokenizer:
            query["pretok"] = self.pretokenizer
        if (self.end_of_word or None) != default.end_of_word:
            query["eow"] = self.end_of_word or ""
        if self.eow_mode != default.eow_mode:
            query["eowmode"] = self.eow_mode
        if self.tie_break != default.tie_break:
            query["tie"] = self.tie_break
        if (self.stop_by, self.amount) != (default.stop_by, default.amount):
            query["vocab" if self.stop_by == "vocab_size" else "merges"] = str(self.amount)
        if self.min_frequency != default.min_frequency:
            query["minfreq"] = str(self.min_frequency)
        if self.special_tokens != default.special_tokens:
            query["special"] = list(self.special_tokens)
        if self.specials_as_text != default.specials_as_text:
            query["specialtext"] = "1" if self.specials_as_text else "0"
        if self.step:
            query["step"] = str(self.step)
        if self.names != default.names:
            query["names"] = "1" if self.names else "0"
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

        def whole(key: str, low: int, high: int | None, what: str) -> int | None:
            raw = last(key)
            if raw is None:
                return None
            text = raw.strip()
            # subtle: ASCII digits only ('²'.isdigit() is true, but int() refuses it), and few enough
            # for int(): a step of 10**5000 is out of range anyway
            if not (text.isascii() and text.isdigit() and len(text) <= 18) or int(text) < low or (
                high is not None and int(text) > high
            ):
                bound = f"from {low} to {high:,}" if high is not None else f"at least {low}"
                warnings.append(f"{key} must be a whole number {bound}, got {raw!r}: {what}")
                return None
            return int(text)

        if (unit := last("unit")) is not None:
            if unit in UNITS:
                changes["unit"] = unit
            else:
                warnings.append(f"unit must be byte or char, got {unit!r}: using {state.unit}")
        if (pretok := last("pretok")) is not None:
            try:
                changes["pretokenizer"] = Pretokenizer.parse(pretok).name
            except BpeError as error:
                warnings.append(f"{error}: using {state.pretokenizer}")
        if (eow := last("eow")) is not None:
            changes["end_of_word"] = eow or None
        if (eow_mode := last("eowmode")) is not None:
            if eow_mode in END_OF_WORD_MODES:
                changes["eow_mode"] = eow_mode
            else:
                warnings.append(f"unknown end-of-word mode {eow_mode!r} (use {', '.join(END_OF_WORD_MODES)}): using {state.eow_mode}")
        if (tie := last("tie")) is not None:
            if tie in TIE_BREAK_RULES:
                changes["tie_break"] = tie
            else:
                warnings.append(f"unknown tie-break rule {tie!r} (use {', '.join(TIE_BREAK_RULES)}): using {state.tie_break}")
        merges = whole("merges", 0, MAX_MERGES, f"using {state.amount}")
        vocab = whole("vocab", 1, None, "ignored")
        if merges is not None and vocab is not None:
            warnings.append("the link gives both merges and vocab: using merges")
        if merges is not None:
            changes.update(stop_by="merges", amount=merges)
        elif vocab is not None:
            changes.update(stop_by="vocab_size", amount=vocab)
        if (minfreq := whole("minfreq", 1, None, f"using {state.min_frequency}")) is not None:
            changes["min_frequency"] = minfreq
        if "special" in params:
            raw = params["special"]
            specials = tuple(raw if isinstance(raw, list) else [raw])
            if any(not token for token in specials) or len(set(specials)) != len(specials):
                warnings.append("special tokens in the link must be non-empty and distinct: using none")
                changes["special_tokens"] = ()
            else:
                changes["special_tokens"] = specials
        if (as_text := last("specialtext")) is not None:
            if as_text in ("0", "1"):
                changes["specials_as_text"] = as_text == "1"
            else:
                warnings.append(f"specialtext must be 0 or 1, got {as_text!r}: ignored")
        if (step := whole("step", 0, None, "showing step 0")) is not None:
            changes["step"] = step
        if (names := last("names")) is not None:
            if names in ("0", "1"):
                changes["names"] = names == "1"
            else:
                warnings.append(f"names must be 0 or 1, got {names!r}: ignored")
        return replace(state, **changes), warnings
