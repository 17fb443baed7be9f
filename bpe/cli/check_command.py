"""``python -m bpe check``: where a learner's merges part from the reference, and why.

Scope: the subcommand's arguments, help and output; ``bpe/cli/commands.py`` only registers it. The corpus
and every training setting are read by the argument helpers the ``train`` command uses too
(``bpe/cli/arguments.py``), so the two commands cannot drift apart.

    python -m bpe check --merges merges.txt --preset cs336 --json
    python -m bpe check --merges vocab.bpe --file corpus.txt --tie-break lexicographic-max --vocab-size 1000
    python -m bpe check --merges my.model --preset python-docs --guess-settings
    python -m bpe check --command "python my_trainer.py 100" --file corpus.txt --tie-break lexicographic-max

Defaults that differ from ``train``: ``--min-frequency`` is 1 (a learner's loop runs its number of
merges whatever the counts), the number of merges is the learner's, and ``--vocab-size`` is the
size their trainer was asked for (to say whether the list stops short or runs on).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from ..checking.compact import PairStat
from ..checking.diagnose import UNEXPLAINED, CheckResult, check_merges
from ..checking.learner import merge_shapes, read_learner_merges
from ..checking.report import check_report, shown_pair, shown_word
from ..checking.search import CheckCorpus
from ..formats.bounded_import import import_tokenizer_limited
from ..text.local_files import read_file
from .arguments import UsageError, add_train_arguments, corpus_from_args, settings_from_args
from .learner_program import run_program

TRAINER_SECONDS = 120.0
"""How long your trainer (``--command``) may take on the corpus."""

_GUESSABLE = ("unit", "pretokenizer", "end_of_word", "end_of_word_mode", "tie_break")
PURPOSE = ("Compare the merges your own BPE trainer learned with the reference trained on the same corpus: how "
           "many match from the start, the first difference with both trainings' counts, and the likeliest cause "
           "(a classic mistake or another setting) with its fix.")
EXAMPLE = """worked example (a learner who breaks ties by the first pair met; CS336 takes the greater pair):
  printf 'e s\\nes t\\nl o\\n' > merges.txt
  python -m bpe check --merges merges.txt --preset cs336
  0 of your 3 merges match the reference from the start (settings: unit byte, pre-tokenizer whitespace, ...)
  verdict (explained): Merge 1 is a tie: 2 pairs occur 9 times (s + t, e + s). ... it takes the pair that occurs first in the text (rule first-seen)
  first difference at merge 1 (a tie of 2), counts in the reference's training:
    yours:     e + s  count 9  in newest x6, widest x3
    reference: s + t  count 9  in newest x6, widest x3
  [tie-break] ... Re-training with ties broken by first-seen: this reproduces all 3 of your merges. Fix (the pick): ..."""


def _epilog() -> str:
    shapes = [f"  {shape.name:<12} {shape.title}: {shape.example}" for shape in merge_shapes().values()]
    return "\n".join(["merges files read (--merges), recognized in this order (--merges-format chooses one):", *shapes,
                      "  a pickle is never loaded (it can run code): the refusal says how to write JSON instead", "",
                      EXAMPLE])


def corpus_text(text: str | None, words) -> str:
    """The corpus as a trainer reads it on its standard input: the text, or a word table written out
    word by word (each word as many times as it counts, in the table's order, a line per word)."""
    if text is not None:
        return text
    return "\n".join(" ".join([word] * count) for word, count in words.items())


def _merges(args: argparse.Namespace, text: str | None, words):
    """The learner's merges: their file (``--merges``), or what their trainer (``--command``) prints."""
    if (args.merges_file is None) == (args.command is None):
        raise UsageError("give exactly one of --merges or --command")
    if args.merges_file is not None:
        data, name = read_file(args.merges_file), args.merges_file
    else:
        data = run_program(args.command, corpus_text(text, words).encode("utf-8"), what="the corpus",
                           timeout_s=TRAINER_SECONDS)
        name = "your trainer's output"
    return read_learner_merges(data, name=name, shape=args.merges_format, read_tokenizer=import_tokenizer_limited)


def _check(args: argparse.Namespace) -> None:
    settings = settings_from_args(args)
    if args.min_frequency is None:
        settings = replace(settings, min_frequency=1)
    keep = []
    if args.guess_settings:
        given = [name for name in _GUESSABLE if getattr(args, name) is not None]
        if given:
            raise UsageError(f"--guess-settings searches the settings itself: drop --{given[0].replace('_', '-')}")
        keep = [name for name, kept in (("special_tokens", args.special), ("min_frequency", args.min_frequency)) if kept]
    text, words = corpus_from_args(args)
    merges = _merges(args, text, words)
    started, cpu = time.perf_counter(), time.process_time()
    result = check_merges(merges.pairs, CheckCorpus(text=text, words=words), settings, guess=args.guess_settings,
                          keep=keep, prefer=merges.hints)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    if args.json:
        print(json.dumps(check_report(result, shape=merges.shape, elapsed_s=elapsed, cpu_s=cpu), ensure_ascii=False))
        return
    for line in _text_lines(result):
        print(line)
    print(f"best match: {result.best.label}, {result.best.matching:,} merges; {elapsed:.2f} s")


def _stat(stat: PairStat | None) -> str:
    if stat is None:
        return "no pair left"
    count = "unknown (out of time)" if stat.count is None else f"{stat.count:,}"
    where = ", ".join(f"{shown_word(word)} x{weight:,}" for word, weight, _ in stat.words)
    return f"{shown_pair(stat.spelled)}  count {count}" + (f"  in {where}" if where else "")


def _text_lines(result: CheckResult) -> list[str]:
    """What ``check`` prints without ``--json``: every token in the app's notation."""
    s = result.settings
    lines = [f"{result.matching:,} of your {result.total:,} merges match the reference from the start "
             f"({'guessed ' if result.guessed else ''}settings: unit {s.unit}, pre-tokenizer {s.pretokenizer}, "
             f"tie-break {s.tie_break}, end-of-word {s.end_of_word or 'none'}"
             f"{' ' + s.end_of_word_mode if s.end_of_word else ''}, special tokens "
             f"{', '.join(s.special_tokens) or 'none'}, min-frequency {s.min_frequency})"]
    if result.guess is not None and result.guess.quality != "poor":  # a poor guess is said in the verdict
        lines.append(result.guess.sentence())
    lines.append(f"verdict ({result.verdict.kind}): {result.verdict.headline}")
    if also := result.verdict.alternatives_sentence(result.best.label):
        lines.append(also)
    d = result.divergence
    if d is not None:
        tie = f" (a tie of {d.tie_count})" if d.tie_count > 1 else ""
        lines += [f"first difference at merge {d.step:,}{tie}, counts in the reference's training:",
                  f"  yours:     {_stat(d.theirs)}", f"  reference: {_stat(d.ours)}"]
        if result.yours is not None:
            lines += [f"the same step in your training (re-trained with {result.yours.retrained_with}):",
                      f"  yours:     {_stat(result.yours.yours)}", f"  reference: {_stat(result.yours.reference)}"]
    lines += [f"[{cause.code}] {cause.message}" for cause in result.diagnosis if cause.code != UNEXPLAINED]
    note = result.count_note()
    return lines + ([note] if note else [])


def add_check_command(commands) -> None:
    """Register ``check`` on the CLI's subcommands."""
    check_cmd = commands.add_parser(
        "check", help="compare your merges with the reference and diagnose the difference", description=PURPOSE,
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check_cmd.add_argument("--merges", dest="merges_file", metavar="PATH",
                           help="the merges your trainer wrote, in any shape listed below")
    check_cmd.add_argument("--command", metavar="CMD",
                           help="run your trainer instead: the corpus on its standard input, its merges (any shape "
                                f"below) on its standard output, within {TRAINER_SECONDS:g} s")
    check_cmd.add_argument("--merges-format", choices=list(merge_shapes()), metavar="SHAPE",
                           help="read --merges as this shape (a name below) instead of recognizing it")
    add_train_arguments(check_cmd, size=False)  # the number of merges is the learner's
    check_cmd.add_argument("--vocab-size", type=int, metavar="N",
                           help="the vocabulary size your trainer was asked for (base tokens + merges + special "
                                "tokens): says whether your list stops short or runs on")
    check_cmd.add_argument("--guess-settings", action="store_true",
                           help="you do not know your settings: find the ones that reproduce your merges (special "
                                "tokens and --min-frequency, if given, are kept), then diagnose the rest")
    check_cmd.add_argument("--json", action="store_true")
    check_cmd.set_defaults(run=_check)
