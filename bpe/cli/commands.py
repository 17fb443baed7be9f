"""``python -m bpe``: train, encode and decode from the command line.

Scope: argument parsing, reading inputs, printing results (text or ``--json``). The CLI is also
the contract for automated checks, so every bad input ends with one line on stderr and exit code
2, never a traceback.

    python -m bpe train --preset sennrich --json
    python -m bpe train --text "aaabdaaabac" --pretokenizer none --tie-break lexicographic-min --save t.json
    python -m bpe train --from gpt2 --file hindi.txt --merges 500 --save gpt2-hindi.json   (extend GPT-2)
    python -m bpe encode --tokenizer t.json --text "aaabdaaabac"
    python -m bpe decode --tokenizer t.json 258 100
    python -m bpe encode --pretrained gpt2 --text "hello world"
    python -m bpe encode --pretrained gpt2 --text " tokenization" --dropout 0.1 --seed 0 --samples 1000
    python -m bpe train --preset python-docs --transition 1500 --merges 2000      (SuperBPE)
    python -m bpe train --language en=en.txt --language hi=hi.txt --objective parity-aware --merges 300
    python -m bpe health --pretrained gpt2      (vocabulary health, against python-docs; --text/--file: your own)
    python -m bpe encode --pretrained gpt2 --file big.txt      (streamed; --file - reads standard input)
    python -m bpe encode --pretrained o200k_base --text "hello world"     # or gpt-4o; cl100k_base or gpt-4
    python -m bpe export --tokenizer t.json --format hf --out tokenizer.json
    python -m bpe import --format gpt2 --in encoder.json,vocab.bpe --out t.json
    python -m bpe check --merges merges.txt --preset cs336 --json
    python -m bpe check-encode --pretrained gpt2 --ids my_ids.json
    python -m bpe lineage --a gpt-4 --b llama3      (bpe/cli/analysis_commands.py: also infer-mix)

Export file layout (``--out``): ``ours``, ``hf`` and ``tiktoken`` write the one file named;
``minbpe`` writes ``PREFIX.model`` and ``PREFIX.vocab`` (``--out PREFIX`` or ``--out PREFIX.model``,
as minbpe's ``save(prefix)``); ``gpt2`` writes ``DIR/encoder.json`` and ``DIR/vocab.bpe``
(``--out DIR``, created if missing). ``import`` always writes BPE Lab JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import partial

from ..encoding.streaming import read_text_chunks
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..formats import all_formats, tokenizer_format
from ..formats.bounded_import import import_tokenizer_limited
from ..pretrained.registry import PRETRAINED_NAMES, load_pretrained
from ..text.corpus import BOM, Corpus
from ..text.local_files import open_binary, read_file, write_text
from ..tokens.ids import is_digits, read_id
from ..training.extend import extension_corpus, extension_settings
from ..training.settings import TrainSettings
from ..training.start_state import StartState
from ..training.trace import Trace
from ..training.trainer import train
from . import app_command as cli_app
from .analysis_commands import add_analysis_commands
from .arguments import (
    UsageError, add_tokenizer_choice, add_train_arguments, chosen_tokenizer, corpus_from_args, load_tokenizer, note_bom,
    settings_from_args,
)
from .check_command import add_check_command
from .check_encoder_command import add_check_encode_command
from .dropout_command import add_dropout_arguments, check_dropout_arguments, encode_with_dropout
from .health_command import add_health_command
from .languages import add_language_arguments, language_line, language_record, language_texts


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(f"{message} (see {self.prog} --help)")


_PATH_OPTIONS = frozenset({"file", "tokenizer", "save", "save_trace", "out", "input"})
"""Options holding file names, which may be any bytes (Python hands them to open() unchanged)."""


def _check_arguments_are_utf8(args: argparse.Namespace) -> None:
    """Refuse text arguments holding bytes that are not UTF-8: Python keeps each such byte as a
    lone surrogate (``surrogateescape``), which no tokenizer can encode."""
    for dest, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if dest in _PATH_OPTIONS or not isinstance(item, str):
                continue
            where = next((i for i, char in enumerate(item) if "\ud800" <= char <= "\udfff"), None)
            if where is not None:
                name = "an ID" if dest == "ids" else "--" + dest.replace("_", "-")
                byte = ord(item[where]) - 0xDC00
                shown = f"byte 0x{byte:02x}" if 0x80 <= byte <= 0xFF else f"U+{ord(item[where]):04X}"
                raise UsageError(f"{name} is not UTF-8 text ({shown} at character {where}): pass UTF-8 text")


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
    start = None if args.start is None else _start_tokenizer(args)
    settings = settings_from_args(args) if start is None else _extension_settings(args, start)
    if args.transition is not None:
        settings = replace(settings, transition=args.transition)
    text, words = (None, None) if args.language else corpus_from_args(args)
    if args.language:
        if start is not None:
            raise UsageError("--from continues one tokenizer on one text: leave out --language")
        corpus = Corpus.from_languages(language_texts(args), pretokenizer=settings.pretokenizer,
                                       special_tokens=settings.cut_from_corpus)
    elif words is not None:
        corpus = Corpus.from_word_counts(words)
    elif start is not None:
        corpus = extension_corpus(start, text)
    else:
        corpus = Corpus.from_text(
            text, pretokenizer=settings.pretokenizer, special_tokens=settings.cut_from_corpus, second_split=settings.second_split,
        )

    started = time.perf_counter()
    trace = train(corpus, settings, start=None if start is None else StartState.of(start, name=args.start))
    elapsed = time.perf_counter() - started
    if args.save:
        Tokenizer.from_trace(trace).save(args.save)
    if args.save_trace:
        trace.save(args.save_trace)
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
                    **language_record(trace),
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
    if trace.languages:
        print(language_line(trace))


def _start_tokenizer(args: argparse.Namespace) -> Tokenizer:
    """``--from``: a pretrained tokenizer's name, else a BPE Lab tokenizer file (``train --save``'s)."""
    return load_pretrained(args.start) if args.start in PRETRAINED_NAMES else load_tokenizer(args.start)


def _extension_settings(args: argparse.Namespace, start: Tokenizer) -> TrainSettings:
    """A continued run's settings: the unit, split and marker of ``start``, the rest from the options."""
    fixed = [option for option in ("unit", "pretokenizer", "end_of_word", "end_of_word_mode", "special") if getattr(args, option)]
    if fixed or args.specials_as_text:
        shown = ", ".join("--" + option.replace("_", "-") for option in fixed or ["specials_as_text"])
        raise UsageError(f"--from keeps the unit, split, end-of-word marker and special tokens of the tokenizer it continues: leave out {shown}")
    settings_from_args(args)  # one corpus source, and the preset's settings if it has one
    return extension_settings(
        start, merges=args.merges, vocab_size=args.vocab_size, tie_break=args.tie_break or "first-seen",
        min_frequency=2 if args.min_frequency is None else args.min_frequency,
    )


