"""BPE Lab's own tokenizer JSON in the format registry: the one format that holds every tokenizer.

Scope: its :data:`OURS` entry, and reading it from file contents with errors that name the file.
The layout itself lives in one place, :mod:`bpe.encoding.tokenizer_json`, which
:meth:`Tokenizer.to_json <bpe.encoding.tokenizer.Tokenizer.to_json>` and ``from_json`` use.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> tok = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    >>> back = from_ours(to_ours(tok))
    >>> back.merges == tok.merges, back.encode("aaabdaaabac")
    (True, [258, 100, 258, 97, 99])

Out of scope: traces (``Trace.to_json``, their own layout) and other libraries' files.
"""

from __future__ import annotations

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from .common import TokenizerFormat, as_text, json_object, one_file


def to_ours(tokenizer: Tokenizer) -> str:
    """The tokenizer as BPE Lab JSON (what ``tokenizer.to_json()`` writes)."""
    return tokenizer.to_json()


def from_ours(contents: str | bytes, *, name: str = "", source: str = "tokenizer.json") -> Tokenizer:
    """:meth:`Tokenizer.from_json` for file contents: any complaint is a FormatError naming ``source``;
    a ``name`` given replaces the one in the file."""
    try:
        tokenizer = Tokenizer.from_json(as_text(contents, source=source))
    except RecursionError:
        raise FormatError(f"{source} nests JSON too deeply to be a tokenizer file") from None
    except FormatError as error:
        raise FormatError(f"{source}: {error}") from None
    except (AttributeError, KeyError, TypeError, ValueError) as error:  # "pretokenizer": null, 5000-digit ids
        raise FormatError(f"{source}: the tokenizer file is malformed: {type(error).__name__} {error}") from None
    tokenizer.name = name or tokenizer.name
    return tokenizer


OURS = TokenizerFormat(
    name="ours", title="BPE Lab JSON", file_names=("tokenizer.bpe-lab.json",),
    note="Everything BPE Lab knows: unit, pre-tokenizer, end-of-word marker, merges, special tokens.",
    write=to_ours, read=one_file(from_ours), byte_level_only=False,
    recognizes=lambda contents: "format" in (json_object(contents) or {}),
)
