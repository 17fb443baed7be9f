"""Training settings: one frozen record, validated once, serialisable to JSON.

Scope: the knobs of a training run and their checks. Out of scope: running it (``trainer``).

The default ``min_frequency`` is 2, as in subword-nmt's ``learn_bpe``: a pair seen only once
compresses one token and only memorises the corpus. Set it to 1 to merge until no pair is left, or
to 0 to go on with pairs that no longer occur, as SentencePiece's trainer does when asked for more
pieces than its corpus holds (only a rule that keeps such pairs, ``sentencepiece``, finds any).
``vocab_size`` counts everything the tokenizer ends with: base tokens, the end-of-word marker,
merges and special tokens (as Hugging Face and tiktoken count it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from types import MappingProxyType

from ..errors import SettingsError
from ..limits import MAX_MERGES
from ..text.named_pretokenizers import PRETOKENIZERS, NamedPretokenizer
from ..text.pretokenize import Pretokenizer, validate_special_tokens
from ..tokens.end_of_word import END_OF_WORD_MODES
from ..tokens.vocab import UNITS
from .objectives import objective
from .tiebreak import tie_break_rule

DEFAULT_MERGES = 10
SECOND_STAGE_SPLIT = "superbpe"
"""The pre-tokenizer of SuperBPE's second stage (its entry in :data:`PRETOKENIZERS`)."""


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides what a training run learns (the corpus aside)."""

    unit: str = "byte"
    pretokenizer: str = "gpt2"
    end_of_word: str | None = None
    end_of_word_mode: str = "separate"
    """``separate`` or ``attached``: where the marker goes (see ``end_of_word``)."""
    tie_break: str = "first-seen"
    merges: int | None = None
    vocab_size: int | None = None
    min_frequency: int = 2
    special_tokens: tuple[str, ...] = field(default=())
    specials_as_text: bool = False
    """Count special-token text in the corpus as ordinary text, as Hugging Face's trainer, rustbpe,
    minbpe and tiktoken's trainer do; by default it is cut out first, as Stanford CS336 does."""
    top_k: int = 10
    """How many of the best pairs each step records (for the pair-count chart)."""
    max_ties: int = 20
    """How many tied pairs each step lists (the number of ties is always recorded in full)."""
    transition: int | None = None
    """SuperBPE (Liu et al., 2025): after this many merges, training goes on over the same text split
    by :data:`SECOND_STAGE_SPLIT`, which keeps phrases whole, so merges cross the spaces between words
    (``None``: one stage). The corpus needs running text (``Corpus.from_text(..., second_split=...)``)."""
    objective: str = "classic"
    """What chooses each merge (:data:`bpe.training.objectives.OBJECTIVES`): ``parity-aware`` lets the language
    that is the most tokens now choose, on a corpus of several languages; ``wordpiece`` merges the pair with
    the best score, its count over the product of its tokens' counts."""

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise SettingsError(f"unknown unit {self.unit!r}: use 'byte' or 'char'")
        tie_break_rule(self.tie_break)  # an unknown rule is a SettingsError here, not a default later
        entry = Pretokenizer.parse(self.pretokenizer).entry
        if entry is not None and entry.char_unit_only and self.unit != "char":
            raise SettingsError(
                f"the pre-tokenizer {self.pretokenizer!r} learns on characters, as {entry.title} does: use the unit 'char'"
            )
        object.__setattr__(self, "special_tokens", validate_special_tokens(tuple(self.special_tokens)))
        if self.end_of_word is not None and not isinstance(self.end_of_word, str):
            raise SettingsError(f"the end-of-word marker must be text such as </w>, got {self.end_of_word!r}")
        if self.end_of_word is not None and not self.end_of_word:
            raise SettingsError("the end-of-word marker is empty: use e.g. </w>, or leave it out")
        END_OF_WORD_MODES.lookup(self.end_of_word_mode)  # an unknown mode is a SettingsError here
        if self.end_of_word_mode != "separate" and self.end_of_word is None:
            raise SettingsError(
                f"the end-of-word mode {self.end_of_word_mode!r} places a marker, but there is none: "
                "set one such as </w>, or use the mode 'separate'"
            )
        if not isinstance(self.specials_as_text, bool):
            raise SettingsError(f"specials_as_text must be true or false, got {self.specials_as_text!r}")
        if self.merges is not None and self.vocab_size is not None:
            raise SettingsError("give either a number of merges or a vocabulary size, not both")
        if self.merges is not None:
            _check_int("merges", self.merges, 0, MAX_MERGES)
        if self.vocab_size is not None:
            _check_int("vocab_size", self.vocab_size, 1, None)
        _check_int("min_frequency", self.min_frequency, 0, None)
        _check_int("top_k", self.top_k, 0, 1000)
        _check_int("max_ties", self.max_ties, 1, 1000)
        self._check_variants()

    def _check_variants(self) -> None:
        """The two-stage run and the objective: each combination that is not defined is refused, saying why."""
        chosen = objective(self.objective)  # an unknown objective is a SettingsError here
        rule = tie_break_rule(self.tie_break)
        if rule.candidates is not None and chosen.chooser is not None:
            raise SettingsError(
                f"the {self.tie_break} rule chooses among SentencePiece's own candidates, and the {chosen.name} objective "
                "by a score of its own: one chooser per run, so use another tie-break rule or the classic objective"
            )
        if rule.candidates is not None and (self.transition is not None or chosen.by_language):
            raise SettingsError(
                f"the {self.tie_break} rule chooses among SentencePiece's own candidates (a respelled piece dropped, "
                "pairs that no longer occur kept), which SuperBPE and parity-aware training do not define: "
                "use another tie-break rule"
            )
        if self.transition is None:
            return
        _check_int("transition", self.transition, 0, MAX_MERGES)
        if chosen.by_language or chosen.chooser is not None:
            raise SettingsError(f"SuperBPE's second stage and {chosen.name} training are not combined: use one of them")
        if self.end_of_word is not None:
            raise SettingsError(
                "SuperBPE's second stage merges across word ends, so there is no word end to mark: "
                "leave the end-of-word marker out"
            )
        entry = self.pretokenizer_entry
        if entry is None or not entry.gapless or entry.normalization is not None:
            # subtle: then both stages train on every character, so the corpus has the same bytes in each
            raise SettingsError(
                "SuperBPE's first stage needs a split into words that keeps every character of the text as written, "
                f"as GPT-2's does ({self.pretokenizer!r} does not): use gpt2, gpt4, gpt4o or deepseek"
            )

    def check_stages(self, *, later: object, continuing: bool) -> None:
        """A second stage needs the text split again (``later``, a corpus's, ``None`` for a word table)
        and a run of its own merges (not ``continuing`` another tokenizer's vocabulary)."""
        if self.transition is None:
            return
        if continuing:
            raise SettingsError(
                "SuperBPE's second stage re-splits the text and replays this run's own merges; a run that continues "
                "another tokenizer's vocabulary cannot: leave the transition out, or start from scratch"
            )
        if later is None:
            raise SettingsError(
                "SuperBPE's second stage trains on the text split again without cutting between words, and this corpus "
                "holds no running text (a word table, or a corpus built without second_split): train on a text"
            )

    @property
    def second_split(self) -> str | None:
        """The split of a second stage (``None`` for a run of one stage)."""
        return None if self.transition is None else SECOND_STAGE_SPLIT

    def split_after(self, merges: int) -> str:
        """The split that a tokenizer of the first ``merges`` merges encodes with: the second
        stage's once a merge of the second stage is in (SuperBPE encodes with its stage-2 split)."""
        if self.transition is not None and merges > self.transition:
            return SECOND_STAGE_SPLIT
        return self.pretokenizer

    @property
    def pretokenizer_entry(self) -> NamedPretokenizer | None:
        """The named pre-tokenizer's registry entry (``None`` for ``regex:PATTERN``); the spec was
        checked when the settings were made, so no pattern is compiled again here."""
        return PRETOKENIZERS.get(self.pretokenizer)

    @property
    def reserved_tokens(self) -> tuple[str, ...]:
        """Special tokens the pre-tokenizer always adds (SentencePiece's <unk>, <s>, </s>), first."""
        entry = self.pretokenizer_entry
        reserved = () if entry is None else entry.reserved_tokens
        return tuple(token for token in reserved if token not in self.special_tokens)

    @property
    def all_special_tokens(self) -> tuple[str, ...]:
        """The run's special tokens: the reserved ones, then those asked for (ids in this order)."""
        return (*self.reserved_tokens, *self.special_tokens)

    @property
    def cut_from_corpus(self) -> tuple[str, ...]:
        """The special tokens a text corpus is cut around before training (none if counted as text)."""
        return () if self.specials_as_text else self.special_tokens

    def target_merges(self, base_size: int) -> int:
        """How many merges to attempt, given the size of the base vocabulary."""
        if self.vocab_size is None:
            return DEFAULT_MERGES if self.merges is None else self.merges
        floor = base_size + len(self.all_special_tokens)
        if self.vocab_size < floor:
            raise SettingsError(
                f"vocabulary size {self.vocab_size} is below the base vocabulary "
                f"({floor} = {base_size} base tokens + {len(self.all_special_tokens)} special tokens); "
                f"choose at least {floor}"
            )
        wanted = self.vocab_size - floor
        if wanted > MAX_MERGES:
            raise SettingsError(
                f"vocabulary size {self.vocab_size} needs {wanted} merges, over the limit of {MAX_MERGES}; "
                f"choose at most {floor + MAX_MERGES}"
            )
        return wanted

    def to_dict(self) -> dict:
        data = asdict(self)
        data["special_tokens"] = list(self.special_tokens)
        for name, default in _VARIANT_DEFAULTS.items():  # a classic run's file stays as it always was
            if data[name] == default:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "TrainSettings":
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        known["special_tokens"] = tuple(known.get("special_tokens", ()))
        return cls(**known)


_VARIANT_DEFAULTS = MappingProxyType({"transition": None, "objective": "classic"})
"""The variants' settings at their defaults, left out of :meth:`TrainSettings.to_dict`."""


def _check_int(name: str, value: object, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"{name} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SettingsError(f"{name} must be {bound}, got {value}")