def _encode(args: argparse.Namespace) -> None:
    if (args.text is None) == (args.file is None):
        raise UsageError("give exactly one of --text or --file")
    check_dropout_arguments(args)
    tokenizer = chosen_tokenizer(args)
    # not given: the tokenizer's own default (tiktoken's refusal; Qwen, DeepSeek encode special tokens)
    named = {"all": "all", "none": set()}
    allowed = args.allowed_special and named.get(args.allowed_special, set(args.allowed_special.split(",")))
    started = time.perf_counter()
    if args.dropout is not None:
        encode_with_dropout(args, tokenizer, allowed, print_ids=partial(_print_ids, as_json=args.json, started=started))
        return
    if args.text is not None:
        ids = iter(tokenizer.encode(args.text, allowed_special=allowed))
    else:  # streamed: a file of any size is read, encoded and printed a piece at a time
        stream = sys.stdin.buffer if args.file == "-" else open_binary(args.file)
        name = "standard input" if args.file == "-" else args.file
        with stream:
            chunks = read_text_chunks(stream, name=name, on_bom=lambda: note_bom(name))
            ids = tokenizer.encode_iterable(chunks, allowed_special=allowed)
            _print_ids(ids, as_json=args.json, started=started)
        return
    _print_ids(ids, as_json=args.json, started=started)


