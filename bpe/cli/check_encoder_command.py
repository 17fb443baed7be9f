"""``python -m bpe check-encode`` (``bpe-lab check-encode``): where your encoder's ids part from the
tokenizer's, and which classic mistake makes them.

Scope: the subcommand's arguments, help and output; ``bpe/cli/commands.py`` only registers it. The
tokenizer is a pretrained one, a BPE Lab JSON file, any one-file format the registry reads, or a
merges file your own trainer wrote (numbered as minbpe numbers them). The ids come from a file
(``--ids``: JSON or JSON Lines of texts with their ids) or from running your encoder
(``--command``: it reads a text on standard input and prints its ids), on the probe texts or your
own (``--texts``, one a line).

    python -m bpe check-encode --pretrained gpt2 --ids my_ids.json
    python -m bpe check-encode --merges merges.txt --command "python my_bpe.py encode" --json
"""

from __future__ import annotations

import argparse
import json

from ..checking.encode_cases import (
    EXAMPLE, EncodeCase, checked_cases, probe_texts, read_cases, text_lines, tokenizer_from_file,
)
from ..checking.encode_check import UNEXPLAINED, EncodeCheckResult, check_encoder, encode_report
from ..checking.encode_rules import MODES
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..pretrained.registry import PRETRAINED_NAMES, load_pretrained
from ..text.local_files import read_file
from ..text.pretokenize import NAMED_PATTERNS
from ..tokens.ids import parse_ids
from .arguments import UsageError
from .learner_program import run_program

COMMAND_SECONDS = 10.0
"""How long your encoder may take on one text."""
PURPOSE = ("Compare the ids your own BPE encoder gives with the tokenizer's: how many texts match, the first "
           "difference token by token, and the likeliest cause (a classic mistake: merging left to right instead of "
           "by rank, longest match, no pre-tokenization split, special tokens, characters for bytes, ids off by one...) "
           "with its fix.")
EPILOG = f"""--ids reads a JSON list of texts with their ids, e.g. {EXAMPLE}
(or [text, ids] pairs, a {{text: ids}} object, or JSON Lines of either).
--command runs your encoder once per text: the text on its standard input, its ids on standard output
(a JSON list, or numbers separated by spaces or commas), within {COMMAND_SECONDS:g} s a text.

worked example (an encoder that merges the first pair it meets that has a merge):
  python -m bpe check-encode --tokenizer suite.json --command "python my_bpe.py folder" --batch
  6 of 10 texts encode as the tokenizer does (the suite's tokenizer; special-token text read as special tokens)
  verdict (explained): Your encoder has merged left to right, not by rank (the pick): re-encoding with ...
  first difference: text 4 ('·Все·люди·и·права,·ίσοι·στην'), token 18, at character 23
    yours:     ·σ‹cf› ‹84› η ν
    reference: ·σ τ η ν
  [left-to-right] ... Fix (the pick): merge the pair with the lowest rank first ..."""


def _tokenizer(args: argparse.Namespace) -> Tokenizer:
    if args.pretrained is not None:
        return load_pretrained(args.pretrained)
    path = args.tokenizer or args.merges_file
    return tokenizer_from_file(read_file(path), name=path, pretokenizer=args.pretokenizer,
                               special_tokens=tuple(args.special or ()))


def run_encoder(command: str, text: str, *, timeout_s: float = COMMAND_SECONDS) -> tuple[int, ...]:
    """Your encoder's ids for ``text``: ``command`` run with ``text`` on its standard input."""
    out = run_program(command, text.encode("utf-8"), what=repr(text[:40]), timeout_s=timeout_s)
    try:
        return tuple(parse_ids(out.decode("utf-8", errors="replace")))
    except BpeError as error:
        raise BpeError(f"{command!r} printed something that is not ids for {text[:40]!r}: {error}") from None


def run_encoder_batch(command: str, texts: list[str], *, timeout_s: float = COMMAND_SECONDS) -> list[tuple[int, ...]]:
    """Your encoder's ids for every text at once: ``command`` reads a JSON list of texts on its standard
    input and prints a JSON list of id lists, one per text."""
    out = run_program(command, json.dumps(texts, ensure_ascii=False).encode("utf-8"), what=f"{len(texts)} texts",
                      timeout_s=timeout_s * max(1, len(texts)))
    try:
        value = json.loads(out)
    except ValueError:
        value = None
    if not isinstance(value, list) or len(value) != len(texts):
        raise BpeError(f"{command!r} printed {out[:60]!r}: with --batch it prints a JSON list of {len(texts)} id lists, "
                       "one per text, e.g. [[31373, 995], [40]]")
    try:
        return [tuple(parse_ids(json.dumps(ids))) for ids in value]
    except BpeError as error:
        raise BpeError(f"{command!r} printed a list whose items are not id lists: {error}") from None


