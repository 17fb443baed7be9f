"""BPE-dropout: encoding with each merge skipped at random, so one word has many segmentations.

BPE-dropout (Provilkov et al., ACL 2020) regularises a model by showing it a word split in
different ways: while a chunk is encoded, each merge that could apply is skipped with probability
``p``. At ``p = 0`` it is the ordinary encoder; at ``p = 1`` every merge is skipped and a chunk stays
its base symbols (bytes or characters). In between the owners differ, and each rule here replays
one of them exactly, one registry entry each (:data:`DROPOUT_RULES`):

* ``hf``: Hugging Face tokenizers' ``BPE(dropout=p)`` (``models/bpe/word.rs``, ``Word::merge_all``).
  The places where a learned merge applies wait in a queue, the earliest-learned first, then the
  leftmost. Each place taken from it is skipped with probability ``p`` and *set aside*; the first
  one not skipped is merged (if its pair is still there) and the set-aside places go back into the
  queue, so a skipped merge can still happen later. Subtle: places a merge made stale are drawn
  for too, and one of them not skipped also puts the set-aside places back, so an early merge gets
  more chances than ``1 - p``; a sample is not the paper's independent drop per step.
* ``sentencepiece``: SentencePiece's ``encode(..., enable_sampling=True, alpha=p)`` for a BPE model
  (``bpe_model.cc``, ``Model::SampleEncode``). Neighbours whose text is a piece of the vocabulary
  wait in a queue, the best-scored (earliest-learned) piece first, then the leftmost; a place still
  there is skipped with probability ``p`` *for good*: it is not queued again unless one of its two
  symbols changes. It reads pieces, not merge pairs, so it runs on tokenizers SentencePiece could
  hold (the ``sentencepiece`` split, each piece spelled once).

Both draw ``random() < p`` per place, as the owners do; a seed makes a sample reproducible (the
owners' generators differ, so a seed gives the same *distribution* as theirs, not the same draws;
``tests/test_dropout.py`` checks each rule against its owner with a chi-square test at a fixed
sample size, and both rules at ``p = 0`` and ``p = 1`` exactly).

    >>> from bpe import Corpus, Tokenizer, TrainSettings, train
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...                                  TrainSettings(pretokenizer="none", tie_break="lexicographic-min")))
    >>> Dropout(tok, p=0.0).encode("aaab"), Dropout(tok, p=1.0).encode("aaab")
    ([258], [97, 97, 97, 98])
    >>> half = Dropout(tok, p=0.5)                # aa=256, ab=257, aaab=256+257=258
    >>> for ids, chance in sorted(exact_distribution(half, [[97, 97, 97, 98]]).items(), key=lambda kv: -kv[1]):
    ...     print(ids, chance)
    (256, 97, 98) 0.25
    (97, 256, 98) 0.25
    (258,) 0.1640625
    (256, 257) 0.1640625
    (97, 97, 97, 98) 0.125
    (97, 97, 257) 0.046875

(Hugging Face's ``BPE(dropout=0.5)`` on this tokenizer's ``tokenizer.json``, 20,000 samples of
"aaab": 0.250, 0.248, 0.168, 0.162, 0.126, 0.047.)

Scope: SentencePiece's loop (Hugging Face's is the encoder's own heap loop,
:func:`bpe.encoding.merge_loop.merge_long`, given the draws), the rule registry, sampling one text many times
and the exact distribution of a short chunk's segmentations. Out of scope: the deterministic encoder
(``tokenizer``, ``merge_loop``) and drawing histograms (``views``).
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..errors import BpeError, SettingsError
from ..registry import Registry
from ..renamed import renamed
from ..text.pretokenize import SpecialSet
from .merge_loop import merge_long, one_unknown_per_run

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

Skip = Callable[[], bool]
"""One draw: ``True`` skips the merge at the place just taken from the queue."""

MAX_EXACT_WORK = 30_000
"""The exact distribution replays a chunk's loop on every sequence of draws it can make: past this
many symbols replayed in all (runs times the chunk's length; a toy example's word takes hundreds, a
word of a real vocabulary millions), the histogram shows the sampled counts alone (the attempt costs
a few hundredths of a second at most)."""


# -- SentencePiece's loop (Hugging Face's: merge_loop.merge_long with its draws) ----------------

def merge_sentencepiece(
    ids: Sequence[int], pieces: dict[bytes, tuple[int, int]], spell: Mapping[int, bytes | None], skip: Skip,
) -> list[int]:
    """SentencePiece's ``Model::SampleEncode``: ``pieces`` maps a merged piece's bytes to ``(rank,
    id)``, ``spell[id]`` is a symbol's bytes (``None``: never merges, e.g. an unknown character).

    The queue holds ``(rank, left, right, bytes)``: the best piece first, then the leftmost; an entry
    is stale once either symbol is gone or has grown (the owner compares the joined length).

    >>> spell = {0: b"a", 1: b"b", 2: b"c", 3: b"ab", 4: b"abc"}
    >>> merge_sentencepiece([0, 1, 2], {b"ab": (0, 3), b"abc": (1, 4)}, spell, skip=lambda: False)
    [4]
    """
    size = len(ids)
    text: list[bytes | None] = [spell.get(i) for i in ids]
    symbols = list(ids)
    following, preceding = list(range(1, size + 1)), list(range(-1, size - 1))
    queue: list[tuple[int, int, int, int]] = []

    def queue_pair(left: int, right: int) -> None:
        if left < 0 or right >= size or text[left] is None or text[right] is None:
            return
        found = pieces.get(text[left] + text[right])
        if found is not None:
            heapq.heappush(queue, (found[0], left, right, len(text[left]) + len(text[right])))

    for i in range(1, size):
        queue_pair(i - 1, i)
    while queue:
        rank, left, right, length = heapq.heappop(queue)
        if not text[left] or not text[right] or len(text[left]) + len(text[right]) != length:
            continue  # stale: one side was merged away or grew
        if skip():
            continue  # skipped for good at this place
        text[left] += text[right]
        symbols[left] = pieces[text[left]][1]
        text[right] = b""
        following[left] = following[right]
        if following[right] < size:
            preceding[following[right]] = left
        queue_pair(preceding[left], left)
        queue_pair(left, following[left])
    return [symbol for symbol, piece in zip(symbols, text) if piece != b""]


# -- the registry -------------------------------------------------------------------------------
@dataclass(frozen=True)
class DropoutRule:
    """One owner's BPE-dropout: how it merges a chunk, and which tokenizers it can run on."""

    name: str
    title: str
    summary: str
    """One line: what happens to a skipped merge."""
    used_by: str
    source: str
    """Where the owner's loop is (file and function)."""
    loop: Callable[["Tokenizer"], Callable[[Sequence[int], Skip], list[int]]]
    """Given a tokenizer, the chunk loop ``(ids, skip) -> ids``; its tables are built once."""
    unavailable: Callable[["Tokenizer"], str | None] = lambda tokenizer: None
    """Why the rule cannot run on a tokenizer (``None``: it can)."""