def _print_ids(ids: Iterator[int], *, as_json: bool, started: float) -> None:
    """Print ids as they come, one line or ``{"ids": [...], "elapsed_s": ...}``; bad input closes what is out."""
    write, opening, separator, printed = sys.stdout.write, '{"ids": [' if as_json else "", ", " if as_json else " ", False
    try:
        while batch := list(itertools.islice(ids, 65536)):
            write((separator if printed else opening) + separator.join(map(str, batch)))
            printed = True
    except BpeError as error:  # a streamed file's bad byte: valid JSON (with "error") or nothing, a whole line or none
        write((f'], "error": {json.dumps(str(error), ensure_ascii=False)}}}\n' if as_json else "\n") if printed else "")
        raise
    write(("" if printed else opening) + (f'], "elapsed_s": {json.dumps(time.perf_counter() - started)}}}\n' if as_json else "\n"))


def _decode(args: argparse.Namespace) -> None:
    tokenizer = chosen_tokenizer(args)
    ids = [read_id(item) for item in args.ids]  # ASCII digits only: int() would take '٣', '1_0', ' 7 '
    sys.stdout.write(tokenizer.decode(ids, errors=args.errors) + "\n")


def _export(args: argparse.Namespace) -> None:
    tokenizer = chosen_tokenizer(args)
    entry = tokenizer_format(args.format)
    files = entry.export(tokenizer)
    for path, text in zip(_export_paths(entry.file_names, args.out), files.values()):
        write_text(path, text)
        print(f"wrote {path}")
    if not entry.stores_pattern:
        stored = "the split pattern" + ("" if entry.stores_special_tokens else " or special tokens")
        print(
            f"note: {entry.title} does not store {stored}; this tokenizer splits with "
            f"{tokenizer.pretokenizer.name!r}"
            + (f" and has special tokens {tokenizer.special_tokens}" if not entry.stores_special_tokens and tokenizer.special_tokens else "")
            + f" (import with --pretokenizer {tokenizer.pretokenizer.name!r})"
        )


def _export_paths(file_names: Sequence[str], out: str) -> list[str]:
    """Where each of ``file_names`` goes: ``--out``; PREFIX + suffix when they share a stem (minbpe); else DIR/name."""
    if len(file_names) == 1:
        return [out]
    suffixes = [name[name.rfind("."):] for name in file_names]
    if len({name[: -len(suffix)] for name, suffix in zip(file_names, suffixes)}) == 1:
        prefix = out[: -len(suffixes[0])] if out.endswith(suffixes[0]) else out
        return [prefix + suffix for suffix in suffixes]
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the folder {out} for {' and '.join(file_names)}: {error.strerror}") from None
    return [os.path.join(out, name) for name in file_names]


