"""``python -m bpe check``: where a learner's merges part from the reference, and why.

Scope: the subcommand's arguments and output; ``bpe/cli.py`` only registers it. The corpus and
every training setting are read by the argument helpers the ``train`` command uses too
(``bpe/cli_args.py``), so the two commands cannot drift apart.

    python -m bpe check --merges merges.txt --preset cs336 --json
    python -m bpe check --merges vocab.bpe --file corpus.txt --tie-break lexicographic-max
    python -m bpe check --merges my.model --preset python-docs --guess-settings

Defaults that differ from ``train``: ``--min-frequency`` is 1 (a learner's loop runs its number of
merges whatever the counts) and the number of merges is the learner's.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from ..cli_args import UsageError, add_train_arguments, corpus_from_args, settings_from_args
from ..local_files import read_file
from .diagnose import CheckCorpus, check_merges
from .learner import read_learner_merges, spelled_text
from .report import check_report

_GUESSABLE = ("unit", "pretokenizer", "end_of_word", "tie_break")


def _check(args: argparse.Namespace) -> None:
    merges = read_learner_merges(read_file(args.merges_file), name=args.merges_file)
    settings = settings_from_args(args)
    if args.min_frequency is None:
        settings = replace(settings, min_frequency=1)
    if args.guess_settings:
        given = [name for name in _GUESSABLE if getattr(args, name) is not None]
        if given:
            raise UsageError(f"--guess-settings searches the settings itself: drop --{given[0].replace('_', '-')}")
        settings = replace(settings, **{k: v for k, v in merges.hints.items() if k in _GUESSABLE})
    text, words = corpus_from_args(args)
    started = time.perf_counter()
    result = check_merges(merges.pairs, CheckCorpus(text=text, words=words), settings, guess=args.guess_settings)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps(check_report(result, shape=merges.shape, elapsed_s=elapsed), ensure_ascii=False))
        return
    print(f"{result.matching:,} of your {result.total:,} merges match the reference from the start "
          f"({'guessed ' if result.guessed else ''}settings: {_settings_line(result.settings)})")
    d = result.divergence
    if d is not None:
        print(f"first difference at merge {d.step}:")
        print(f"  yours:     {_pair(d.theirs.spelled)}  count {d.theirs.count}")
        if d.ours is not None:
            tie = f"  (a tie of {d.tie_count})" if d.tie_count > 1 else ""
            print(f"  reference: {_pair(d.ours.spelled)}  count {d.ours.count}{tie}")
    for cause in result.diagnosis:
        print(f"[{cause.code}] {cause.message}")
    print(f"best match: {result.best.label}, {result.best.matching:,} merges; {elapsed:.2f} s")


def _pair(pair) -> str:
    return f"{spelled_text(pair[0])!r} + {spelled_text(pair[1])!r}"


def _settings_line(settings) -> str:
    return (f"unit {settings.unit}, pre-tokenizer {settings.pretokenizer}, tie-break {settings.tie_break}, "
            f"end-of-word {settings.end_of_word or 'none'}, special tokens {list(settings.special_tokens) or 'none'}")


def add_check_command(commands) -> None:
    """Register ``check`` on the CLI's subcommands."""
    check_cmd = commands.add_parser("check", help="compare your merges with the reference and diagnose the difference")
    check_cmd.add_argument("--merges", dest="merges_file", required=True, metavar="PATH",
                           help="merges lines (GPT-2 or plain text), minbpe .model, tokenizer.json or BPE Lab JSON")
    add_train_arguments(check_cmd, size=False)  # the number of merges is the learner's
    check_cmd.add_argument("--guess-settings", action="store_true",
                           help="you do not know your settings: search them, then diagnose the rest")
    check_cmd.add_argument("--json", action="store_true")
    check_cmd.set_defaults(run=_check)
