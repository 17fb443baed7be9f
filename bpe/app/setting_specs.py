"""The training settings the app offers, each declared once, as one :class:`SettingSpec`.

A spec names a :class:`~bpe.training.settings.TrainSettings` field (which holds its type, default and the
engine's check) and says how the app carries it: its query parameter in a link, how the link's text
becomes a value, and the sidebar widget that edits it. The value itself lives in the typed field of
the same name on :class:`~bpe.app.lab_state.LabState` (which holds every ``TrainSettings`` knob); its
URL form and the sidebar (``ui/settings_sidebar.py``) are loops over :data:`SETTINGS`, and neither
lists the settings again.

Offering a setting in the app is one entry in :data:`SETTINGS` (``tests/test_setting_specs.py`` adds
one and follows it through the URL and the sidebar); a new engine setting is also one typed line on
``LabState``, which an import-time check asks for.

    >>> minfreq = SETTING_BY_NAME["min_frequency"]
    >>> minfreq.param, minfreq.parse("3"), minfreq.show(3)
    ('minfreq', 3, '3')
    >>> minfreq.parse("0")
    Traceback (most recent call last):
    ...
    bpe.errors.SettingsError: minfreq must be a whole number at least 1, got '0'
    >>> SETTING_BY_NAME["tie_break"].parse("coin-flip")   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe.errors.SettingsError: unknown tie-break rule 'coin-flip' (use first-seen, ...)

Scope: declarations and the text <-> value codecs of links. Out of scope: drawing (``ui``), the
number of merges or vocabulary size (one setting of two exclusive fields, kept by ``LabState``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, fields
from typing import Any

from ..errors import SettingsError
from ..limits import MAX_MERGES
from ..notation.markdown import escape_markdown
from ..registry import Registry
from ..text.pretokenize import Pretokenizer
from ..tokens.end_of_word import END_OF_WORD_MODES
from ..tokens.ids import is_digits
from ..tokens.vocab import UNITS
from ..training.objectives import OBJECTIVES
from ..training.settings import TrainSettings
from ..training.tiebreak import TIE_BREAK_RULES

WIDGETS = ("radio", "select", "number", "optional_number", "text", "lines", "toggle", "pretokenizer")
"""The widget kinds ``ui/settings_sidebar.py`` knows how to draw (a test checks it draws each)."""


@dataclass(frozen=True)
class SettingSpec:
    name: str
    """The :class:`~bpe.training.settings.TrainSettings` field (and :class:`~bpe.app.lab_state.LabState` attribute)."""
    param: str
    """Its query parameter in a link."""
    parse: Callable[[Any], Any]
    """A link's text (a list of texts if :attr:`repeated`) -> the value; bad text raises a
    :class:`~bpe.errors.SettingsError` that teaches (the link then falls back to the example's value)."""
    show: Callable[[Any], Any]
    """The value -> its text in a link (a list if :attr:`repeated`); ``parse(show(v)) == v``."""
    label: str
    help: str
    widget: str
    """One of :data:`WIDGETS`."""
    choices: Collection[str] = ()
    """What a ``radio`` or ``select`` offers."""
    low: int = 0
    """The smallest value a ``number`` takes."""
    repeated: bool = False
    """The parameter repeats in a link, once per value (``special=<a>&special=<b>``)."""
    placeholder: str = ""
    caption: Callable[[Any], str] | None = None
    """Markdown under the widget, given the value (escaped: it may name user text)."""
    details: tuple[str, Callable[[], str]] | None = None
    """``(title, Markdown)`` of a folded section under the widget."""
    shown: Callable[[Any], bool] = lambda state: True
    """Whether the sidebar shows the widget, given the :class:`~bpe.app.lab_state.LabState`."""

    def fallback(self, value: Any) -> str:
        """How a link's warning names the value used instead of a bad one: ``using 2``."""
        shown = self.show(value)
        shown = ", ".join(shown) if isinstance(shown, list) else shown
        return f"using {shown or 'none'}"


# -- codecs: a link's text <-> a value --------------------------------------------------------------
def whole(param: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (ASCII digits only)."""
    def parse(raw: str) -> int:
        text = raw.strip()
        if not is_digits(text) or int(text) < low or (high is not None and int(text) > high):
            bound = f"from {low} to {high:,}" if high is not None else f"at least {low}"
            raise SettingsError(f"{param} must be a whole number {bound}, got {raw!r}")
        return int(text)
    return parse


def optional_whole(param: str, low: int, high: int) -> Callable[[str], int | None]:
    """A whole number from ``low`` to ``high``, or nothing (an empty value: the setting is off)."""
    parse = whole(param, low, high)
    return lambda raw: None if not raw.strip() else parse(raw)


def show_optional(value: int | None) -> str:
    return "" if value is None else str(value)


def flag(param: str) -> Callable[[str], bool]:
    """``1`` or ``0``."""
    def parse(raw: str) -> bool:
        if raw not in ("0", "1"):
            raise SettingsError(f"{param} must be 0 or 1, got {raw!r}")
        return raw == "1"
    return parse


def show_flag(value: bool) -> str:
    return "1" if value else "0"


def one_of(what: str, choices: Collection[str]) -> Callable[[str], str]:
    """One of ``choices`` (read when a link is parsed, so a registry's later entries count)."""
    def parse(raw: str) -> str:
        if raw not in choices:
            raise SettingsError(f"unknown {what} {raw!r} (use {', '.join(choices)})")
        return raw
    return parse


def _pretokenizer(raw: str) -> str:
    return Pretokenizer.parse(raw).name


def _special_tokens(raw: list[str]) -> tuple[str, ...]:
    if any(not token for token in raw) or len(set(raw)) != len(raw):
        raise SettingsError("special tokens in the link must be non-empty and distinct")
    return tuple(raw)


def _tie_caption(name: str) -> str:
    rule = TIE_BREAK_RULES[name]
    return f"Prefers {rule.summary}. Used by {rule.used_by}."


def _all_tie_rules() -> str:
    return "\n\n".join(f"**{rule.name}**: {rule.summary}. *Used by {rule.used_by}.*" for rule in TIE_BREAK_RULES.values())


ONE_TEXT_OBJECTIVES = tuple(name for name, entry in OBJECTIVES.items() if not entry.by_language)
"""The objectives a run on one text can choose by (parity-aware BPE needs the same text in several
languages: the Parity-aware lab has it)."""


def _objective_caption(name: str) -> str:
    entry = OBJECTIVES[name]
    return f"Merges {escape_markdown(entry.summary)}. *{escape_markdown(entry.used_by)}.*"


def _mode_caption(_mode: str) -> str:
    return "  \n".join(
        f"**{mode.name}**: {escape_markdown(mode.summary)}. *Used by {escape_markdown(mode.used_by)}.*"
        for mode in END_OF_WORD_MODES.values()
    )


# -- the registry: the sidebar's order ----------------------------------------------------------------
SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "unit", "unit", one_of("unit", UNITS), str, "Unit", widget="radio", choices=UNITS,
        help="byte: start from the 256 byte values (GPT-2, tiktoken). char: start from the characters "
        "that occur (the Sennrich paper, the Hugging Face course).",
    ),
    SettingSpec(
        "pretokenizer", "pretok", _pretokenizer, str, "Pre-tokenizer", widget="pretokenizer",
        help="How text is cut into words before counting pairs; merges never cross a word boundary.",
    ),
    SettingSpec(
        "end_of_word", "eow", lambda raw: raw or None, lambda value: value or "", "End-of-word marker",
        widget="text", placeholder="none (e.g. </w>)",
        help="Appended to every word before training (Sennrich's </w>), so 'est</w>' (a suffix) "
        "differs from 'est' inside a word. Leave empty for none.",
    ),
    SettingSpec(
        "end_of_word_mode", "eowmode", one_of("end-of-word mode", END_OF_WORD_MODES), str, "Marker placement",
        widget="radio", choices=END_OF_WORD_MODES, caption=_mode_caption, shown=lambda state: bool(state.end_of_word),
        help="separate: the marker is a symbol of its own; attached: it is glued to the last symbol.",
    ),
    SettingSpec(
        "tie_break", "tie", one_of("tie-break rule", TIE_BREAK_RULES), str, "Tie-break rule",
        widget="select", choices=TIE_BREAK_RULES, caption=_tie_caption, details=("All tie-break rules", _all_tie_rules),
        help="Which pair wins when several share the top count.",
    ),
    SettingSpec(
        "objective", "objective", one_of("merge rule", ONE_TEXT_OBJECTIVES), str, "Merge rule", widget="radio",
        choices=ONE_TEXT_OBJECTIVES, caption=_objective_caption,
        help="classic: BPE merges the most frequent pair. wordpiece: WordPiece merges the pair with the best score, "
        "count(ab) / (count(a) × count(b)), so a pair of tokens that seldom occur apart wins over a frequent pair "
        "of frequent tokens.",
    ),
    SettingSpec(
        "min_frequency", "minfreq", whole("minfreq", 1), str, "Minimum pair frequency", widget="number", low=1,
        help="Stop when the best pair occurs fewer times than this (2 by default: a pair seen once only "
        "memorises the corpus).",
    ),
    SettingSpec(
        "transition", "transition", optional_whole("transition", 0, MAX_MERGES), show_optional,
        "SuperBPE: lift the split after merge", widget="optional_number", placeholder="off (one stage)",
        shown=lambda state: not state.is_word_table,
        help="SuperBPE (Liu et al., 2025): the first t merges learn subwords under the pre-tokenizer; after merge t "
        "the text is split again without cutting between words, so merges cross the spaces of phrases (' of the'). "
        "Needs GPT-2's, GPT-4's, GPT-4o's or DeepSeek's split. Empty: one stage, classic BPE.",
    ),
    SettingSpec(
        "special_tokens", "special", _special_tokens, list, "Special tokens (one per line)", widget="lines",
        repeated=True, placeholder="<|endoftext|>",
        help="Never split or merged; they get the last ids. In a text corpus they are cut out before training.",
    ),
    SettingSpec(
        "specials_as_text", "specialtext", flag("specialtext"), show_flag, "Train on their text too", widget="toggle",
        shown=lambda state: bool(state.special_tokens) and not state.is_word_table,
        help="Off: special tokens are cut out of the corpus before training (Stanford CS336). On: their text "
        "is counted like any other (Hugging Face's trainer, rustbpe, minbpe, tiktoken's trainer).",
    ),
)
"""Every training setting the app offers, in the sidebar's order (the stop rule comes first, see ``LabState``)."""


def check_specs(specs: tuple[SettingSpec, ...]) -> Registry[SettingSpec]:
    """``{name: spec}``; a spec naming no ``TrainSettings`` field, an unknown widget or a repeated
    name or parameter is an error here, at import time, never a setting silently left out."""
    known = {field.name for field in fields(TrainSettings)}
    for spec in specs:
        if spec.name not in known:
            raise SettingsError(f"setting {spec.name!r} is no TrainSettings field (fields: {', '.join(sorted(known))})")
        if spec.widget not in WIDGETS:
            raise SettingsError(f"setting {spec.name!r} asks for the widget {spec.widget!r}: use one of {', '.join(WIDGETS)}")
    for what in ("name", "param"):
        values = [getattr(spec, what) for spec in specs]
        if len(set(values)) != len(values):
            raise SettingsError(f"two settings share a {what}: {values}")
    return Registry("setting", specs, error=SettingsError)


SETTING_BY_NAME = check_specs(SETTINGS)
