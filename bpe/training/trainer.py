"""The incremental BPE trainer: merge the most frequent pair, record why, repeat.

Scope: training from a :class:`~bpe.text.corpus.Corpus` into a :class:`~bpe.training.trace.Trace`. Out of scope:
splitting text (``corpus``/``pretokenize``), choosing among ties (``tiebreak``), encoding.

How it stays fast without ever recounting the corpus:

* Words are stored once with their counts, so "low" seen 5 times is one list of ids.
* ``pair -> count`` is kept up to date from *local* changes only: merging (a, b) -> c at a spot
  with neighbours x and y removes (x, a), (a, b), (b, y) and adds (x, c), (c, y), each weighted by
  the word's count (:func:`merge_pair`). Only words listed as containing (a, b) are visited.
* Counts are also bucketed (``count -> pairs``, :mod:`~bpe.training.pair_queue`), so the best count, every
  pair tied at it, and the top-k pairs come without a scan.
* The loop in :func:`train` reads like :func:`bpe.reference.train`'s: ask which pair next, or why
  stop; merge it everywhere; record the step. The question goes to one chooser that the run picks
  once (:mod:`~bpe.training.choice`: the whole corpus's counts, a language's, WordPiece's scores, or
  the tie rule's own candidates, SentencePiece's); the bookkeeping lives in :class:`_Run` and the helpers under it.
  What a step records is read from the buckets, only as much as the trace keeps.

Counting is with overlap ("aaa" has (a, a) twice: that is what every trainer compares), while
merging replaces left to right without overlap ("aaa" -> "aa a"). Worked example, merging
``ids=[1, 2, 3, 1, 2], pair=(1, 2), new=4 -> [4, 3, 4]``: (1, 2) -2, (2, 3) -1, (3, 1) -1,
(4, 3) +1, (3, 4) +1.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable

from ..collector import collector_paused
from ..encoding.merge_loop import merge_ids
from ..encoding.tokenizer import Tokenizer
from ..errors import SettingsError
from ..text.corpus import Corpus
from ..tokens.end_of_word import mark_word, marker_ids
from ..tokens.vocab import Pair, Token, base_tokens, token_sort_bytes
from .first_seen import FirstSeenIndex
from .choice import STOP_MERGES, STOP_TIME_LIMIT, STOP_VOCAB_SIZE, Chooser, CountsChoice, Stop
from .language_counts import LanguageChoice, LanguageCounts
from .objectives import objective
from .pair_merge import count_pairs, index_pairs, merge_pair  # noqa: F401  (count_pairs, merge_pair: tests)
from .pair_queue import PairCounts
from .sentencepiece_choice import PieceRule
from .settings import TrainSettings
from .start_state import StartState
from .tiebreak import TieContext, hf_ranks, tie_break_rule
from .trace import MergeStep, StageChange, Trace

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(merges_done, merges_wanted)`` every 100 merges."""


def base_vocabulary(corpus: Corpus, settings: TrainSettings) -> tuple[Token, ...]:
    """The base tokens a run on ``corpus`` under ``settings`` starts from (ids in order)."""
    # the characters that end a word: read by the attached mode only
    finals = "".join({text[-1] for text, _ in corpus.words}) if settings.end_of_word_mode == "attached" else ""
    entry = settings.pretokenizer_entry
    char_counts = None
    if entry is not None and entry.base_by_frequency:
        char_counts = defaultdict(int)
        for text, freq in corpus.words:
            for char in text:
                char_counts[char] += freq
    return base_tokens(
        unit=settings.unit, alphabet=corpus.alphabet, end_of_word=settings.end_of_word,
        mode=settings.end_of_word_mode, finals=finals, char_counts=char_counts,
    )


