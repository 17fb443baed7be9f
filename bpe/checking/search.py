"""Re-training a corpus under many variants, cheaply: the machinery the guesser and the diagnosis share.

Scope: the learner's corpus (:class:`CheckCorpus`, built once per split, special tokens and
normalization), how far a variant follows the learner's merges (:func:`search`, on the compact
trainer, which stops at the first merge that differs), two variants combined, and re-measuring a
settings variant on the reference trainer. Out of scope: which variants to try (the guesser and
:mod:`bpe.checking.mistakes`) and what the outcome means (:mod:`bpe.checking.diagnose`).

    >>> from bpe import TrainSettings
    >>> source = CheckCorpus(words={"low": 5, "lower": 2, "newest": 6, "widest": 3})
    >>> meant = TrainSettings(unit="char", pretokenizer="whitespace", min_frequency=1)
    >>> variants = [Variant("", rule, replace(meant, tie_break=rule)) for rule in ("first-seen", "lexicographic-max")]
    >>> attempts, skipped, _ = search(source, variants, [(b"s", b"t"), (b"e", b"st")], deadline=float("inf"))
    >>> [(a.label, a.matching) for a in attempts], skipped
    ([('first-seen', 0), ('lexicographic-max', 2)], 0)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace

from ..text.corpus import Corpus
from ..tokens.vocab import token_sort_bytes
from ..training.settings import TrainSettings
from ..training.trace import STOP_TIME_LIMIT, Trace
from ..training.trainer import train
from .compact import Replay, Spelled, replay, tie_rule_of
from .mistakes import Variant
from .normalization import NORMALIZATIONS
from .rules import Rules

_HUGE_WORD = 10_000


@dataclass(frozen=True)
class CheckCorpus:
    """The corpus the learner trained on: a text, or a word-count table (never both)."""

    text: str | None = None
    words: Mapping[str, int] | None = None
    _built: dict = field(default_factory=dict, compare=False, repr=False)

    def build(self, settings: TrainSettings, *, joined: bool = False, normalization: str | None = None) -> Corpus:
        """The corpus under ``settings`` (cached per split); ``joined``: a word table written out as one
        text; ``normalization``: the text changed first, as the learner's trainer did."""
        specials = settings.cut_from_corpus  # the special tokens cut out before counting (none if counted as text)
        key = (settings.pretokenizer, specials, joined, normalization)
        if key not in self._built:
            words = self.normalized_words(normalization)
            if words is not None and not joined:
                self._built[key] = Corpus.from_word_counts(words)
            elif words is not None:
                text = " ".join(word for word, count in words.items() for _ in range(count))
                self._built[key] = Corpus.from_text(text, pretokenizer="none")
            else:
                self._built[key] = Corpus.from_text(self.normalized_text(normalization), pretokenizer=settings.pretokenizer,
                                                    special_tokens=specials)
        return self._built[key]

    def normalized_text(self, normalization: str | None) -> str:
        """The text (a word table: its words, one per line) as ``normalization`` leaves it."""
        text = self.text if self.text is not None else "\n".join(self.words or ())
        return text if normalization is None else NORMALIZATIONS[normalization].apply(text)

    def normalized_words(self, normalization: str | None) -> Mapping[str, int] | None:
        if self.words is None or normalization is None:
            return self.words
        table: Counter[str] = Counter()
        for word, count in self.words.items():
            if changed := NORMALIZATIONS[normalization].apply(word):
                table[changed] += count
        return table

    def with_line(self, line: str, *, at_start: bool = False) -> "CheckCorpus":
        """This corpus with ``line`` added at its end or its start (a word table: its words, once each)."""
        if self.words is not None:
            added: dict[str, int] = {}
            for word in line.split():
                added[word] = added.get(word, 0) + 1
            words = {**added, **{w: added.get(w, 0) + c for w, c in self.words.items()}} if at_start else dict(self.words)
            if not at_start:
                for word, times in added.items():
                    words[word] = words.get(word, 0) + times
            return CheckCorpus(words=words)
        return CheckCorpus(text=f"{line}\n{self.text}" if at_start else f"{self.text}\n{line}")

    def changed_by(self, normalization: str) -> bool:
        """Whether ``normalization`` changes this corpus at all (if not, it cannot explain anything)."""
        if self.words is not None:
            return dict(self.normalized_words(normalization) or {}) != dict(self.words)
        return self.normalized_text(normalization) != self.text


@dataclass(frozen=True)
class Attempt:
    """One variant and how many of the learner's merges it reproduces from the start."""

    variant: Variant
    matching: int
    timed_out: bool = False

    @property
    def label(self) -> str:
        return self.variant.label


def spelled_merges(trace: Trace) -> list[Spelled]:
    tokens, marker = trace.tokens, trace.settings.end_of_word
    return [(token_sort_bytes(tokens[s.left], marker), token_sort_bytes(tokens[s.right], marker)) for s in trace.steps]


def leading_matches(ours: Sequence[Spelled], theirs: Sequence[Spelled]) -> int:
    """``[a, b, c], [a, b, d] -> 2``."""
    for index, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            return index
    return min(len(ours), len(theirs))


