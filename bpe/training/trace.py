"""The record of a training run: one immutable step per merge, and what can be read from them.

Scope: the step and trace records, the questions a view asks of them (the vocabulary after step
k, the compression curve) and their versioned JSON (``to_json``, ``save``; ``from_json``, ``from_file``). Out of scope: producing them (``trainer``)
and encoding text with them (``tokenizer``: ``Tokenizer.from_trace(trace, step=k)``).

Ids are laid out so that a tokenizer cut at any step keeps the same ids: base tokens first, then
one new id per merge (``new_id = base size + step - 1``), then the special tokens after the last
merge of the whole run. A run that continues a tokenizer (``start``, :mod:`~bpe.training.start_state`)
has that tokenizer's whole vocabulary as its base, its special tokens among it with their ids.

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> [(step.step, step.new_id, trace.token_text(step.new_id), step.count) for step in trace.steps]
    [(1, 256, 'aa', 4), (2, 257, 'ab', 2), (3, 258, 'aaab', 2)]
    >>> trace.compression_curve()[-1]
    (3, 5, 2.2)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from ..encoding.versioned_json import read_versioned_json
from ..errors import FormatError
from ..text.local_files import StrPath, read_text, write_text
from ..tokens.ids import is_whole_number
from ..tokens.vocab import Token, token_text
from .choice import STOP_MERGES, STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_TIME_LIMIT, STOP_VOCAB_SIZE  # noqa: F401  (a trace's stop_reason is one of them)
from .choice import PairScore, StepScores
from .settings import TrainSettings
from .start_state import StartState

if TYPE_CHECKING:
    from ..text.corpus import Corpus

TRACE_FORMAT = "bpe-lab/trace"
TRACE_VERSION = 1
STARTED_TRACE_VERSION = 2
"""The version of a trace with a start state, two stages (SuperBPE) or a parallel corpus's languages:
an older BPE Lab refuses it rather than misread it as a classic run; each part is read if present."""


class PairCount(NamedTuple):
    """A pair and how often it occurs, as views read the top pairs of a step."""

    left: int
    right: int
    count: int


class MergeStep(NamedTuple):
    """Merge number ``step`` (1-based): ``left`` + ``right`` became ``new_id``.

    A named tuple, as immutable as a frozen dataclass and built in one call: a frozen dataclass
    sets each of its fields through ``object.__setattr__``, which was 5% of training.
    """

    step: int
    new_id: int
    left: int
    right: int
    count: int
    """Occurrences of the pair before the merge, counted with overlap ("aaa" has (a, a) twice); under an
    objective that lets one language choose, in that language (as ``top_counts`` and ``tie_count``)."""
    replacements: int
    """Replacements actually made, left to right without overlap ("aaa" -> "aa a": one)."""
    tie_count: int
    """How many pairs had ``count``; 1 when there was no tie."""
    tied: tuple[tuple[int, int], ...]
    """The tied pairs in the rule's order, the winner first (capped at ``max_ties``)."""
    top: tuple[tuple[int, int], ...]
    """The best pairs just before this merge, best first (``top_k`` of them); read them with their
    counts as :attr:`top_pairs`."""
    top_counts: tuple[int, ...]
    """The count of each pair in ``top``."""
    tokens_after: int
    """Tokens in the training words after this merge."""
    words_changed: int
    """Distinct words that this merge rewrote."""

    @property
    def top_pairs(self) -> tuple[PairCount, ...]:
        """``top`` with its counts, as named records.

        Made when a view asks rather than stored: a full trace has ``top_k`` of them per step, and
        making them while training was a large share of its time, while
        ``top`` is mostly a slice of the tied pairs the step ranks anyway.
        """
        return tuple(PairCount(a, b, count) for (a, b), count in zip(self.top, self.top_counts))


class StageChange(NamedTuple):
    """A two-stage run's transition (SuperBPE): after merge ``step`` the text is split by ``split``."""

    step: int
    split: str
    words_before: int
    """Distinct chunks the first stage trained on."""
    words_after: int
    tokens_before: int
    """Tokens in the chunks just before the change, and in the new chunks with the same merges applied
    (they differ only where the two splits cut a run of digits or punctuation differently)."""
    tokens_after: int