def _import(args: argparse.Namespace) -> None:
    paths = [path for path in args.input.split(",") if path]
    special_tokens = {}
    for item in args.special or []:
        text, separator, token_id = item.rpartition("=")
        if not separator or not text or not is_digits(token_id):
            raise UsageError(f"cannot read --special {item!r}: write TEXT=ID, e.g. --special '<|endoftext|>=50256'")
        special_tokens[text] = int(token_id)
    tokenizer = import_tokenizer_limited(  # within an import's CPU and memory budget, as the app's imports
        format=args.format,
        files={path: read_file(path) for path in paths},
        pretokenizer=args.pretokenizer or "gpt2",
        special_tokens=special_tokens,
        name=args.name or "",
    )
    tokenizer.save(args.out)
    print(
        f"wrote {args.out}: {tokenizer.n_vocab} tokens ({len(tokenizer.merges)} merges, "
        f"{len(tokenizer.special_tokens)} special), pre-tokenizer {tokenizer.pretokenizer.name!r}"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m bpe", description="BPE Lab: a step-traceable BPE trainer and tokenizer.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    train_cmd = commands.add_parser("train", help="learn merges and print them")
    add_train_arguments(train_cmd)
    train_cmd.add_argument("--from", dest="start", metavar="NAME|PATH",
                           help="continue a tokenizer: a pretrained name (gpt2, qwen2.5...) or a BPE Lab tokenizer file; "
                                "its merges and ids are kept, the new ones numbered after them")
    train_cmd.add_argument("--save", metavar="PATH", help="write the tokenizer (BPE Lab JSON)")
    train_cmd.add_argument("--save-trace", metavar="PATH", help="write the full trace (BPE Lab JSON)")
    train_cmd.add_argument("--transition", type=int, metavar="T",
                           help="SuperBPE: after T merges, go on with the split lifted between words (superbpe), so merges "
                                "cross spaces (' of the')")
    add_language_arguments(train_cmd)
    train_cmd.add_argument("--json", action="store_true")
    train_cmd.set_defaults(run=_train)

    encode_cmd = commands.add_parser("encode", help="text -> ids")
    add_tokenizer_choice(encode_cmd)
    encode_cmd.add_argument("--text")
    encode_cmd.add_argument("--file", metavar="PATH", help="a UTF-8 text file, read and encoded a piece at a time; - for standard input")
    encode_cmd.add_argument("--allowed-special", metavar="all|none|TOKEN,...", help="left out: the tokenizer's own default (special-token text refused as tiktoken does; Qwen and DeepSeek encode it as special tokens)")
    add_dropout_arguments(encode_cmd)
    encode_cmd.add_argument("--json", action="store_true")
    encode_cmd.set_defaults(run=_encode)

    decode_cmd = commands.add_parser("decode", help="ids -> text")
    add_tokenizer_choice(decode_cmd)
    decode_cmd.add_argument("--errors", choices=["replace", "strict"], default="replace")
    decode_cmd.add_argument("ids", nargs="*", metavar="ID")
    decode_cmd.set_defaults(run=_decode)

    export_cmd = commands.add_parser("export", help="write a tokenizer in another library's format")
    add_tokenizer_choice(export_cmd)
    export_cmd.add_argument("--format", required=True, choices=(format_names := [f.name for f in all_formats()]))
    export_cmd.add_argument("--out", required=True, metavar="PATH", help="a file; PREFIX for minbpe, DIR for gpt2")
    export_cmd.set_defaults(run=_export)

    import_cmd = commands.add_parser("import", help="read another library's tokenizer into BPE Lab JSON")
    import_cmd.add_argument("--format", required=True, choices=format_names)
    import_cmd.add_argument("--in", dest="input", required=True, metavar="PATH[,PATH]",
                            help="gpt2 takes encoder.json,vocab.bpe (either order)")
    import_cmd.add_argument("--out", required=True, metavar="PATH", help="where to write the BPE Lab JSON")
    import_cmd.add_argument("--pretokenizer", metavar="none|whitespace|gpt2|gpt4|regex:PATTERN",
                            help="the split pattern, for tiktoken and gpt2 files, which do not store it (default gpt2)")
    import_cmd.add_argument("--special", action="append", metavar="TEXT=ID",
                            help="a special token, for tiktoken files, which do not store them")
    import_cmd.add_argument("--name")
    import_cmd.set_defaults(run=_import)
    cli_app.register(commands)
    add_check_command(commands)
    add_check_encode_command(commands)
    add_health_command(commands)
    add_analysis_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        _check_arguments_are_utf8(args)
        if getattr(args, "text", None) and args.text.startswith(BOM):  # as --file: the same ids for the same text
            note_bom("--text")
            args.text = args.text[len(BOM):]
        args.run(args)
        sys.stdout.flush()  # a full disk shows here, where it can be said, not at exit as a traceback
    except (UsageError, BpeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as other command-line tools do.
        _discard_stdout()
        return 1
    except OSError as error:
        if error.filename is not None:  # not the output: files by name fail as BpeError already
            raise
        _discard_stdout()  # what is left in the buffer can never be written either
        print(f"error: cannot write the output: {error.strerror} (stdout: `> /dev/full`, a full disk?)", file=sys.stderr)
        return 2
    return 0


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's own flush at exit has nothing to fail on."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
