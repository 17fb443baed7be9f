"""The analyses the app runs in a worker, each a function from a plain request to a plain result.

A request and a result are JSON-like data (names, numbers, texts), so a worker process can take
one and send the other back (the job board's, :mod:`bpe.jobs`: :func:`on_board`), the command line can print it, and a
server can share it between the sessions that ask the same. Each task reports its progress through
``progress(what, fraction)``.

* ``known-mix``: train on a mix of categories in chosen proportions, then infer the mix from the run's
  merges alone, after the first 100, 300, 1,000... merges (:data:`CHECKPOINTS`).
* ``pretrained-mix``: infer a pretrained tokenizer's mix from its first merges.
* ``family``: the pretrained tokenizers' family tree and the lineage of every two of them.

    >>> result = run_task("known-mix", {"categories": ["eng", "fra"], "own": {}, "truth": {"eng": 0.7, "fra": 0.3},
    ...                                  "merges": 100, "held_out": False}, progress=lambda what, done: None)
    >>> [round(result["estimates"][-1]["proportions"][name], 2) for name in ("eng", "fra")], result["estimates"][-1]["merges"]
    ([0.7, 0.3], 100)
"""

from __future__ import annotations

from types import MappingProxyType

from collections.abc import Callable, Mapping
from typing import Any

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..jobs.board import JobRequest
from ..jobs.budget import JobBudget
from ..limits import ANALYSIS_CPU_S, ANALYSIS_MEMORY_MB, ANALYSIS_WALL_S
from ..pretrained.registry import PRETRAINED, load_pretrained
from .family import family_facts
from .known_mix import train_on_mix
from .lineage import RankedVocabulary
from .merge_replay import sample_words
from .mixture import MixEstimate, Progress, estimate_from_words, mix_error
from .samples import category_texts, halves

BUDGET = JobBudget(cpu_s=ANALYSIS_CPU_S, memory_mb=ANALYSIS_MEMORY_MB, wall_s=ANALYSIS_WALL_S)
"""What one analysis may use, on the job board's worker or in the command line's own process."""

CHECKPOINTS = (100, 300, 1_000, 3_000, 10_000, 30_000)
"""After how many merges the known mix is inferred (those up to the run's length, and the run's length)."""


def known_mix(request: Mapping[str, Any], progress: Progress) -> dict:
    """``{categories: [keys], own: {name: text}, truth: {name: share}, merges, held_out}`` -> the truth,
    each checkpoint's estimate and its error. ``held_out``: train on one half of each text and infer from
    the other (:func:`~bpe.analysis.samples.halves`); else the samples are the very texts trained on."""
    texts = category_texts(tuple(request["categories"]), request.get("own"))
    train_texts, sample_texts = _split(texts, held_out=bool(request.get("held_out")))
    truth = {name: float(share) for name, share in request["truth"].items()}
    progress("Training on the mix", 0.0)
    trained = Tokenizer.from_trace(train_on_mix(train_texts, truth, merges=int(request["merges"])))
    words = {name: sample_words(trained, text) for name, text in sample_texts.items()}
    points = [point for point in CHECKPOINTS if point < len(trained.merges)] + [len(trained.merges)]
    estimates = []
    for index, point in enumerate(points):
        share = (index, len(points))

        def report(what: str, done: float, share: tuple[int, int] = share, point: int = point) -> None:
            progress(f"{what} (first {point:,} merges)", 0.05 + 0.95 * (share[0] + done) / share[1])

        estimate = estimate_from_words(trained, words, merges=point, progress=report)
        estimates.append(estimate_record(estimate) | {"error": mix_error(estimate.proportions, truth)})
    return {"truth": truth, "merges": len(trained.merges), "estimates": estimates, "held_out": bool(request.get("held_out"))}