def _hugging_face_loop(tokenizer: "Tokenizer") -> Callable[[Sequence[int], Skip], list[int]]:
    merges = tokenizer.merges
    ranks = {(left, right): rank for rank, (left, right, _) in enumerate(merges)}
    made = [new_id for _, _, new_id in merges]
    return lambda ids, skip: merge_long(list(ids), ranks, made, skip)


def _sentencepiece_loop(tokenizer: "Tokenizer") -> Callable[[Sequence[int], Skip], list[int]]:
    tokens = tokenizer.tokens
    pieces = {tokens[new_id].data: (rank, new_id) for rank, (_, _, new_id) in enumerate(tokenizer.merges)}
    frozen = set(tokenizer.special_tokens.values()) | set(tokenizer.fallback_bytes)
    spell = {token_id: None if token_id in frozen else token.data for token_id, token in tokens.items()}
    return lambda ids, skip: merge_sentencepiece(ids, pieces, spell, skip)


def _not_a_sentencepiece_model(tokenizer: "Tokenizer") -> str | None:
    entry = tokenizer.pretokenizer.entry
    if entry is None or entry.piece_rule is None or tokenizer.end_of_word is not None:
        return (
            "SentencePiece's sampling runs on SentencePiece models, which it reads as pieces, not merge pairs: "
            "train with the sentencepiece split (char unit) or import a .model, or use the hf rule"
        )
    made = [tokenizer.decode_single_token_bytes(new_id) for _, _, new_id in tokenizer.merges]
    if len(set(made)) != len(made):
        return "SentencePiece keeps one piece per text, but this tokenizer's merges make one text twice: use the hf rule"
    return None


