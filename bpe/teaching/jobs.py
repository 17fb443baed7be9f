"""The pages' big work, as the job board's workers run it (:mod:`bpe.jobs`): a vocabulary's health, and a
tokenizer extended on new text with its files in every format.

Why apart: each is linear in the vocabulary (GPT-4o's 200,000 tokens tried one by one; seven formats of
Llama 3's 128,256 tokens written) and takes seconds to tens of seconds of CPU
(``benchmarks/tokenizer_matrix.py`` measures every one), so it runs in a worker, never in a page's thread.
A worker starts empty: it gets the tokenizer by :class:`TokenizerSource` (a pretrained name, read from the
merge cache in a fraction of a second, or BPE Lab JSON) and sends its results back as parts, each as soon
as it has it (an extension's run first, so the lesson can be drawn while its files are written).

    >>> from bpe.jobs.board import JobBoard
    >>> board = JobBoard(workers=1)
    >>> request = health_request(TokenizerSource("gpt2"), text="hello world")
    >>> view = board.ask("gpt2 health", request)
    >>> while not view.finished:
    ...     board.wait("gpt2 health", view, 1.0)
    ...     view = board.ask("gpt2 health", request)
    >>> len(view.parts["health"].never_emitted)    # as in bpe.encoding.vocab_health's own example
    49998
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_health import vocabulary_health
from ..formats.files import export_all
from ..jobs.board import JobRequest, Reporter
from ..pretrained.registry import load_pretrained
from ..training.extend import extend, portable
from .extension import cost_rows


@dataclass(frozen=True)
class TokenizerSource:
    """How a worker gets a tokenizer: a pretrained entry's name, or a tokenizer's BPE Lab JSON."""

    pretrained: str = ""
    json: str = ""

    @classmethod
    def written(cls, tokenizer: Tokenizer) -> "TokenizerSource":
        return cls(json=tokenizer.to_json())

    def load(self) -> Tokenizer:
        return load_pretrained(self.pretrained) if self.pretrained else Tokenizer.from_json(self.json)


def health_request(tokenizer: TokenizerSource, *, text: str | None = None, words: Sequence[str] | None = None) -> JobRequest:
    """The job of :func:`~bpe.encoding.vocab_health.vocabulary_health` (its one part: ``health``)."""
    return JobRequest(f"{__name__}:health_job", {"tokenizer": tokenizer, "text": text, "words": words})


def health_job(report: Reporter, *, tokenizer: TokenizerSource, text: str | None, words: Sequence[str] | None) -> None:
    report.progress(0.0, "reading the vocabulary")
    report.part("health", vocabulary_health(tokenizer.load(), text=text, words=words, progress=report.progress))


def extension_request(start: TokenizerSource, *, text: str, merges: int, min_frequency: int, name: str,
                      time_limit_s: float, priced: Mapping[str, tuple[str, str]]) -> JobRequest:
    """The job of :func:`~bpe.training.extend.extend`: its parts are ``trace`` (the run, without the old
    vocabulary: :func:`~bpe.training.extend.reattached` puts it back), ``costs`` (the
    :func:`~bpe.teaching.extension.cost_rows` of ``priced``, before and after) and ``files``
    (:func:`~bpe.formats.files.export_all` of the extended tokenizer)."""
    return JobRequest(f"{__name__}:extension_job", {
        "start": start, "text": text, "merges": merges, "min_frequency": min_frequency, "name": name,
        "time_limit_s": time_limit_s, "priced": dict(priced),
    })


def extension_job(report: Reporter, *, start: TokenizerSource, text: str, merges: int, min_frequency: int, name: str,
                  time_limit_s: float, priced: Mapping[str, tuple[str, str]]) -> None:
    report.progress(0.0, "reading the tokenizer")
    tokenizer = start.load()
    report.progress(0.05, f"learning up to {merges:,} new merges")
    trace = extend(tokenizer, text, merges=merges, min_frequency=min_frequency, name=name, time_limit_s=time_limit_s)
    report.part("trace", portable(trace))  # the page holds the old vocabulary: reattached there
    report.progress(0.3, "building the extended tokenizer")
    extended = tokenizer.continued(trace, name=f"{name} + new text")
    report.part("costs", cost_rows(tokenizer, extended, priced))
    report.part("files", export_all(extended, progress=lambda done, doing: report.progress(0.4 + 0.6 * done, doing)))