@collector_paused()  # it makes no cycles, but some 200,000 short-lived tuples and lists (bpe.collector)
def train(
    corpus: Corpus,
    settings: TrainSettings,
    *,
    progress: ProgressCallback | None = None,
    time_limit_s: float | None = None,
    verify_counts: bool = False,
    start: StartState | None = None,
) -> Trace:
    """Learn merges from ``corpus`` under ``settings``; return the full trace.

    Never fails on a small corpus: an empty text simply stops with ``no_pairs``. With
    ``verify_counts`` (for tests; slow) every merge is followed by a full recount that must equal
    the incrementally maintained counts. With ``start`` the run continues that vocabulary
    (:mod:`~bpe.training.start_state`): the words begin as its tokenizer encodes them, and the new ids come
    after its last one.
    """
    settings.check_stages(later=corpus.later, continuing=start is not None)
    if objective(settings.objective).by_language and not corpus.languages:
        raise SettingsError(
            f"the objective {settings.objective!r} chooses each merge by the language that is the most tokens now, so it "
            "needs a corpus of texts by language (Corpus.from_languages; --language on the command line)"
        )
    if start is not None:
        start = start.for_corpus(corpus, settings)
        base = start.tokens_by_id()
        encode = Tokenizer(**start.tokenizer_fields()).encode_chunk
        initial_ids = lambda text: list(encode(text))  # noqa: E731  (a list of its own: merges rewrite it)
    else:
        base = base_vocabulary(corpus, settings)
        initial_ids = _initial_ids(base, settings)
    wanted = settings.target_merges(len(base))
    words = [initial_ids(text) for text, _ in corpus.words]
    freqs = [freq for _, freq in corpus.words]
    corpus_bytes = sum(len(text.encode("utf-8")) * freq for text, freq in corpus.words)

    run = _Run(words, freqs, base, settings, hf_rank=None if start is None else start.hf_rank(), languages=corpus)
    initial_tokens = run.tokens_now
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    steps: list[MergeStep] = []
    chosen_by: list[tuple[int, int]] = []  # parity-aware: per merge, the language that chose it and its count there
    scores = []  # WordPiece: per merge, the scores that chose it
    language_tokens = [] if run.languages is None else [tuple(run.languages.tokens)]
    stage_change = None
    stop = _reached(settings, wanted)
    max_ties = settings.max_ties
    while len(steps) < wanted:
        if len(steps) == settings.transition:  # SuperBPE: the split is lifted and training goes on over the new chunks
            run, stage_change = _second_stage(run, corpus.later, settings, steps, initial_ids)
        if deadline is not None and time.perf_counter() > deadline:
            stop = Stop(STOP_TIME_LIMIT, f"stopped after the time limit of {time_limit_s:g} s")
            break
        choice = run.chooser.choose()  # which pair next, or why stop: read before the merge
        if isinstance(choice, Stop):
            stop = choice
            break
        count, tie_count, tied, top, top_counts, language, scored = choice
        before = run.tokens_now
        pair = tied[0]
        new_id, words_changed = run.merge(pair)
        if verify_counts:
            run.verify(len(steps) + 1)
        # positional, in MergeStep's order: keywords cost twice as much, at every merge
        steps.append(MergeStep(
            len(steps) + 1, new_id, pair[0], pair[1], count, before - run.tokens_now, tie_count,
            tied[:max_ties], top, top_counts, run.tokens_now, words_changed,
        ))
        if language is not None:  # the step's counts are that language's: what chose
            chosen_by.append((language, count))
        if scored is not None:
            scores.append(scored)
        if run.languages is not None:
            language_tokens.append(tuple(run.languages.tokens))
        if progress is not None and len(steps) % 100 == 0:
            progress(len(steps), wanted)

    return Trace(
        settings=settings, base=base, steps=tuple(steps), stop_reason=stop.reason,
        stop_detail=stop.detail, initial_tokens=initial_tokens, corpus_bytes=corpus_bytes,
        word_count=len(words), corpus=corpus, start=start,
        languages=corpus.languages, language_tokens=tuple(language_tokens), chosen_by=tuple(chosen_by),
        stage_change=stage_change, scores=tuple(scores),
    )


def _initial_ids(base: tuple[Token, ...], settings: TrainSettings) -> Callable[[str], list[int]]:
    """A word's ids before any merge (a new list): its bytes or characters, then the end-of-word marker."""
    marker_id, attached = marker_ids(base)
    if settings.unit == "byte" and marker_id is None and settings.end_of_word_mode == "separate":
        return lambda text: list(text.encode("utf-8"))  # no marker to place (most runs): the bytes alone
    char_id = {} if settings.unit == "byte" else {
        token.data.decode("utf-8"): i for i, token in enumerate(base) if not token.ends_word
    }

    def initial(text: str) -> list[int]:
        ids = list(text.encode("utf-8")) if settings.unit == "byte" else [char_id[char] for char in text]
        return mark_word(ids, mode=settings.end_of_word_mode, marker_id=marker_id, attached=attached)

    return initial