def _cases(args: argparse.Namespace, tokenizer: Tokenizer) -> list[EncodeCase]:
    if args.ids_file:
        return read_cases(read_file(args.ids_file), name=args.ids_file)
    if args.texts_file:
        texts = text_lines(read_file(args.texts_file).decode("utf-8", errors="replace"))
    else:
        texts = probe_texts(tokenizer)
    if args.batch:
        return checked_cases([EncodeCase(text, ids) for text, ids in zip(texts, run_encoder_batch(args.command, texts))],
                             "the texts")
    return checked_cases([EncodeCase(text, run_encoder(args.command, text)) for text in texts], "the texts")


def text_lines(result: EncodeCheckResult, title: str) -> list[str]:
    """What ``check-encode`` prints without ``--json``: every token in the app's notation."""
    reading = "special tokens" if result.mode == "allowed" else "plain text"
    lines = [f"{result.matching} of {result.total} texts encode as the tokenizer does ({title}; special-token text "
             f"read as {reading})", f"verdict ({result.verdict_kind}): {result.headline}"]
    if result.alternatives and result.verdict_kind == "explained":
        against = result.best.label if result.best else "it"
        lines.append("cannot be told apart by your texts: " + "; ".join(a.sentence(against) for a in result.alternatives))
    d = result.difference
    if d is not None:
        more = " ..." if len(d.yours) > 8 or len(d.reference) > 8 else ""
        lines += [f"first difference: text {d.case + 1} ({d.text[:60]!r}), token {d.token}, at character {d.where}",
                  f"  yours:     {' '.join(d.yours_shown[:8])}{more}", f"  reference: {' '.join(d.reference_shown[:8])}{more}"]
    return lines + [f"[{cause.code}] {cause.message}" for cause in result.diagnosis if cause.code != UNEXPLAINED]


def _check_encode(args: argparse.Namespace) -> None:
    if (args.ids_file is None) == (args.command is None):
        raise UsageError("give exactly one of --ids or --command")
    if args.texts_file and not args.command:
        raise UsageError("--texts goes with --command (with --ids, the file holds the texts)")
    tokenizer = _tokenizer(args)
    result = check_encoder(tokenizer, _cases(args, tokenizer), mode=args.special_tokens)
    if args.json:
        print(json.dumps(encode_report(result), ensure_ascii=False))
        return
    for line in text_lines(result, tokenizer.name or "your tokenizer"):
        print(line)


def add_check_encode_command(commands) -> None:
    """Register ``check-encode`` on the CLI's subcommands."""
    command = commands.add_parser(
        "check-encode", help="compare your encoder's ids with the tokenizer's and diagnose the difference",
        description=PURPOSE, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    choice = command.add_mutually_exclusive_group(required=True)
    choice.add_argument("--pretrained", choices=PRETRAINED_NAMES, help="a tokenizer shipped with an installed package")
    choice.add_argument("--tokenizer", metavar="PATH", help="a tokenizer file: BPE Lab JSON or another library's one-file format")
    choice.add_argument("--merges", dest="merges_file", metavar="PATH",
                        help="the merges your own trainer wrote (any shape `check` reads), numbered as minbpe does")
    command.add_argument("--pretokenizer", default="gpt2", choices=[*NAMED_PATTERNS], metavar="NAME",
                         help="the split of a merges file or a format that does not store one (default gpt2)")
    command.add_argument("--special", action="append", metavar="TOKEN",
                         help="a special token after a merges file's tokens (repeatable)")
    command.add_argument("--ids", dest="ids_file", metavar="PATH", help="your encoder's ids: JSON or JSON Lines, see below")
    command.add_argument("--command", metavar="CMD", help="run your encoder: the text on standard input, ids on standard output")
    command.add_argument("--batch", action="store_true",
                         help="with --command: run your encoder once, a JSON list of the texts on its standard input, "
                              "a JSON list of their id lists on its standard output")
    command.add_argument("--texts", dest="texts_file", metavar="PATH",
                         help="with --command: your texts, one a line (default: probe texts that show each mistake)")
    command.add_argument("--special-tokens", choices=list(MODES), default="allowed",
                         help="read special-token text as special tokens (default) or as plain text")
    command.add_argument("--json", action="store_true")
    command.set_defaults(run=_check_encode)
