"""Every format by name: which files it is made of, what it can hold, and one call each way.

Scope: dispatch on a format name (``ours``, ``minbpe``, ``hf``, ``tiktoken``, ``gpt2``, ``subword-nmt``) for the
CLI and the app, which deal in file names and contents, never in a format's details.

    >>> from bpe.pretrained import load_gpt2
    >>> files = export_tokenizer(load_gpt2(), format="gpt2")
    >>> sorted(files)
    ['encoder.json', 'vocab.bpe']
    >>> import_tokenizer(format="gpt2", files=files).encode("hello world")
    [31373, 995]

Out of scope: reading and writing paths (the CLI does that), and the layouts (one module each).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..errors import FormatError
from ..tokenizer import Tokenizer
from .common import FORMAT_TITLES, byte_level_problem
from .gpt2 import from_gpt2, gpt2_export_problem, to_gpt2
from .huggingface import from_hf, hf_export_problem, to_hf
from .minbpe import from_minbpe, minbpe_export_problem, to_minbpe
from .ours import from_ours, to_ours
from .subword_nmt import from_subword_nmt, subword_nmt_export_problem, to_subword_nmt
from .tiktoken_bpe import from_tiktoken, tiktoken_export_problem, to_tiktoken

FORMATS: tuple[str, ...] = tuple(FORMAT_TITLES)
FILE_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "ours": ("tokenizer.bpe-lab.json",),
    "minbpe": ("tokenizer.model", "tokenizer.vocab"),
    "hf": ("tokenizer.json",),
    "tiktoken": ("tokenizer.tiktoken",),
    "gpt2": ("encoder.json", "vocab.bpe"),
    "subword-nmt": ("bpe.codes",),
})
"""The files :func:`export_tokenizer` returns per format (minbpe's ``.vocab`` is for people only)."""

PATTERN_FREE = ("tiktoken", "gpt2")
"""Formats whose files do not store the split pattern (or, for tiktoken, the special tokens)."""


def check_format(format: str) -> str:
    if format not in FORMAT_TITLES:
        raise FormatError(f"unknown format {format!r}: use one of {', '.join(FORMATS)}")
    return format


def export_problem(tokenizer: Tokenizer, *, format: str) -> str | None:
    """Why ``format`` cannot hold ``tokenizer`` (a sentence that says what to do instead); None if it can."""
    check_format(format)
    if format == "ours":
        return None
    if format == "subword-nmt":  # the one character-level format
        return subword_nmt_export_problem(tokenizer)
    problem = byte_level_problem(tokenizer, format=format)
    if problem:
        return problem
    return {
        "minbpe": minbpe_export_problem, "hf": hf_export_problem,
        "tiktoken": tiktoken_export_problem, "gpt2": gpt2_export_problem,
    }[format](tokenizer)


def export_tokenizer(tokenizer: Tokenizer, *, format: str) -> dict[str, str]:
    """``file name -> text`` for ``format`` (names from :data:`FILE_NAMES`); FormatError if it cannot."""
    check_format(format)
    if format == "ours":
        return {"tokenizer.bpe-lab.json": to_ours(tokenizer)}
    if format == "minbpe":
        model, vocab = to_minbpe(tokenizer)
        return {"tokenizer.model": model, "tokenizer.vocab": vocab}
    if format == "hf":
        return {"tokenizer.json": to_hf(tokenizer)}
    if format == "tiktoken":
        return {"tokenizer.tiktoken": to_tiktoken(tokenizer)}
    if format == "subword-nmt":
        return {"bpe.codes": to_subword_nmt(tokenizer)}
    encoder, merges = to_gpt2(tokenizer)
    return {"encoder.json": encoder, "vocab.bpe": merges}


def import_tokenizer(
    *,
    format: str,
    files: Mapping[str, str | bytes],
    pretokenizer: str = "gpt2",
    special_tokens: Mapping[str, int] | None = None,
    name: str = "",
) -> Tokenizer:
    """Read ``files`` (``file name -> contents``) in ``format``.

    ``pretokenizer`` is used by tiktoken and GPT-2 files only, which do not store it, and
    ``special_tokens`` by tiktoken only (GPT-2's live in ``encoder.json``). GPT-2's two files are
    told apart by content (``encoder.json`` is a JSON object), so their names do not matter.
    """
    check_format(format)
    wanted = 2 if format == "gpt2" else 1
    if format == "minbpe":
        files = {file: text for file, text in files.items() if not str(file).endswith(".vocab")}
    if len(files) != wanted:
        what = "encoder.json and vocab.bpe" if format == "gpt2" else "one file"
        raise FormatError(f"{FORMAT_TITLES[format]} is read from {what}; got {len(files)} file(s)")
    if special_tokens and format != "tiktoken":
        raise FormatError(f"{FORMAT_TITLES[format]} stores its own special tokens; give special tokens for tiktoken only")
    if pretokenizer != "gpt2" and format not in PATTERN_FREE:
        raise FormatError(f"{FORMAT_TITLES[format]} stores its own split pattern; choose one for tiktoken or gpt2 only")
    (source, contents), *rest = files.items()
    if format == "ours":
        return from_ours(contents, source=source)
    if format == "minbpe":
        return from_minbpe(contents, name=name, source=source)
    if format == "hf":
        return from_hf(contents, name=name, source=source)
    if format == "subword-nmt":
        return from_subword_nmt(contents, name=name, source=source)
    if format == "tiktoken":
        return from_tiktoken(
            contents, pretokenizer=pretokenizer, special_tokens=dict(special_tokens or {}), name=name, source=source
        )
    (other_source, other), = rest
    if _looks_like_json_object(other) and not _looks_like_json_object(contents):
        (source, contents), (other_source, other) = (other_source, other), (source, contents)
    return from_gpt2(
        encoder_json=contents, vocab_bpe=other, pretokenizer=pretokenizer, name=name, sources=(source, other_source)
    )


def _looks_like_json_object(contents: str | bytes) -> bool:
    start = contents.lstrip()[:1] if isinstance(contents, (str, bytes, bytearray)) else ""
    return start in ("{", b"{")
