"""BPE Lab's tokenizer JSON, the one file layout that holds every tokenizer: written and read here only.

:meth:`Tokenizer.to_json <bpe.encoding.tokenizer.Tokenizer.to_json>` (and ``save``) write it, ``from_json``
(and ``from_file``) read it, and the format registry's ``ours`` entry (``formats/ours.py``) calls
those. It holds char-level tokenizers, an end-of-word marker and any ids::

    {"format": "bpe-lab/tokenizer", "version": 1, "name": "", "unit": "byte", "pretokenizer": "gpt2",
     "end_of_word": null, "base": [[id, hex bytes, ends word], ...], "merges": [[left, right, new id], ...],
     "special_tokens": {"<|endoftext|>": 50256}}

and, only when they are not the defaults: ``"specials_in_text"`` (``special`` or ``plain``),
``"unknown_token"``, ``"fallback_bytes"`` (``[[id, byte], ...]``) and ``"whole_only"``
(``[[id, hex bytes], ...]``), so that files without them read as before. A tokenizer of a kind
that keeps more (a SentencePiece model's user-defined pieces, a subword-nmt codes file's characters
passed through) adds ``"kind": {"name": ..., options...}``: ``Tokenizer.from_json`` builds the
subclass whose ``json_kind`` is that name, with those options.

    >>> from bpe.tokens.vocab import Token
    >>> text = tokenizer_json(name="", unit="byte", pretokenizer="none", end_of_word=None,
    ...                       base={97: Token(b"a")}, merges=[(97, 97, 256)], special_tokens={})
    >>> text
    '{"format":"bpe-lab/tokenizer","version":1,"name":"","unit":"byte","pretokenizer":"none","end_of_word":null,"base":[[97,"61",false]],"merges":[[97,97,256]],"special_tokens":{}}'
    >>> read_tokenizer_json(text, build=dict)["merges"]
    [(97, 97, 256)]

Why it sits below ``tokenizer`` and never imports it: the tokenizer's own methods read and write
this layout, so the class to build is handed in (``build``) instead of imported, and no import
runs in a circle. Out of scope: traces (``Trace.to_json``, their own layout in ``trace``) and other
libraries' files (``formats``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, TypeVar

from ..errors import FormatError
from ..tokens.vocab import Token
from .versioned_json import read_versioned_json

TOKENIZER_FORMAT = "bpe-lab/tokenizer"
TOKENIZER_VERSION = 1

Built = TypeVar("Built")

def with_kind(text: str, name: str, options: Mapping[str, object]) -> str:
    """``text`` (BPE Lab JSON) with ``"kind": {"name": name, **options}`` added.

    >>> with_kind('{"format":"bpe-lab/tokenizer"}', "toy", {"passes": True})
    '{"format":"bpe-lab/tokenizer","kind":{"name":"toy","passes":true}}'
    """
    data = json.loads(text)
    data["kind"] = {"name": name, **options}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def tokenizer_json(
    *, name: str, unit: str, pretokenizer: str, end_of_word: str | None, base: Mapping[int, Token],
    merges: Iterable[tuple[int, int, int]], special_tokens: Mapping[str, int], specials_in_text: str = "refuse",
    unknown_token: str | None = None, fallback_bytes: Mapping[int, int] | None = None,
    whole_only: Mapping[int, bytes] | None = None, kind: Mapping[str, object] | None = None,
) -> str:
    """A tokenizer's fields as BPE Lab JSON (compact, non-ASCII kept as it is); ``kind`` (``{"name": ...,
    options...}``), when given, last, as :func:`with_kind` adds it to a text already written."""
    extras = {
        "specials_in_text": None if specials_in_text == "refuse" else specials_in_text,
        "unknown_token": unknown_token,
        "fallback_bytes": [list(item) for item in (fallback_bytes or {}).items()] or None,
        "whole_only": [[token_id, data.hex()] for token_id, data in (whole_only or {}).items()] or None,
        "kind": dict(kind) if kind is not None else None,
    }
    return json.dumps(
        {
            "format": TOKENIZER_FORMAT,
            "version": TOKENIZER_VERSION,
            "name": name,
            "unit": unit,
            "pretokenizer": pretokenizer,
            "end_of_word": end_of_word,
            "base": [[token_id, token.data.hex(), token.ends_word] for token_id, token in base.items()],
            "merges": [list(merge) for merge in merges],
            "special_tokens": dict(special_tokens),
            **{key: value for key, value in extras.items() if value is not None},
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def read_tokenizer_json(text: str, *, build: Callable[..., Built], kinds: type | None = None) -> Built:
    """``build(**fields)`` from a BPE Lab JSON text, with :class:`~bpe.encoding.tokenizer.Tokenizer`'s keyword
    arguments; FormatError (naming the problem) if the text holds no tokenizer. ``kinds``: a text with
    a ``kind`` is built by the subclass of ``kinds`` of that ``json_kind`` instead, with its options too."""
    data = read_versioned_json(text, format=TOKENIZER_FORMAT, version=TOKENIZER_VERSION, what="tokenizer file")
    if kinds is not None and "kind" in data:
        build = _kind_builder(data["kind"], kinds)
    try:
        base = {}
        for token_id, hex_data, ends_word in data["base"]:
            if token_id in base:
                raise FormatError(f"base token id {token_id} appears twice")
            base[token_id] = Token(bytes.fromhex(hex_data), bool(ends_word))
        return build(
            unit=data["unit"],
            pretokenizer=data["pretokenizer"],
            end_of_word=data.get("end_of_word"),
            base=base,
            merges=[(left, right, new_id) for left, right, new_id in data["merges"]],
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


def _kind_builder(kind: object, root: type) -> Callable[..., Any]:
    options = dict(kind) if isinstance(kind, dict) else {}
    name = options.pop("name", None)
    classes, found = [root], {}
    while classes:  # every subclass, however deep (they are imported with the formats)
        cls = classes.pop()
        classes += cls.__subclasses__()
        found.setdefault(getattr(cls, "json_kind", None), cls)
    if name is None or name not in found:
        known = ", ".join(sorted(str(each) for each in found if each)) or "none"
        raise FormatError(f"the tokenizer file's kind {kind!r} is unknown to this version (it knows {known})")
    return partial(found[name], **options)
