"""``python -m bpe health``: a vocabulary's health, as the Vocabulary health page reads it.

The four groups counted (never emitted on the text, unreachable by any text, part of a character,
special), then each group's first tokens with what explains each: the same rows as the page's tables
(:mod:`bpe.notation.health_rows`), every token in the app's notation (``·`` a space).

    python -m bpe health --pretrained gpt2                  against python-docs, the page's sample
    python -m bpe health --pretrained gpt-4o --file my.txt --show 5
    python -m bpe health --preset sennrich --step 5         a run against its own training words, as the page's "Ours"
    python -m bpe health --tokenizer t.json --file corpus.txt --json      a run of yours (train --save t.json)
"""

from __future__ import annotations

import argparse
import json

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_health import vocabulary_health
from ..notation.health_rows import GROUP_NAMES, group_rows, group_sizes
from ..training.presets import PRESETS, get_preset, python_docs_text
from ..training.trainer import train
from .arguments import UsageError, add_tokenizer_choice, chosen_tokenizer, read_text_file

SHOWN = 10
"""Tokens listed per group unless ``--show`` says otherwise."""


def _measured(args: argparse.Namespace) -> tuple[Tokenizer, dict, str]:
    """The tokenizer, what :func:`~bpe.encoding.vocab_health.vocabulary_health` is given, and that in words."""
    if args.preset is not None:
        if args.text is not None or args.file is not None:
            raise UsageError("--preset is measured against its own training words: leave out --text and --file")
        preset = get_preset(args.preset)
        trace = train(preset.corpus(), preset.settings)
        step = len(trace.steps) if args.step is None else args.step
        if not 0 <= step <= len(trace.steps):
            raise UsageError(f"--step must be from 0 to {len(trace.steps)} (the run's merges), got {step}")
        words = [word for word, _ in trace.corpus.words]
        tokenizer = Tokenizer.from_trace(trace, step=step, name=f"the {args.preset} run")
        return tokenizer, {"words": words}, f"its own training words, at step {step:,}"
    if args.step is not None:
        raise UsageError("--step picks a step of a --preset's run")
    tokenizer = chosen_tokenizer(args)
    if args.text is not None and args.file is not None:
        raise UsageError("give --text or --file, not both")
    if args.text is not None:
        return tokenizer, {"text": args.text}, "the text given"
    if args.file is not None:
        return tokenizer, {"text": read_text_file(args.file)}, args.file
    return tokenizer, {"text": python_docs_text()}, "python-docs (CPython's documentation, 465 KB of English and code)"


def _health(args: argparse.Namespace) -> None:
    if args.show < 0:
        raise UsageError(f"--show must be 0 or more, got {args.show}")
    tokenizer, against, described = _measured(args)
    health = vocabulary_health(tokenizer, **against)
    sizes = group_sizes(health)
    rows = {group: group_rows(tokenizer, health, group, limit=args.show) for group in GROUP_NAMES}
    name = tokenizer.name or "the tokenizer"
    if args.json:
        groups = {group: {"count": sizes[group], "tokens": rows[group]} for group in GROUP_NAMES}
        print(json.dumps({"tokenizer": name, "n_vocab": tokenizer.n_vocab, "against": described, "groups": groups},
                         ensure_ascii=False))
        return
    print(f"{name}: {tokenizer.n_vocab:,} tokens, measured against {described}")
    for group in GROUP_NAMES:
        print(f"  {group:<20} {sizes[group]:>8,}")
    for group in (group for group in GROUP_NAMES if rows[group]):
        print(f"{group} (the first {len(rows[group]):,} of {sizes[group]:,}):")
        for row in rows[group]:
            details = "; ".join(f"{key} {value}" for key, value in row.items() if key not in ("id", "token", "bytes"))
            print(f"  {row['id']:>7}  {row['token']}" + (f"  ({details})" if details else ""))


def add_health_command(commands) -> None:
    """Register ``health`` on the CLI's subcommands."""
    health_cmd = commands.add_parser(
        "health", help="a vocabulary's health: tokens never used, unreachable, part of a character, special",
        description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    choice = add_tokenizer_choice(health_cmd)
    choice.add_argument("--preset", choices=list(PRESETS), help="a built-in example's run, against its own training words")
    health_cmd.add_argument("--step", type=int, help="with --preset: the tokenizer after this many merges (default: all)")
    health_cmd.add_argument("--text", help="the text to encode (default: python-docs, as the page)")
    health_cmd.add_argument("--file", metavar="PATH", help="a UTF-8 text file to encode instead")
    health_cmd.add_argument("--show", type=int, default=SHOWN, metavar="N", help=f"tokens listed per group (default {SHOWN})")
    health_cmd.add_argument("--json", action="store_true")
    health_cmd.set_defaults(run=_health)