def reference_trace(corpus: Corpus, settings: TrainSettings, merges: int, *, time_limit_s: float | None = None) -> Trace:
    """The reference trainer's run of ``merges`` merges, however large ``min_frequency`` allows."""
    wanted = replace(settings, merges=merges, vocab_size=None, top_k=0, max_ties=20)
    return train(corpus, wanted, time_limit_s=time_limit_s)


def corpus_of(source: CheckCorpus, variant: Variant) -> Corpus:
    return source.build(variant.settings, joined=variant.joined, normalization=variant.normalization)


def follow(source: CheckCorpus, variant: Variant, learner: Sequence[Spelled], *, deadline: float | None = None,
           probe: tuple[int, Sequence[Spelled]] | None = None, also: Sequence[str] = ()) -> Replay:
    """One compact-trainer pass of ``variant`` along the learner's merges (see :func:`~bpe.checking.compact.replay`)."""
    return replay(corpus_of(source, variant), variant.settings, learner, rules=variant.rules or Rules(),
                  also=also, deadline=deadline, probe=probe)


def tie_of(variant: Variant) -> str:
    """The tie rule ``variant`` follows (a :data:`~bpe.checking.ties.TIE_EFFECTS` name)."""
    return tie_rule_of(variant.settings, variant.rules or Rules())


def _run(source: CheckCorpus, group: list[Variant], learner: Sequence[Spelled], deadline: float):
    """How far each variant of ``group`` (the same corpus and rules, any tie rule) follows the
    learner, in one pass of the compact trainer. It stops at the first merge that differs, so a
    wrong variant costs a few merges (the reference trainer cannot stop early)."""
    run = follow(source, group[0], learner, deadline=deadline, also=[tie_of(v) for v in group[1:]])
    return [Attempt(v, run.by_rule[tie_of(v)], run.timed_out) for v in group], run


def pass_key(variant: Variant) -> tuple:
    """What one pass of the compact trainer shares: all but the tie rule (every tie rule rides along)."""
    rest = {k: v for k, v in variant.settings.to_dict().items() if k != "tie_break"}
    return repr(rest), replace(variant.rules or Rules(), tie=None), variant.joined, variant.normalization


def search(source: CheckCorpus, candidates: list[Variant], learner, deadline, *, until_all: bool = False):
    """``(attempts, variants skipped, the first group's replay)``; variants that differ only in the
    tie rule share one pass. Skipped: for the time limit, or (``until_all``) once one reproduces
    every merge."""
    groups: dict[tuple, list[Variant]] = {}
    for variant in candidates:
        groups.setdefault(pass_key(variant), []).append(variant)
    attempts, first_run = [], None
    for group in groups.values():
        if time.perf_counter() > deadline:
            return attempts, len(candidates) - len(attempts), first_run
        found, run = _run(source, group, learner, deadline)
        attempts += found
        first_run = first_run or run
        if until_all and any(a.matching == len(learner) for a in found):
            return attempts, len(candidates) - len(attempts), first_run
    return attempts, 0, first_run


def confirm(source: CheckCorpus, attempt: Attempt, learner: Sequence[Spelled], deadline: float) -> Attempt:
    """A settings variant's count, re-measured on the reference trainer itself (the diagnosis then
    rests on the reference, not on the compact trainer). Skipped for a corpus with a huge word
    (pre-tokenizer ``none`` on a long text), where the reference's first-seen index is slow."""
    corpus = corpus_of(source, attempt.variant)
    left = deadline - time.perf_counter()
    if attempt.variant.rules is not None or left <= 0 or max((len(w) for w, _ in corpus.words), default=0) > _HUGE_WORD:
        return attempt
    trace = reference_trace(corpus, attempt.variant.settings, min(attempt.matching + 1, len(learner)), time_limit_s=left)
    if trace.stop_reason == STOP_TIME_LIMIT:
        return attempt
    return Attempt(attempt.variant, leading_matches(spelled_merges(trace), learner))


def combined(a: Variant, b: Variant, base: TrainSettings) -> Variant | None:
    """Both variants' changes at once; None when they change the same thing."""
    if a.normalization and b.normalization and a.normalization != b.normalization:
        return None
    changes = {}
    for variant in (a, b):
        for f in fields(TrainSettings):
            value = getattr(variant.settings, f.name)
            if value != getattr(base, f.name):
                if changes.get(f.name, value) != value:
                    return None
                changes[f.name] = value
    rules = {}
    for variant in (a, b):
        for f in fields(Rules):
            value = getattr(variant.rules or Rules(), f.name)
            if value != getattr(Rules(), f.name):
                if rules.get(f.name, value) != value:
                    return None
                rules[f.name] = value
    return Variant(f"{a.code}+{b.code}", f"{a.label} and {b.label}", replace(base, **changes),
                   Rules(**rules) if rules else None, a.joined or b.joined, normalization=a.normalization or b.normalization,
                   parts=a.single + b.single, cost=a.cost + b.cost)
