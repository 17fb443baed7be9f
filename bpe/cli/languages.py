"""``train``'s parallel corpus: one text per language (``--language NAME=PATH``), the objective that
reads it (``--objective parity-aware``, the Parity-aware lab's run), and what a run on it prints.

    python -m bpe train --language en=en.txt --language hi=hi.txt --objective parity-aware --merges 300
    ...
    tokens per language, before -> after 300 merges: en 1,204 -> 601, hi 3,875 -> 1,262; Gini 0.263 -> 0.177

Each language's text is split alike and its words kept apart (:meth:`~bpe.text.corpus.Corpus.from_languages`),
so the trace records each language's tokens at every merge, whichever the objective; parity-aware
training lets the language that is the most tokens now choose each merge from its own counts.
"""

from __future__ import annotations

import argparse

from ..training.objectives import OBJECTIVES, gini
from ..training.trace import Trace
from .arguments import UsageError, read_text_file


def add_language_arguments(command: argparse.ArgumentParser) -> None:
    """A parallel corpus and the objective that reads it (the Parity-aware lab's run): read by
    :func:`~bpe.cli.arguments.settings_from_args` and :func:`language_texts`."""
    command.add_argument("--language", action="append", metavar="NAME=PATH",
                         help="a language's text, from a UTF-8 file: give it once per language for a parallel corpus "
                              "(the same text in each), which records each language's tokens at every merge")
    command.add_argument("--objective", choices=list(OBJECTIVES),
                         help="classic: the most frequent pair of the whole corpus; parity-aware: the most frequent pair "
                              "of the language that is the most tokens now (Foroutan et al. 2025; needs --language)")


def language_texts(args: argparse.Namespace) -> dict[str, str]:
    """``--language NAME=PATH``'s texts by language, in the order given."""
    texts: dict[str, str] = {}
    for spec in args.language:
        name, equals, path = spec.partition("=")
        if not equals or not name or not path:
            raise UsageError(f"--language takes NAME=PATH (e.g. --language en=en.txt), got {spec!r}")
        if name in texts:
            raise UsageError(f"--language {name} is given twice: give each language once")
        texts[name] = read_text_file(path)
    if len(texts) < 2:
        raise UsageError("a parallel corpus needs two languages or more: give --language NAME=PATH for each")
    return texts


def language_record(trace: Trace) -> dict:
    """``train --json``'s fields for a parallel corpus: each language's tokens before and after, and their Gini."""
    if not trace.languages:
        return {}
    before, after = trace.language_costs(0), trace.language_costs(len(trace.steps))
    return {"languages": {name: {"before": b, "after": a} for name, b, a in zip(trace.languages, before, after)},
            "gini": {"before": gini(before), "after": gini(after)}}


def language_line(trace: Trace) -> str:
    """What ``train`` prints last for a parallel corpus: each language's tokens before and after, and their Gini."""
    record = language_record(trace)
    costs = ", ".join(f"{name} {cost['before']:,} -> {cost['after']:,}" for name, cost in record["languages"].items())
    spread = record["gini"]
    return (f"tokens per language, before -> after {len(trace.steps):,} merges: {costs}; "
            f"Gini {spread['before']:.3f} -> {spread['after']:.3f}")