def pretrained_mix(request: Mapping[str, Any], progress: Progress) -> dict:
    """``{name, categories: [keys], own: {name: text}, merges}`` -> the estimate from that many first merges."""
    name = request["name"]
    if name not in PRETRAINED:
        raise BpeError(f"unknown pretrained tokenizer {name!r}")
    progress(f"Reading {PRETRAINED[name].title}", 0.0)
    tokenizer = load_pretrained(name)
    texts = category_texts(tuple(request["categories"]), request.get("own"))
    words = {category: sample_words(tokenizer, text) for category, text in texts.items()}
    estimate = estimate_from_words(tokenizer, words, merges=int(request["merges"]),
                                   progress=lambda what, done: progress(what, 0.05 + 0.95 * done))
    return {"name": name} | estimate_record(estimate)


def family(request: Mapping[str, Any], progress: Progress) -> dict:
    """``{}`` -> every pretrained tokenizer's node in the family tree, and the lineage of every two compared."""
    interned: dict[bytes, int] = {}
    ranks: dict[str, tuple[int, ...]] = {}
    first_merges: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for index, name in enumerate(PRETRAINED):
        progress(f"Reading {PRETRAINED[name].title}", 0.6 * index / len(PRETRAINED))
        vocabulary = RankedVocabulary.of(load_pretrained(name), name=name)
        ranks[name] = tuple(interned.setdefault(token, len(interned)) for token in vocabulary.tokens)  # ids: 14 tables fit
        first_merges[name], sizes[name] = vocabulary.first_merge, len(vocabulary)
    progress("Comparing every two", 0.6)
    members, facts = family_facts(ranks, first_merges=first_merges)
    return {
        "members": [
            {"names": list(member.names), "parent": member.parent, "relation": member.relation, "kept": member.kept,
             "added": member.added, "size": member.size}
            for member in members
        ],
        "pairs": [
            {"a": a, "b": b, "common_prefix": fact.common_prefix, "relation": fact.relation, "shared": fact.shared,
             "only_a": len(fact.only_a), "only_b": len(fact.only_b), "reordered": fact.reordered}
            for (a, b), fact in facts.items()
        ],
    }


def _split(texts: Mapping[str, str], *, held_out: bool) -> tuple[dict[str, str], dict[str, str]]:
    if not held_out:
        return dict(texts), dict(texts)
    split = {name: halves(text) for name, text in texts.items()}
    return {name: pair[0] for name, pair in split.items()}, {name: pair[1] for name, pair in split.items()}


def estimate_record(estimate: MixEstimate) -> dict:
    """An estimate as plain data (the proportions, what was read and solved)."""
    return {
        "proportions": estimate.proportions, "merges": estimate.merges, "informative": estimate.informative,
        "constraints": estimate.constraints, "solves": estimate.solves, "merge_slack": estimate.merge_slack,
        "pair_slack": estimate.pair_slack, "gap": estimate.gap,
    }


TASKS: Mapping[str, Callable[[Mapping[str, Any], Progress], dict]] = MappingProxyType({
    "known-mix": known_mix, "pretrained-mix": pretrained_mix, "family": family,
})


def run_task(task: str, request: Mapping[str, Any], *, progress: Progress) -> dict:
    """One of :data:`TASKS` by name (in this process)."""
    if task not in TASKS:
        raise BpeError(f"unknown analysis {task!r}: use one of {', '.join(TASKS)}")
    return TASKS[task](request, progress)


def on_board(report, *, task: str, request: Mapping[str, Any]) -> None:
    """:func:`run_task` in a job board's worker (:mod:`bpe.jobs.worker`): its progress reported as it
    goes, its result sent as the job's one part, ``result``."""
    report.part("result", run_task(task, request, progress=lambda what, done: report.progress(done, what)))


def job_request(task: str, request: Mapping[str, Any]) -> JobRequest:
    """The job board's request for ``task`` on ``request``, within :data:`BUDGET`."""
    return JobRequest("bpe.analysis.tasks:on_board", {"task": task, "request": dict(request)}, BUDGET)
