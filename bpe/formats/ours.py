"""BPE Lab's own tokenizer JSON, as a format like the others (the layout lives in ``tokenizer``).

Scope: the thin adapters that let the format dispatcher treat our JSON like any other file:
bytes or text in, FormatError out. It holds every tokenizer: char-level, with an end-of-word
marker, any ids. Out of scope: the layout itself (``Tokenizer.to_json``/``from_json``).
"""

from __future__ import annotations

from ..tokenizer import Tokenizer
from .common import as_text


def to_ours(tokenizer: Tokenizer) -> str:
    return tokenizer.to_json()


def from_ours(contents: str | bytes, *, source: str = "tokenizer.json") -> Tokenizer:
    from ..errors import FormatError

    try:
        return Tokenizer.from_json(as_text(contents, source=source))
    except RecursionError:
        raise FormatError(f"{source} nests JSON too deeply to be a tokenizer file") from None
    except FormatError as error:
        raise FormatError(f"{source}: {error}") from None
    except (AttributeError, KeyError, TypeError, ValueError) as error:  # "pretokenizer": null, 5000-digit ids
        raise FormatError(f"{source}: the tokenizer file is malformed: {type(error).__name__} {error}") from None
