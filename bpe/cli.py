"""``python -m bpe``: train, encode and decode from the command line.

Scope: argument parsing, reading inputs, printing results (text or ``--json``). The CLI is also
the contract for automated checks, so every bad input ends with one line on stderr and exit code
2, never a traceback.

    python -m bpe train --preset sennrich --json
    python -m bpe train --text "aaabdaaabac" --pretokenizer none --tie-break lexicographic-min --save t.json
    python -m bpe encode --tokenizer t.json --text "aaabdaaabac"
    python -m bpe decode --tokenizer t.json 258 100
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from .corpus import Corpus, parse_word_counts
from .errors import BpeError
from .presets import PRESETS, get_preset
from .settings import TrainSettings
from .tiebreak import TIE_BREAK_RULES
from .tokenizer import Tokenizer
from .trace import Trace
from .trainer import train


class UsageError(Exception):
    """Bad command-line usage (reported like any other input error)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(f"{message} (see {self.prog} --help)")


def _read_text_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a file") from None
    except UnicodeDecodeError as error:
        raise UsageError(f"{path} is not UTF-8 text (byte {error.start} is invalid); save it as UTF-8") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def _load_tokenizer(path: str) -> Tokenizer:
    return Tokenizer.from_json(_read_text_file(path))


def merge_records(trace: Trace) -> list[dict]:
    """The ``merges`` list of ``train --json``: one object per step."""
    records = []
    tokens = trace.tokens
    for step in trace.steps:
        records.append(
            {
                "step": step.step,
                "id": step.new_id,
                "left": trace.token_text(step.left),
                "right": trace.token_text(step.right),
                "token": trace.token_text(step.new_id),
                "left_hex": tokens[step.left].data.hex(),
                "right_hex": tokens[step.right].data.hex(),
                "token_hex": tokens[step.new_id].data.hex(),
                "count": step.count,
                "replacements": step.replacements,
                "ties": step.tie_count,
            }
        )
    return records


def _train(args: argparse.Namespace) -> None:
    sources = [args.preset, args.text, args.file, args.words]
    if sum(source is not None for source in sources) != 1:
        raise UsageError("give exactly one of --preset, --text, --file or --words")
    preset = get_preset(args.preset) if args.preset else None
    base = preset.settings if preset else TrainSettings()
    overrides = {
        name: value
        for name, value in (
            ("unit", args.unit), ("pretokenizer", args.pretokenizer), ("end_of_word", args.end_of_word),
            ("tie_break", args.tie_break), ("min_frequency", args.min_frequency),
        )
        if value is not None
    }
    if args.merges is not None or args.vocab_size is not None:
        overrides.update(merges=args.merges, vocab_size=args.vocab_size)
    if args.special:
        overrides["special_tokens"] = tuple(args.special)
    settings = TrainSettings.from_dict({**base.to_dict(), **overrides})

    if args.words is not None or (preset and preset.word_counts is not None):
        corpus = Corpus.from_word_counts(parse_word_counts(args.words) if args.words else preset.word_counts)
    else:
        text = args.text if args.text is not None else _read_text_file(args.file) if args.file else preset.corpus_text
        corpus = Corpus.from_text(text, pretokenizer=settings.pretokenizer, special_tokens=settings.special_tokens)

    started = time.perf_counter()
    trace = train(corpus, settings)
    elapsed = time.perf_counter() - started
    if args.save:
        _write(args.save, Tokenizer.from_trace(trace).to_json())
    if args.save_trace:
        _write(args.save_trace, trace.to_json())
    if args.json:
        print(
            json.dumps(
                {
                    "merges": merge_records(trace),
                    "stop_reason": trace.stop_reason,
                    "stop_detail": trace.stop_detail,
                    "vocab_size": trace.vocab_size(),
                    "elapsed_s": elapsed,
                    "settings": settings.to_dict(),
                },
                ensure_ascii=False,
            )
        )
        return
    for record in merge_records(trace):
        tie = f"  (tie of {record['ties']})" if record["ties"] > 1 else ""
        print(
            f"{record['step']:>5}  {record['left']!r} + {record['right']!r} -> {record['token']!r}"
            f"  id {record['id']}  count {record['count']}{tie}"
        )
    print(f"stopped: {trace.stop_detail}; vocabulary size {trace.vocab_size()}; {elapsed:.3f} s")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None


def _encode(args: argparse.Namespace) -> None:
    if (args.text is None) == (args.file is None):
        raise UsageError("give exactly one of --text or --file")
    tokenizer = _load_tokenizer(args.tokenizer)
    text = args.text if args.text is not None else _read_text_file(args.file)
    if args.allowed_special == "all":
        allowed: str | set[str] = "all"
    elif args.allowed_special in (None, "none"):
        allowed = set()
    else:
        allowed = set(args.allowed_special.split(","))
    started = time.perf_counter()
    ids = tokenizer.encode(text, allowed_special=allowed)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({"ids": ids, "elapsed_s": elapsed}))
    else:
        print(" ".join(map(str, ids)))


def _decode(args: argparse.Namespace) -> None:
    tokenizer = _load_tokenizer(args.tokenizer)
    ids = []
    for item in args.ids:
        try:
            ids.append(int(item))
        except ValueError:
            raise UsageError(f"{item!r} is not a token id: ids are whole numbers like 258") from None
    sys.stdout.write(tokenizer.decode(ids, errors=args.errors) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m bpe", description="BPE Lab: a step-traceable BPE trainer and tokenizer.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    train_cmd = commands.add_parser("train", help="learn merges and print them")
    train_cmd.add_argument("--preset", choices=list(PRESETS))
    train_cmd.add_argument("--text")
    train_cmd.add_argument("--file")
    train_cmd.add_argument("--words", help="a word table, e.g. low:5,lower:2")
    size = train_cmd.add_mutually_exclusive_group()
    size.add_argument("--merges", type=int)
    size.add_argument("--vocab-size", type=int)
    train_cmd.add_argument("--unit", choices=["byte", "char"])
    train_cmd.add_argument("--pretokenizer", help="none|whitespace|gpt2|gpt4|regex:PATTERN")
    train_cmd.add_argument("--end-of-word", metavar="SYMBOL")
    train_cmd.add_argument("--tie-break", choices=list(TIE_BREAK_RULES))
    train_cmd.add_argument("--min-frequency", type=int)
    train_cmd.add_argument("--special", action="append", metavar="TOKEN")
    train_cmd.add_argument("--save", metavar="PATH", help="write the tokenizer (BPE Lab JSON)")
    train_cmd.add_argument("--save-trace", metavar="PATH", help="write the full trace (BPE Lab JSON)")
    train_cmd.add_argument("--json", action="store_true")
    train_cmd.set_defaults(run=_train)

    encode_cmd = commands.add_parser("encode", help="text -> ids")
    encode_cmd.add_argument("--tokenizer", required=True, metavar="PATH")
    encode_cmd.add_argument("--text")
    encode_cmd.add_argument("--file")
    encode_cmd.add_argument("--allowed-special", metavar="all|none|TOKEN,...")
    encode_cmd.add_argument("--json", action="store_true")
    encode_cmd.set_defaults(run=_encode)

    decode_cmd = commands.add_parser("decode", help="ids -> text")
    decode_cmd.add_argument("--tokenizer", required=True, metavar="PATH")
    decode_cmd.add_argument("--errors", choices=["replace", "strict"], default="replace")
    decode_cmd.add_argument("ids", nargs="*", metavar="ID")
    decode_cmd.set_defaults(run=_decode)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        args.run(args)
    except (UsageError, BpeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