@dataclass(frozen=True)
class Trace:
    settings: TrainSettings
    base: tuple[Token, ...]
    steps: tuple[MergeStep, ...]
    stop_reason: str
    stop_detail: str
    initial_tokens: int
    """Tokens in the training words before any merge."""
    corpus_bytes: int
    """UTF-8 bytes of the training words (weighted by their counts)."""
    word_count: int
    """Distinct training words."""
    corpus: "Corpus | None" = field(default=None, compare=False, repr=False)
    """The words trained on, for views of the corpus (``None`` for a trace read from JSON, which
    stores the merges, not the corpus)."""
    start: StartState | None = field(default=None, repr=False)
    """The vocabulary this run continues (its base is then every old token, by id); ``None``: bytes
    or characters."""
    languages: tuple[str, ...] = field(default=(), repr=False)
    """A parallel corpus's languages (empty for one text)."""
    language_tokens: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    """Per step from 0 (no merge): each language's tokens, its cost (empty for one text)."""
    chosen_by: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    """Per merge of an objective that lets one language choose (parity-aware): ``(its index, the
    pair's count in it)`` (empty otherwise)."""
    stage_change: StageChange | None = field(default=None, repr=False)
    """Where a two-stage run changed its split (``None``: one stage, or the change not reached)."""
    scores: tuple[StepScores, ...] = field(default=(), repr=False)
    """Per merge of an objective that chooses by score (WordPiece): the scores that chose it (empty otherwise)."""

    # -- vocabulary -----------------------------------------------------------------------------
    @cached_property
    def tokens(self) -> tuple[Token, ...]:
        """Every token by id, special tokens last. Derived from the merges, never stored."""
        tokens = list(self.base)
        for step in self.steps:
            tokens.append(tokens[step.left].merged_with(tokens[step.right]))
        tokens.extend(Token(text.encode("utf-8")) for text in self.settings.all_special_tokens)
        return tuple(tokens)

    @cached_property
    def special_ids(self) -> dict[str, int]:
        if self.start is not None:
            return dict(self.start.special_tokens)
        first = len(self.base) + len(self.steps)
        return {text: first + index for index, text in enumerate(self.settings.all_special_tokens)}

    def token_text(self, token_id: int) -> str:
        """The spelling of ``token_id`` (``est</w>``, ``\\xe2\\x82``, ``<|endoftext|>``)."""
        return token_text(self.tokens[token_id], self.settings.end_of_word)

    def vocab_size(self, step: int | None = None) -> int:
        """Vocabulary size after ``step`` merges (all of them by default), special tokens included."""
        merges = len(self.steps) if step is None else self.check_step(step)
        if self.start is not None:
            return self.start.token_count + merges
        return len(self.base) + merges + len(self.settings.all_special_tokens)

    def vocab_ids(self, step: int | None = None) -> list[int]:
        """The ids present after ``step`` merges: base, merged so far, then special tokens (a
        continued run: the old vocabulary's ids, special tokens among them, then the new merges')."""
        merges = len(self.steps) if step is None else self.check_step(step)
        if self.start is not None:
            return [*self.start.vocab_ids(), *range(len(self.base), len(self.base) + merges)]
        return [*range(len(self.base) + merges), *self.special_ids.values()]

    def merges(self, step: int | None = None) -> list[tuple[int, int, int]]:
        """``(left, right, new id)`` of the first ``step`` merges (all by default), as a tokenizer takes them."""
        return [(s.left, s.right, s.new_id) for s in self.steps[: len(self.steps) if step is None else self.check_step(step)]]

    def tokenizer_fields(self, *, step: int | None = None, pretokenizer: str | None = None, name: str = "") -> dict:
        """Keyword arguments of :class:`~bpe.encoding.tokenizer.Tokenizer` after ``step`` merges (all by default),
        read by :meth:`~bpe.encoding.tokenizer.Tokenizer.from_trace`; ``pretokenizer`` replaces the run's split."""
        merges = self.merges(step)
        if self.start is not None:  # a continued run: the old vocabulary, then the new merges
            return self.start.tokenizer_fields(merges=merges, name=name, pretokenizer=pretokenizer)
        entry = self.settings.pretokenizer_entry
        reserved = entry is not None and bool(entry.reserved_tokens)
        return {
            "unit": self.settings.unit, "end_of_word": self.settings.end_of_word, "base": dict(enumerate(self.base)),
            "pretokenizer": self.settings.split_after(len(merges)) if pretokenizer is None else pretokenizer,
            "merges": merges, "special_tokens": self.special_ids, "name": name,
            # A split with reserved tokens (SentencePiece's <unk>, <s>, </s>) never reads them from text.
            "specials_in_text": "plain" if reserved else "refuse", "unknown_token": entry.unknown_token if reserved else None,
        }

    def created_at(self, token_id: int) -> MergeStep | None:
        """The step that created ``token_id``; ``None`` for base and special tokens."""
        index = token_id - len(self.base)
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def check_step(self, step: int) -> int:
        if not is_whole_number(step) or step > len(self.steps):
            raise ValueError(f"step must be a whole number from 0 to {len(self.steps)}, got {step!r}")
        return step

    # -- compression ----------------------------------------------------------------------------
    def tokens_after(self, step: int) -> int:
        return self.steps[step - 1].tokens_after if self.check_step(step) else self.initial_tokens

    def tokens_before(self, step: int) -> int:
        """Tokens in the training words just before merge ``step`` (1-based): those after merge
        ``step - 1``, or, when a second stage starts with this merge, its re-split words' tokens."""
        change = self.stage_change
        if change is not None and step == change.step + 1:
            return change.tokens_after
        return self.tokens_after(step - 1)

    def language_costs(self, step: int) -> tuple[int, ...]:
        """Each language's tokens after ``step`` merges (empty for a corpus of one text)."""
        return self.language_tokens[self.check_step(step)] if self.language_tokens else ()

    def compression_curve(self) -> list[tuple[int, int, float]]:
        """``(step, tokens, bytes per token)`` from step 0 (no merges) to the last merge."""
        counts = [self.initial_tokens, *(step.tokens_after for step in self.steps)]
        return [(k, n, self.corpus_bytes / n if n else 0.0) for k, n in enumerate(counts)]

    # -- JSON -----------------------------------------------------------------------------------
    def _variant_json(self) -> dict:
        """What a variant run adds to the file (nothing for a classic run)."""
        data: dict = {}
        if self.languages:
            data.update(languages=list(self.languages), language_tokens=[list(costs) for costs in self.language_tokens])
            data["chosen_by"] = [list(pick) for pick in self.chosen_by]
        if self.stage_change is not None:
            data["stage_change"] = list(self.stage_change)
        if self.scores:
            data["scores"] = [
                [[list(score) for score in scored.top], list(scored.chosen), list(scored.by_count), list(scored.by_count_score)]
                for scored in self.scores
            ]
        return data

    def to_json(self) -> str:
        started = {} if self.start is None else {"start": self.start.to_dict()}
        variant = self._variant_json()
        classic = self.start is None and not variant and self.settings.transition is None and self.settings.objective == "classic"
        return json.dumps(
            {
                "format": TRACE_FORMAT,
                "version": TRACE_VERSION if classic else STARTED_TRACE_VERSION,
                "settings": self.settings.to_dict(),
                # a continued run's base is its start's vocabulary: stored once, as the start
                "base": [] if self.start else [[token.data.hex(), token.ends_word] for token in self.base],
                **started,
                "steps": [
                    [
                        s.step, s.new_id, s.left, s.right, s.count, s.replacements, s.tie_count,
                        [list(pair) for pair in s.tied],
                        [[p.left, p.right, p.count] for p in s.top_pairs],
                        s.tokens_after, s.words_changed,
                    ]
                    for s in self.steps
                ],
                "stop_reason": self.stop_reason,
                "stop_detail": self.stop_detail,
                "initial_tokens": self.initial_tokens,
                "corpus_bytes": self.corpus_bytes,
                "word_count": self.word_count,
                **variant,
            },
            separators=(",", ":"),
        )

    def save(self, path: StrPath) -> None:
        """Write every step to ``path`` as BPE Lab JSON (the settings and merges, not the corpus)."""
        write_text(path, self.to_json())

    @classmethod
    def from_file(cls, path: StrPath) -> "Trace":
        """The trace :meth:`save` wrote to ``path``."""
        return cls.from_json(read_text(path))

    @classmethod
    def from_json(cls, text: str) -> "Trace":
        data = read_versioned_json(text, format=TRACE_FORMAT, version=(TRACE_VERSION, STARTED_TRACE_VERSION), what="trace")
        try:
            start = StartState.from_dict(data["start"]) if "start" in data else None
            base = (
                tuple(Token(bytes.fromhex(hex_data), bool(ends)) for hex_data, ends in data["base"])
                if start is None else start.tokens_by_id()
            )
            steps = tuple(
                MergeStep(
                    step, new_id, left, right, count, replacements, tie_count,
                    tuple((a, b) for a, b in tied),
                    tuple((a, b) for a, b, _ in top), tuple(c for _, _, c in top),
                    tokens_after, words_changed,
                )
                for step, new_id, left, right, count, replacements, tie_count, tied, top, tokens_after,
                words_changed in data["steps"]
            )
            change = data.get("stage_change")
            trace = cls(
                TrainSettings.from_dict(data["settings"]), base, steps, data["stop_reason"],
                data["stop_detail"], data["initial_tokens"], data["corpus_bytes"], data["word_count"], start=start,
                languages=tuple(data.get("languages", ())),
                language_tokens=tuple(tuple(costs) for costs in data.get("language_tokens", ())),
                chosen_by=tuple((language, count) for language, count in data.get("chosen_by", ())),
                stage_change=None if change is None else StageChange(*change),
                scores=tuple(
                    StepScores(tuple(PairScore(*score) for score in top), PairScore(*chosen), tuple(by_count), PairScore(*by_count_score))
                    for top, chosen, by_count, by_count_score in data.get("scores", ())
                ),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(f"the trace file is malformed: {error!r}") from error
        _check_variant(trace)
        if not all(_is_whole(n) for n in (trace.initial_tokens, trace.corpus_bytes, trace.word_count)) or not (
            isinstance(trace.stop_reason, str) and isinstance(trace.stop_detail, str)
        ):
            raise FormatError("the trace file is malformed: its totals or stop reason have the wrong type")
        for index, step in enumerate(steps):
            ids = [step.left, step.right, *(i for pair in step.tied for i in pair)]
            ids += [i for pair in step.top_pairs for i in (pair.left, pair.right)]
            counts = [step.step, step.new_id, step.count, step.replacements, step.tie_count, step.tokens_after]
            counts += [step.words_changed]
            counts += [pair.count for pair in step.top_pairs]
            # subtle: a file may hold any JSON value here (null, 1.5, true), not only wrong numbers
            if (
                step.step != index + 1 or step.new_id != len(base) + index
                or not all(_is_whole(i) and i < step.new_id for i in ids) or not all(map(_is_whole, counts))
            ):
                raise FormatError(
                    f"the trace file is malformed: merge {index + 1} has inconsistent ids or counts"
                )
        return trace


def _check_variant(trace: Trace) -> None:
    """A variant run's records hold what its kind says (whole numbers, one cost per language and step)."""
    languages, costs, change = trace.languages, trace.language_tokens, trace.stage_change
    wrong = (
        not all(isinstance(name, str) for name in languages)
        or (languages and len(costs) != len(trace.steps) + 1)
        or not all(len(row) == len(languages) and all(map(_is_whole, row)) for row in costs)
        or not all(_is_whole(language) and language < len(languages) and _is_whole(count) for language, count in trace.chosen_by)
        or (change is not None and not (isinstance(change.split, str) and all(map(_is_whole, change[2:])) and _is_whole(change.step)))
    )
    if wrong:
        raise FormatError("the trace file is malformed: its languages' costs or its stage change have the wrong shape")
    if (trace.scores and len(trace.scores) != len(trace.steps)) or not all(map(_scores_fit, trace.scores, trace.steps)):
        raise FormatError("the trace file is malformed: its scores are not whole counts, one per top pair of each merge")


def _scores_fit(scored: StepScores, step: MergeStep) -> bool:
    """A step's scores are whole counts, one per top pair, every token counted at least once."""
    every = (*scored.top, scored.chosen, scored.by_count_score)
    return (
        len(scored.top) == len(step.top) and len(scored.by_count) == 2 and all(map(_is_whole, scored.by_count))
        and all(_is_whole(n) for score in every for n in score) and all(score.left_count and score.right_count for score in every)
    )


def _is_whole(value: object) -> bool:
    """A JSON whole number from 0 (``true`` and ``1.0`` are not)."""
    return type(value) is int and value >= 0