def _second_stage(
    run: "_Run", later: Corpus, settings: TrainSettings, steps: list[MergeStep], initial_ids: Callable[[str], list[int]],
) -> tuple["_Run", StageChange]:
    """SuperBPE's transition: the text split by the second stage's split, each chunk starting from the merges
    so far applied in their order (as the authors' trainer inherits them), then a fresh run over those chunks."""
    merges = [(step.left, step.right, step.new_id) for step in steps]
    ranks = {(left, right): rank for rank, (left, right, _) in enumerate(merges)}
    made_ids = [new_id for _, _, new_id in merges]
    words = [merge_ids(list(initial_ids(text)), ranks, made_ids) for text, _ in later.words]
    freqs = [freq for _, freq in later.words]
    made = [(step.left, step.right) for step in steps]
    after = _Run(words, freqs, run.base, settings, made=made)
    change = StageChange(
        step=len(steps), split=settings.second_split, words_before=len(run.words), words_after=len(words),
        tokens_before=run.tokens_now, tokens_after=after.tokens_now,
    )
    return after, change


def _reached(settings: TrainSettings, wanted: int) -> Stop:
    """Why training stops when it makes every merge it was asked for."""
    if settings.vocab_size is not None:
        return Stop(STOP_VOCAB_SIZE, f"reached the vocabulary size {settings.vocab_size}")
    return Stop(STOP_MERGES, f"reached the requested {wanted} merges")


def _no_first_seen(pair: Pair) -> tuple[int, int]:
    raise RuntimeError("internal error: first occurrences are only tracked for rules with tracks_first_occurrence")


class _KeysOnDemand(dict):
    """``pair -> tie-break key`` for a rule whose key depends only on the pair's two tokens: each
    key is computed the first time the pair is ranked, and then looked up from C.

    Many pairs are counted but never ranked (only pairs tied at the top, or near it, are), so
    computing every key up front was wasted work. Computing a key late is
    safe because it never changes during a run: only a rule with ``tracks_first_occurrence``
    reads state that does, and those rules keep their keys in ``FirstSeenIndex`` instead.

    >>> keys = _KeysOnDemand(lambda pair: -sum(pair))
    >>> keys[(1, 2)], dict(keys)
    (-3, {(1, 2): -3})
    """

    def __init__(self, key: Callable[[Pair], object]) -> None:
        super().__init__()
        self._key = key

    def __missing__(self, pair: Pair) -> object:
        key = self[pair] = self._key(pair)
        return key


