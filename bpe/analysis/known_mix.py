"""A tokenizer trained on a mix whose proportions we chose: the test the mixture inference must pass first.

:func:`mixed_corpus` builds the training corpus as the categories' word counts, each scaled so that
category i makes ``proportions[i]`` of the bytes of a corpus of :data:`TRAINING_BYTES`: what
repeating each text (fractionally) until it fills its share would give, without the copies. BPE
reads only word counts, so this trains exactly as that long corpus would.

    >>> corpus = mixed_corpus({"A": "aa aa", "B": "bb"}, {"A": 0.25, "B": 0.75}, pretokenizer="whitespace", scale=40)
    >>> corpus.words                            # A is 5 bytes: 10 of 40 makes 2 copies; B 30 of 40: 15 copies
    (('aa', 4), ('bb', 15))

Out of scope: the inference (``mixture``). The training data is the *train* half of each text
(:func:`~bpe.analysis.samples.halves`) when the inference is to be honest: judged on the other half,
it meets text the tokenizer never saw, as the paper's does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..errors import BpeError
from ..text.corpus import Corpus
from ..training.settings import TrainSettings
from ..training.trace import Trace
from ..training.trainer import train

TRAINING_BYTES = 100_000_000
"""The size of the corpus a mix stands for: large enough that a word seen once in a category weighted
5 % still counts about 125 times, so rounding to whole counts moves nothing."""
PRETOKENIZER = "gpt4"
"""The split of the runs trained here (GPT-4's regex, as most tokenizers since use a form of)."""


def mixed_corpus(
    texts: Mapping[str, str], proportions: Mapping[str, float], *, pretokenizer: str = PRETOKENIZER,
    scale: int = TRAINING_BYTES,
) -> Corpus:
    """The word counts of a corpus of ``scale`` bytes mixed from ``texts`` in ``proportions`` (of bytes)."""
    check_proportions(proportions, texts)
    counts: Counter[str] = Counter()
    alphabet: set[str] = set()
    for name, share in proportions.items():
        if share == 0:
            continue
        part = Corpus.from_text(texts[name], pretokenizer=pretokenizer)
        copies = share * scale / len(texts[name].encode("utf-8"))
        for word, count in part.words:
            counts[word] += round(count * copies)
        alphabet.update(part.alphabet)
    return Corpus(tuple((word, count) for word, count in counts.items() if count > 0), "".join(sorted(alphabet)))


def check_proportions(proportions: Mapping[str, float], texts: Mapping[str, str]) -> None:
    """A :class:`~bpe.errors.BpeError` unless ``proportions`` are shares of named, non-empty texts summing to 1."""
    unknown = [name for name in proportions if name not in texts]
    if unknown:
        raise BpeError(f"no text for {', '.join(map(repr, unknown))}: give each category of the mix its text")
    if any(not 0 <= share <= 1 for share in proportions.values()) or abs(sum(proportions.values()) - 1) > 1e-6:
        raise BpeError(f"the proportions must be shares from 0 to 1 that sum to 1, got {dict(proportions)}")
    empty = [name for name, share in proportions.items() if share and not texts[name].strip()]
    if empty:
        raise BpeError(f"the text of {', '.join(map(repr, empty))} is empty: a category in the mix needs some text")


def train_on_mix(
    texts: Mapping[str, str], proportions: Mapping[str, float], *, merges: int, pretokenizer: str = PRETOKENIZER,
) -> Trace:
    """A byte-level run of ``merges`` merges on :func:`mixed_corpus` (first-seen ties, as the app's runs)."""
    settings = TrainSettings(unit="byte", pretokenizer=pretokenizer, merges=merges)
    return train(mixed_corpus(texts, proportions, pretokenizer=pretokenizer), settings)
