"""``python -m bpe encode --dropout P``: BPE-dropout from the command line.

Scope: the options (``--dropout``, ``--dropout-rule``, ``--seed``, ``--samples``), their checks, and
printing one sample or a count of many (``bpe.encoding.dropout`` does the work). ``bpe/cli/commands.py`` adds the options
to ``encode`` and hands this module a text's tokenizer; the ids of one sample are printed by ``cli``'s
own printer, given as ``print_ids``.

    python -m bpe encode --pretrained gpt2 --text " tokenization" --dropout 0.1 --seed 0
    python -m bpe encode --pretrained gpt2 --text " lower" --dropout 0.3 --seed 0 --samples 2000 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator

from ..encoding.dropout import DROPOUT_RULES, Dropout, sample_segmentations
from ..encoding.tokenizer import Tokenizer
from .arguments import UsageError, read_text_file


def add_dropout_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--dropout", type=float, metavar="P", help="BPE-dropout: skip each merge with probability P (0 to 1)")
    command.add_argument("--dropout-rule", choices=list(DROPOUT_RULES), default="hf",
                         help="hf: a skipped merge may come back after the next merge (Hugging Face); sentencepiece: "
                              "skipped for good (SentencePiece models only)")
    command.add_argument("--seed", type=int, help="with --dropout: the random seed, so a run can be repeated")
    command.add_argument("--samples", type=int, metavar="N", help="with --dropout: encode N times and count each segmentation")


def check_dropout_arguments(args: argparse.Namespace) -> None:
    if args.dropout is None and (args.seed is not None or args.samples is not None):
        raise UsageError("--seed and --samples go with --dropout P (the chance that each merge is skipped)")


def encode_with_dropout(args: argparse.Namespace, tokenizer: Tokenizer, allowed, *, print_ids: Callable[[Iterator[int]], None]) -> None:
    """One sample (``--seed`` reproduces it), or ``--samples N`` counted by segmentation, each with its
    exact probability when the text is short enough. A file is read whole."""
    started = time.perf_counter()
    text = args.text if args.text is not None else sys.stdin.read() if args.file == "-" else read_text_file(args.file)
    if args.samples is None:
        print_ids(iter(Dropout(tokenizer, p=args.dropout, seed=args.seed, rule=args.dropout_rule).encode(text, allowed_special=allowed)))
        return
    sample = sample_segmentations(
        tokenizer, text, p=args.dropout, samples=args.samples, seed=args.seed, rule=args.dropout_rule, allowed_special=allowed,
    )
    rows = [
        {"ids": list(seg.ids), "tokens": [tokenizer.token_text(i) for i in seg.ids], "count": seg.count, "probability": seg.probability}
        for seg in sample.segmentations
    ]
    if args.json:
        print(json.dumps({"plain": list(sample.plain), "segmentations": rows, "elapsed_s": time.perf_counter() - started}, ensure_ascii=False))
        return
    for row in rows:
        chance = "" if row["probability"] is None else f"  p={row['probability']:.4f}"
        print(f"{row['count']:>7}{chance}  {' | '.join(map(repr, row['tokens']))}")
    plain = len(sample.plain)
    print(f"{len(rows):,} segmentations in {args.samples:,} samples; without dropout: {plain:,} token{'s' * (plain != 1)}")