DEFAULT_P, DEFAULT_SAMPLES = 0.1, 500
"""What a lesson samples unless told: the probability of skipping a merge, and how many encodings."""

DROPOUT_RULES: Registry[DropoutRule] = Registry("dropout rule", error=SettingsError, entries=(
    DropoutRule(
        "hf", "Hugging Face", "a skipped merge is set aside and comes back after the next merge",
        "Hugging Face tokenizers' BPE(dropout=p)", "tokenizers/src/models/bpe/word.rs, Word::merge_all",
        loop=_hugging_face_loop,
    ),
    DropoutRule(
        "sentencepiece", "SentencePiece", "a skipped merge is gone for good at that place",
        "SentencePiece's encode(enable_sampling=True, alpha=p)", "src/bpe_model.cc, Model::SampleEncode",
        loop=_sentencepiece_loop, unavailable=_not_a_sentencepiece_model,
    ),
))
"""Every dropout rule by name, in the order the app lists them."""


def dropout_rule(name: str) -> DropoutRule:
    """The registered rule called ``name``; an unknown name is a :class:`SettingsError`."""
    return DROPOUT_RULES.lookup(name)


def check_probability(p: object) -> float:
    """``p`` as a float from 0 to 1, or a :class:`SettingsError` that says so."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise SettingsError(f"dropout must be a probability from 0 to 1 (e.g. 0.1), got {p!r}")
    return float(p)


def coin(p: float, rng: random.Random) -> Skip:
    """One draw per call, ``random() < p`` as both owners draw; none at all at 0 or 1."""
    if p <= 0.0:
        return lambda: False
    if p >= 1.0:
        return lambda: True
    draw = rng.random
    return lambda: draw() < p


# -- encoding a text ----------------------------------------------------------------------------
class Dropout:
    """``tokenizer``'s encoder with BPE-dropout: each :meth:`encode` draws new skips from one
    random generator, so a seed reproduces a whole sequence of samples.

    Built once per tokenizer and rule (the rule's tables are made here), like Hugging Face's
    ``BPE(dropout=p)``. Nothing is cached between calls: the owners skip their caches too.
    """

    def __init__(self, tokenizer: "Tokenizer", *, p: float, seed: int | None = None, rule: str = "hf") -> None:
        self.p = check_probability(p)
        self.rule = dropout_rule(rule)
        reason = self.rule.unavailable(tokenizer)
        if reason is not None:
            raise SettingsError(reason)
        self.tokenizer = tokenizer
        self._loop = self.rule.loop(tokenizer)
        self.rng = random.Random(seed)
        """The draws of every sample, in order (a seed makes them the same each time)."""
        unknown = tokenizer.unknown_token
        self._unknown = None if unknown is None else tokenizer.special_tokens[unknown]

    def chunks(
        self, text: str, *, allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None,
    ) -> list[tuple[int, ...]]:
        """Each chunk's ids before any merge, as the encoder cuts ``text`` (a special token alone)."""
        walks = self.tokenizer.encode_walkthrough(text, allowed_special=allowed_special, disallowed_special=disallowed_special)
        return [walk.initial for walk in walks]

    def merge(self, chunks: Sequence[Sequence[int]], skip: Skip | None = None) -> list[int]:
        """One sample of ``chunks`` (from :meth:`chunks`), with this encoder's draws unless ``skip`` is given."""
        skip = skip or coin(self.p, self.rng)
        ids = [token_id for chunk in chunks for token_id in (self._loop(chunk, skip) if len(chunk) > 1 else chunk)]
        return one_unknown_per_run(ids, self._unknown)  # as the encoder does

    def encode(
        self, text: str, *, allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None,
    ) -> list[int]:
        """One sample: ``text`` -> ids with each merge skipped with probability ``p``."""
        return self.merge(self.chunks(text, allowed_special=allowed_special, disallowed_special=disallowed_special))


# -- many samples, and the exact distribution ---------------------------------------------------
class SampledSegmentation(NamedTuple):
    """One way the samples cut the text (a ``Segmentation`` is a way to cut: :mod:`bpe.encoding.segmentation`)."""

    ids: tuple[int, ...]
    count: int
    """How many of the samples came out this way."""
    probability: float | None
    """Its exact probability (``None`` when the distribution was too large to enumerate)."""


@dataclass(frozen=True)
class DropoutSample:
    """``samples`` encodings of one text: its distinct segmentations, most frequent first."""

    text: str
    p: float
    rule: str
    seed: int | None
    samples: int
    plain: tuple[int, ...]
    """The text's ids without dropout."""
    segmentations: tuple[SampledSegmentation, ...]
    exact: bool
    """Every segmentation's probability is known (the distribution was small enough to enumerate)."""

    @property
    def mean_tokens(self) -> float:
        return sum(len(seg.ids) * seg.count for seg in self.segmentations) / self.samples if self.samples else 0.0


def _outcomes(run: Callable[[Skip], list[int]], p: float, limit: int) -> tuple[dict[tuple[int, ...], float] | None, int]:
    """Every result ``run`` can give and its probability, by replaying it on every sequence of
    draws (depth first: a run that needs one more draw than its script holds forks into a skip and
    a merge), and how many runs that took; ``None`` past ``limit`` runs, finished or forked."""

    class _MoreDraws(Exception):
        pass

    found: dict[tuple[int, ...], float] = {}
    scripts: list[tuple[bool, ...]] = [()]
    runs = 0
    while scripts:
        runs += 1
        if runs > limit:
            return None, runs
        script = scripts.pop()
        draws: Iterator[bool] = iter(script)

        def scripted() -> bool:
            try:
                return next(draws)
            except StopIteration:
                raise _MoreDraws from None

        try:
            result = tuple(run(scripted))
        except _MoreDraws:
            scripts += [(*script, True), (*script, False)]
            continue
        chance = 1.0
        for skipped in script:
            chance *= p if skipped else 1.0 - p
        found[result] = found.get(result, 0.0) + chance
    return found, runs


def exact_distribution(dropout: Dropout, chunks: Sequence[Sequence[int]], *, work: int = MAX_EXACT_WORK):
    """``{ids: probability}`` of every segmentation ``chunks`` can have under ``dropout``, or ``None``
    past ``work`` symbols replayed (chunks are independent: their distributions multiply)."""
    if dropout.p in (0.0, 1.0):
        return {tuple(dropout.merge(chunks)): 1.0}
    total: dict[tuple[int, ...], float] = {(): 1.0}
    for chunk in chunks:
        if len(chunk) < 2:
            total = {done + tuple(chunk): chance for done, chance in total.items()}
            continue
        ways, runs = _outcomes(lambda skip, chunk=chunk: dropout.merge([chunk], skip), dropout.p, work // len(chunk))
        work -= runs * len(chunk)
        if ways is None or len(ways) * len(total) > MAX_EXACT_WORK:  # too many to list
            return None
        total = {done + more: p_done * p_more for done, p_done in total.items() for more, p_more in ways.items()}
    # subtle: an unknown character ending one chunk and one starting the next are one unknown token, as a
    # sample of the whole text has them; chunk by chunk they were two
    merged: dict[tuple[int, ...], float] = {}
    for ids, chance in total.items():
        key = tuple(one_unknown_per_run(list(ids), dropout._unknown))
        merged[key] = merged.get(key, 0.0) + chance
    return merged


def sample_segmentations(
    tokenizer: "Tokenizer", text: str, *, p: float, samples: int, seed: int | None = None, rule: str = "hf",
    allowed_special: SpecialSet | None = None, disallowed_special: SpecialSet | None = None,
) -> DropoutSample:
    """Encode ``text`` ``samples`` times with dropout ``p`` (the ``seed`` reproduces it) and count
    its segmentations, each with its exact probability when the distribution is small enough."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise BpeError(f"samples must be a whole number of at least 1, got {samples!r}")
    dropout = Dropout(tokenizer, p=p, seed=seed, rule=rule)
    chunks = dropout.chunks(text, allowed_special=allowed_special, disallowed_special=disallowed_special)
    counts = Counter(tuple(dropout.merge(chunks)) for _ in range(samples))
    exact = exact_distribution(dropout, chunks)
    plain = tuple(dropout.merge(chunks, skip=lambda: False))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], -(exact or {}).get(item[0], 0.0), len(item[0])))
    return DropoutSample(
        text=text, p=dropout.p, rule=dropout.rule.name, seed=seed, samples=samples, plain=plain,
        segmentations=tuple(SampledSegmentation(ids, n, None if exact is None else exact[ids]) for ids, n in ordered),
        exact=exact is not None,
    )


# Its name before the one of bpe.encoding.segmentation took it (issue 49: one name per concept).
__getattr__ = renamed(__name__, Segmentation=SampledSegmentation)
