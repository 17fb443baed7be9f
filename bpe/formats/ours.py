"""BPE Lab's own tokenizer JSON: the one format that holds every tokenizer.

Scope: the layout (what :meth:`Tokenizer.to_json <bpe.tokenizer.Tokenizer.to_json>` writes and
``from_json`` reads) and its :data:`OURS` entry in the format registry. It holds char-level
tokenizers, an end-of-word marker and any ids::

    {"format": "bpe-lab/tokenizer", "version": 1, "name": "", "unit": "byte", "pretokenizer": "gpt2",
     "end_of_word": null, "base": [[id, hex bytes, ends word], ...], "merges": [[left, right, new id], ...],
     "special_tokens": {"<|endoftext|>": 50256}}

and, only when they are not the defaults: ``"specials_in_text"`` (``special`` or ``plain``),
``"unknown_token"``, ``"fallback_bytes"`` (``[[id, byte], ...]``) and ``"whole_only"``
(``[[id, hex bytes], ...]``), so that files without them read as before.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> tok = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    >>> back = from_ours(to_ours(tok))
    >>> back.merges == tok.merges, back.encode("aaabdaaabac")
    (True, [258, 100, 258, 97, 99])

Out of scope: traces (``Trace.to_json``, their own layout) and other libraries' files.
"""

from __future__ import annotations

import json

from ..errors import FormatError
from ..tokenizer import Tokenizer
from ..versioned_json import read_versioned_json
from ..vocab import Token
from .common import TokenizerFormat, as_text, base_items, one_file

TOKENIZER_FORMAT = "bpe-lab/tokenizer"
TOKENIZER_VERSION = 1


def to_ours(tokenizer: Tokenizer) -> str:
    """The tokenizer as BPE Lab JSON (compact, non-ASCII kept as it is)."""
    extras = {
        "specials_in_text": None if tokenizer.specials_in_text == "refuse" else tokenizer.specials_in_text,
        "unknown_token": tokenizer.unknown_token,
        "fallback_bytes": [list(item) for item in tokenizer.fallback_bytes.items()] or None,
        "whole_only": [[token_id, data.hex()] for token_id, data in tokenizer.whole_only.items()] or None,
    }
    return json.dumps(
        {
            "format": TOKENIZER_FORMAT,
            "version": TOKENIZER_VERSION,
            "name": tokenizer.name,
            "unit": tokenizer.unit,
            "pretokenizer": tokenizer.pretokenizer.name,
            "end_of_word": tokenizer.end_of_word,
            "base": [[token_id, token.data.hex(), token.ends_word] for token_id, token in base_items(tokenizer)],
            "merges": [list(merge) for merge in tokenizer.merges],
            "special_tokens": tokenizer.special_tokens,
            **{key: value for key, value in extras.items() if value is not None},
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def parse_ours(text: str) -> Tokenizer:
    """The tokenizer a BPE Lab JSON text holds; FormatError (naming the problem) if it holds none."""
    data = read_versioned_json(text, format=TOKENIZER_FORMAT, version=TOKENIZER_VERSION, what="tokenizer file")
    try:
        base = {}
        for token_id, hex_data, ends_word in data["base"]:
            if token_id in base:
                raise FormatError(f"base token id {token_id} appears twice")
            base[token_id] = Token(bytes.fromhex(hex_data), bool(ends_word))
        merges = [(left, right, new_id) for left, right, new_id in data["merges"]]
        return Tokenizer(
            unit=data["unit"],
            pretokenizer=data["pretokenizer"],
            end_of_word=data.get("end_of_word"),
            base=base,
            merges=merges,
            special_tokens=data.get("special_tokens") or {},
            name=data.get("name", ""),
            specials_in_text=data.get("specials_in_text", "refuse"),
            unknown_token=data.get("unknown_token"),
            fallback_bytes={token_id: byte for token_id, byte in data.get("fallback_bytes") or ()},
            whole_only={token_id: bytes.fromhex(hex_data) for token_id, hex_data in data.get("whole_only") or ()},
        )
    except FormatError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise FormatError(f"the tokenizer file is malformed: {error!r}") from error


def from_ours(contents: str | bytes, *, name: str = "", source: str = "tokenizer.json") -> Tokenizer:
    """:func:`parse_ours` for file contents: any complaint is a FormatError naming ``source``; a
    ``name`` given replaces the one in the file."""
    try:
        tokenizer = parse_ours(as_text(contents, source=source))
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
)
