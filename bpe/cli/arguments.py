"""The options commands share, and how they are read back: the corpus and every training setting
(``train`` and ``check``), and the tokenizer to use (``encode``, ``decode``, ``export``, ``health``),
so the commands cannot drift apart.

Scope: :func:`add_train_arguments` and the functions that read its options back
(:func:`settings_from_args`, :func:`corpus_from_args`), :func:`add_tokenizer_choice` and
:func:`chosen_tokenizer`, reading a text file named on the command line, and :class:`UsageError`. ``bpe/cli/commands.py`` and ``bpe/cli/check_command.py`` both import this
module and neither imports the other. Out of scope: the commands themselves.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping

from ..encoding.tokenizer import Tokenizer
from ..pretrained.model_names import encoding_for_model
from ..pretrained.registry import PRETRAINED_NAMES, load_pretrained
from ..text.corpus import BOM, decode_text_file, parse_word_counts
from ..text.local_files import read_file
from ..text.pretokenize import PRETOKENIZERS
from ..tokens.end_of_word import END_OF_WORD_MODES
from ..training.presets import PRESETS, get_preset
from ..training.settings import TrainSettings
from ..training.tiebreak import TIE_BREAK_RULES, tie_break_rule


class UsageError(Exception):
    """Bad command-line usage (reported like any other input error)."""


def read_text_file(path: str) -> str:
    """A UTF-8 text file named on the command line (a byte-order mark dropped, and said so on stderr)."""
    data = read_file(path)
    if data.startswith(BOM.encode()):
        note_bom(path)
    return decode_text_file(data, name=path)


def note_bom(where: str) -> None:
    """Tell the user a leading byte-order mark was dropped: the ids would otherwise differ unseen."""
    print(f"note: removed the byte-order mark (U+FEFF) at the start of {where}; it is not part of the text",
          file=sys.stderr)


def add_tokenizer_choice(command: argparse.ArgumentParser) -> argparse._MutuallyExclusiveGroup:
    """``--tokenizer PATH``, ``--pretrained NAME`` or ``--model NAME``, exactly one (:func:`chosen_tokenizer` reads
    it); the group is returned, for a command that offers one more choice."""
    choice = command.add_mutually_exclusive_group(required=True)
    choice.add_argument("--tokenizer", metavar="PATH", help="a BPE Lab tokenizer file")
    choice.add_argument("--pretrained", choices=PRETRAINED_NAMES, help="a tokenizer shipped with an installed package")
    choice.add_argument(
        "--model", metavar="NAME", help="the tokenizer a model uses, by the model's name (gpt-4o-mini, llama-3.1-8b, mistral-7b)",
    )
    return choice


def load_tokenizer(path: str) -> Tokenizer:
    """A BPE Lab tokenizer file (``train --save``'s)."""
    return Tokenizer.from_json(read_text_file(path))


def chosen_tokenizer(args: argparse.Namespace) -> Tokenizer:
    """The tokenizer of :func:`add_tokenizer_choice` (argparse makes sure exactly one is given)."""
    if args.pretrained is not None:
        return load_pretrained(args.pretrained)
    if args.model is not None:
        return encoding_for_model(args.model)
    return load_tokenizer(args.tokenizer)


def settings_from_args(args: argparse.Namespace) -> TrainSettings:
    """The settings of :func:`add_train_arguments`: the preset's (or the defaults), then each option given."""
    sources = {"--preset": args.preset, "--text": args.text, "--file": args.file, "--words": args.words}
    if hasattr(args, "language"):  # train's parallel corpus (add_language_arguments)
        sources["--language"] = args.language or None
    if sum(source is not None for source in sources.values()) != 1:
        raise UsageError(f"give exactly one of {', '.join(list(sources)[:-1])} or {list(sources)[-1]}")
    preset = get_preset(args.preset) if args.preset else None
    base = preset.settings if preset else TrainSettings()
    overrides = {
        name: value
        for name, value in (
            ("unit", args.unit), ("pretokenizer", args.pretokenizer), ("end_of_word", args.end_of_word),
            ("end_of_word_mode", args.end_of_word_mode),
            ("tie_break", args.tie_break), ("objective", getattr(args, "objective", None)),
            # not given: the minimum frequency of the trainer the rule reproduces (SentencePiece's is 0), if it says
            ("min_frequency", args.min_frequency if args.min_frequency is not None else tie_break_rule(args.tie_break or base.tie_break).min_frequency),
        )
        if value is not None
    }
    if args.merges is not None or args.vocab_size is not None:
        overrides.update(merges=args.merges, vocab_size=args.vocab_size)
    if args.special:
        overrides["special_tokens"] = tuple(args.special)
    if args.specials_as_text:
        overrides["specials_as_text"] = True
    return TrainSettings.from_dict({**base.to_dict(), **overrides})


def corpus_from_args(args: argparse.Namespace) -> tuple[str | None, Mapping[str, int] | None]:
    """``(text, None)`` or ``(None, word table)``: the corpus :func:`add_train_arguments` chose."""
    preset = get_preset(args.preset) if args.preset else None
    if args.words is not None or (preset and preset.word_counts is not None):
        return None, parse_word_counts(args.words) if args.words is not None else preset.word_counts
    return (args.text if args.text is not None else read_text_file(args.file) if args.file else preset.corpus_text), None


def add_train_arguments(command: argparse.ArgumentParser, *, size: bool = True) -> None:
    """The corpus and every training setting (read back by :func:`settings_from_args`, :func:`corpus_from_args`);
    ``size=False`` leaves out ``--merges``/``--vocab-size`` for a command that knows how many it wants."""
    command.add_argument("--preset", choices=list(PRESETS))
    command.add_argument("--text")
    command.add_argument("--file")
    command.add_argument("--words", help="a word table, e.g. low:5,lower:2")
    if size:
        sizes = command.add_mutually_exclusive_group()
        sizes.add_argument("--merges", type=int)
        sizes.add_argument("--vocab-size", type=int)
    else:
        command.set_defaults(merges=None, vocab_size=None)
    command.add_argument("--unit", choices=["byte", "char"])
    command.add_argument("--pretokenizer", help="|".join([*PRETOKENIZERS, "regex:PATTERN"]))
    command.add_argument("--end-of-word", metavar="SYMBOL")
    command.add_argument("--end-of-word-mode", choices=list(END_OF_WORD_MODES),
                         help="separate: the marker is its own symbol (the paper); attached: glued to the "
                              "last symbol, t</w> (subword-nmt, HF end_of_word_suffix)")
    command.add_argument("--tie-break", choices=list(TIE_BREAK_RULES))
    command.add_argument("--min-frequency", type=int)
    command.add_argument("--special", action="append", metavar="TOKEN")
    command.add_argument("--specials-as-text", action="store_true",
                         help="count special-token text as training text (HF's trainer, rustbpe, minbpe, tiktoken's "
                              "trainer) instead of cutting it out (CS336)")
