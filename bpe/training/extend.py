"""Extend a tokenizer: continue training it on new text, its merges and ids kept as they are.

What Hugging Face, SentencePiece and subword-nmt users keep asking for (a new language, a code
domain) is one call here::

    >>> from bpe.pretrained.registry import load_pretrained
    >>> gpt2 = load_pretrained("gpt2")
    >>> trace = extend(gpt2, "नमस्ते दुनिया नमस्ते दुनिया नमस्ते", merges=20)
    >>> len(trace.steps), trace.steps[0].new_id, trace.token_text(50257)    # ids after GPT-2's 50,257 tokens
    (13, 50257, 'न')
    >>> extended = gpt2.continued(trace, name="gpt2+hindi")
    >>> len(gpt2.encode(" नमस्ते")), len(extended.encode(" नमस्ते")), extended.encode("hello") == gpt2.encode("hello")
    (12, 4, True)

The run is an ordinary trace (:func:`~bpe.training.trainer.train` with a start state, :mod:`~bpe.training.start_state`):
its merges come after the old ones, ranked after them, so text the new merges never touch
encodes exactly as before, and every old id keeps its token. What it costs a model: each new id
needs a new row in the embedding matrix (and in the output layer, unless the two are tied),
learned before the model can use it.

Settings that must match the old tokenizer (unit, pre-tokenizer, end-of-word marker) are read from
it; the others (how many merges, the tie rule, the minimum frequency) are arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..text.corpus import Corpus
from .settings import TrainSettings
from .start_state import UNUSED, StartState
from .trace import Trace
from .trainer import train


def extension_settings(
    tokenizer: Tokenizer, *, merges: int | None = None, vocab_size: int | None = None, tie_break: str = "first-seen",
    min_frequency: int = 2,
) -> TrainSettings:
    """The settings of a run that continues ``tokenizer``: its unit, split and marker, and the options."""
    return TrainSettings(
        unit=tokenizer.unit, pretokenizer=tokenizer.pretokenizer.name, end_of_word=tokenizer.end_of_word,
        end_of_word_mode=tokenizer.end_of_word_mode, tie_break=tie_break, merges=merges, vocab_size=vocab_size,
        min_frequency=min_frequency,
    )


def extension_corpus(tokenizer: Tokenizer, text: str) -> Corpus:
    """``text`` split as ``tokenizer`` splits it, its special-token text cut out (never merged), unless
    the tokenizer reads special-token text as plain text (SentencePiece's ``<s>``): then only the
    tokens it cuts from every text (a SentencePiece model's user-defined pieces, ``[REFERENCE_DOC_0]``)."""
    cut = tuple(tokenizer.user_defined) if tokenizer.specials_in_text == "plain" else tuple(tokenizer.special_tokens)
    return Corpus.from_text(text, pretokenizer=tokenizer.pretokenizer.name, special_tokens=cut)


def extend(
    tokenizer: Tokenizer,
    text: str | Corpus,
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    tie_break: str = "first-seen",
    min_frequency: int = 2,
    name: str = "",
    progress: Callable[[int, int], None] | None = None,
    time_limit_s: float | None = None,
) -> Trace:
    """Continue training ``tokenizer`` on ``text`` (or a word table's :class:`Corpus`).

    ``merges`` new merges at most (10 if neither it nor ``vocab_size``, the size of the whole new
    vocabulary, is given). ``name`` names the start in the trace (the tokenizer's name by default).
    """
    settings = extension_settings(
        tokenizer, merges=merges, vocab_size=vocab_size, tie_break=tie_break, min_frequency=min_frequency,
    )
    corpus = text if isinstance(text, Corpus) else extension_corpus(tokenizer, text)
    return train(
        corpus, settings, start=StartState.of(tokenizer, name=name), progress=progress, time_limit_s=time_limit_s,
    )


def portable(trace: Trace) -> Trace:
    """``trace`` (an extension's) without the old vocabulary it continues, which :func:`reattached` puts back.

    Why: a job's worker sends the run to the page (:mod:`bpe.teaching.jobs`), and the old vocabulary is
    most of it: Llama 3's 128,256 tokens made a pickle of 8 MB that took seconds to write and half a second
    to read in the page's thread. The page holds that tokenizer already.
    """
    start = trace.start
    if start is None:
        raise BpeError("only a run that continues a tokenizer has an old vocabulary to leave out")
    return replace(trace, base=trace.base[len(trace.base) - len(start.added):],
                   start=replace(start, base={}, merges=(), special_tokens={}, fallback_bytes={}, whole_only={}))


def reattached(trace: Trace, tokenizer: Tokenizer) -> Trace:
    """The whole run of :func:`portable`'s ``trace``, given the ``tokenizer`` it continued.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> gpt2 = load_pretrained("gpt2")
    >>> trace = extend(gpt2, "नमस्ते दुनिया नमस्ते दुनिया नमस्ते", merges=20)
    >>> reattached(portable(trace), gpt2) == trace
    True
    """
    start = StartState.of(tokenizer, name=trace.start.name, added=trace.start.added)
    tokens = tokenizer.tokens
    old = tuple(tokens.get(token_id, UNUSED) for token_id in range(max(tokens, default=-1) + 1))  # StartState.tokens_by_id
    return replace(trace, base=(*old, *trace.base), start=start)