class _Run:
    """A training run's state between merges: the words, which words hold each pair, the pair
    counts, how many tokens the words hold and what the tie-break rule reads."""

    def __init__(
        self, words: list[list[int]], freqs: list[int], base: tuple[Token, ...], settings: TrainSettings, *,
        hf_rank: list[int] | None = None, made: list[Pair] = (), languages: Corpus | None = None,
    ):
        """``hf_rank``: a continued vocabulary's (:mod:`~bpe.training.start_state`); ``made``: the pairs merged before
        this run (a second stage's); ``languages``: the corpus whose ``word_languages`` these words are."""
        self.words, self.freqs, self.base = words, freqs, base
        self.tokens_now = sum(len(ids) * freq for ids, freq in zip(words, freqs))
        # Words that contain each pair. Entries can go stale (the pair merged away from that word);
        # merge_pair skips stale words cheaply, and FirstSeenIndex prunes them.
        counts, self.pair_words = index_pairs(words, freqs)
        # What the tie-break rules and first occurrences read, per token id. The tokens themselves
        # are not kept: the trace derives them from the merges.
        self.sort_bytes = [token_sort_bytes(token, settings.end_of_word) for token in base]
        self.hf_rank = hf_ranks(base, unit=settings.unit) if hf_rank is None else hf_rank
        self.token_bytes = [len(token.data) for token in base]
        for pair in made:
            self._add_token(pair)
        rule = tie_break_rule(settings.tie_break)
        self.objective = objective(settings.objective)
        entry = settings.pretokenizer_entry
        # A pair whose merged piece the pre-tokenizer forbids is never counted (SentencePiece's rule).
        self.allowed = None if entry is None or entry.piece_rule is None else PieceRule(entry.piece_rule, self.sort_bytes)
        if self.allowed is not None:
            counts = {pair: count for pair, count in counts.items() if self.allowed[pair]}
        self.first_seen = (
            FirstSeenIndex(words, self.pair_words, self.token_bytes) if rule.tracks_first_occurrence else None
        )
        locate = self.first_seen.locate if self.first_seen else _no_first_seen
        self.rule_key = rule.key(TieContext(self.sort_bytes, self.hf_rank, settings.unit, locate))
        keys = self.first_seen.keys if self.first_seen else _KeysOnDemand(self.rule_key)
        self.counts = PairCounts(counts, keys=keys, greatest_wins=rule.greatest_wins)
        self.languages = None if languages is None or not languages.languages else LanguageCounts(
            words, freqs, languages.word_languages, languages=len(languages.languages),
            by_language=self.objective.by_language, allowed=None if self.allowed is None else self.allowed.__getitem__,
        )
        # Which pair next, or why stop: asked of one chooser, picked here once (bpe.training.choice).
        limits = {"min_frequency": settings.min_frequency, "max_ties": settings.max_ties, "top_k": settings.top_k}
        self.chooser: Chooser
        if rule.candidates is not None:  # the rule's own candidates (SentencePiece's)
            # subtle: a function of the spellings, not a method of the run: a chooser holding the run would make a
            # cycle, which kept the whole run in memory until the collector's next pass walked it all
            sort_bytes = self.sort_bytes
            spelling = lambda pair: sort_bytes[pair[0]] + sort_bytes[pair[1]]  # noqa: E731
            self.chooser = rule.candidates(self.counts, spelling=spelling, key=self.rule_key, **limits)
        elif self.objective.by_language:  # one language's counts choose (parity-aware: the most tokens first)
            self.chooser = LanguageChoice(self.counts, self.languages, self.objective, **limits, has_words=bool(words))
        elif self.objective.chooser is not None:  # something else than a count chooses (WordPiece's score)
            self.chooser = self.objective.chooser(self.counts, words, freqs, **limits, has_words=bool(words))
        else:
            self.chooser = CountsChoice(self.counts, **limits, has_words=bool(words))

    def merge(self, pair: Pair) -> tuple[int, int]:
        """Make the token ``pair`` stands for, merge it in every word that holds it and update
        the counts, the index and the keys; return ``(new id, words changed)``."""
        new_id = self._add_token(pair)
        merge = merge_pair if self.languages is None else self.languages.merge  # the latter: language by language
        deltas, rewritten, replaced = merge(
            # a pair no longer occurring (SentencePiece merges those too) may have no entry left
            self.words, self.freqs, self.pair_words.pop(pair, ()), pair, new_id, self.pair_words
        )
        self.tokens_now -= replaced
        allowed = self.allowed
        if allowed is not None:
            deltas = {changed: delta for changed, delta in deltas.items() if allowed[changed]}
        new_keys = {}
        if self.first_seen is not None:
            # A created pair can vanish again in the same word ("abab" -> "cc" makes and unmakes (c, a)).
            created = {new for new, delta in deltas.items() if delta > 0 and new_id in new}
            counted = self.counts.count
            still_counted = lambda p: counted.get(p, 0) + deltas.get(p, 0) > 0  # noqa: E731
            new_keys = self.first_seen.rekey(rewritten, created, still_counted)
        self.counts.apply(deltas, new_keys)
        self.chooser.merged(pair, deltas, new_id=new_id, replaced=replaced)
        return new_id, len(rewritten)

    def _add_token(self, pair: Pair) -> int:
        """Record what the rules read of the token ``pair`` makes; return its id."""
        left, right = pair
        new_id = len(self.hf_rank)
        # subtle: spellings simply concatenate, as the marker only ever ends the right token
        self.sort_bytes.append(self.sort_bytes[left] + self.sort_bytes[right])
        self.hf_rank.append(new_id)
        self.token_bytes.append(self.token_bytes[left] + self.token_bytes[right])
        return new_id

    def verify(self, step: int) -> None:
        if self.counts.count != count_pairs(self.words, self.freqs):
            raise RuntimeError(f"internal error: pair counts after merge {step} differ from a recount")
