"""The lesson of the three cuts (:mod:`bpe.encoding.segmentation`) when a text shows none: a text
where they part, and why they agree where they do.

BPE's own cut, the fewest tokens and the longest match agree on every word a run was trained on
(its merges were learned there, so its tokens tile those words the way the merges made them) and
on most texts of a small vocabulary. They part where a token BPE never makes at that place could
start there: in a new word spliced from the training words. :func:`parting_text` tries those, in
order, and returns the first whose cuts differ.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> sennrich = PRESETS["sennrich"]
    >>> tokenizer = Tokenizer.from_trace(train(sennrich.corpus(), sennrich.settings))
    >>> parting_text(tokenizer, ["low", "lower", "newest", "widest"])   # one of the words' ends after another's start
    'nest'
    >>> parting_text(tokenizer, ["low"]) is None
    True

Scope: finding the text (a bounded search) and saying why. Out of scope: cutting (the engine) and drawing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..encoding.segmentation import segment
from ..encoding.tokenizer import Tokenizer

TRIES = 3_000
"""Spliced texts tried at most (each is a word or two long: well under a second in all)."""
MAX_WORDS = 40
"""The training words the splices are made of (the first this many distinct ones)."""

AGREE = (
    "On this text the three cuts agree: BPE's own, the fewest tokens and the longest match make the same tokens. "
    "They agree on every word the run was trained on (its merges were learned on those words, so its tokens tile "
    "them as the merges made them), and a small vocabulary rarely leaves a choice elsewhere."
)


def parting_text(tokenizer: Tokenizer, words: Sequence[str], *, tries: int = TRIES) -> str | None:
    """A short text, spliced from ``words``, on which the three cuts differ; ``None`` if none of the
    first ``tries`` does."""
    for number, text in enumerate(_splices(words)):
        if number >= tries:
            return None
        if any(chunk.differs for chunk in segment(tokenizer, text)):
            return text
    return None


def _splices(words: Sequence[str]) -> Iterator[str]:
    """The words, then each start of one word joined to an end of another (shortest first)."""
    chosen = list(dict.fromkeys(word for word in words if word.strip()))[:MAX_WORDS]
    yield from chosen
    spliced = {left[:i] + right[j:] for left in chosen for right in chosen
               for i in range(1, len(left)) for j in range(1, len(right))}
    yield from sorted(spliced - set(chosen), key=lambda text: (len(text), text))
