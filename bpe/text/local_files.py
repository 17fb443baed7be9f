"""The user's own files, by path: opened, read and written with errors that name the file.

Scope: paths a person typed (the command line's options, ``Tokenizer.from_file`` and ``save``,
``Trace.from_file`` and ``save``). A missing file, a folder, or a file that may not be read or
written is a :class:`~bpe.errors.BpeError` naming it; text is UTF-8, read by
:func:`bpe.text.corpus.decode_text_file`'s rules (a byte-order mark dropped, UTF-16 named).
Out of scope: what the files hold (``tokenizer_json``, ``trace``, ``formats``) and the merge cache,
which writes its own files atomically (``merge_cache``).

    >>> read_text("no/such/file.json")
    Traceback (most recent call last):
    ...
    bpe.errors.BpeError: no such file: no/such/file.json
"""

from __future__ import annotations

import os
from typing import BinaryIO

from ..errors import BpeError
from ..limits import MAX_FILE_MB
from .corpus import decode_text_file, unreadable

StrPath = str | os.PathLike[str]
"""A path as `open` takes it."""


def open_binary(path: StrPath) -> BinaryIO:
    """``open(path, "rb")``; a missing or unreadable file is a :class:`BpeError` that names it."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise BpeError(f"no such file: {os.fspath(path)}") from None
    except IsADirectoryError:
        raise BpeError(f"{os.fspath(path)} is a folder, not a file") from None
    except OSError as error:
        raise unreadable(os.fspath(path), error) from None


def read_file(path: StrPath, *, limit_mb: int = MAX_FILE_MB) -> bytes:
    """A file's bytes; a missing or unreadable file, or one over ``limit_mb`` MiB, is a
    :class:`BpeError` that names it (read no further than the limit: /dev/zero never ends)."""
    limit = limit_mb * 2**20
    with open_binary(path) as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:  # it opened, yet reading failed (a device, /proc/self/mem, a disk error)
            raise unreadable(os.fspath(path), error) from None
    if len(data) > limit:
        raise BpeError(
            f"{os.fspath(path)} is over {limit_mb:,} MiB, the most a file read whole may hold (a device such as "
            "/dev/zero never ends): use a shorter file, or `encode --file`, which streams"
        )
    return data


def read_text(path: StrPath) -> str:
    """A UTF-8 text file's text; anything else is a :class:`BpeError` that names it and says why."""
    return decode_text_file(read_file(path), name=os.fspath(path))


def write_text(path: StrPath, text: str | bytes) -> None:
    """Write ``text`` as UTF-8 (bytes as they are: a binary format such as SentencePiece's ``.model``),
    replacing the file; a :class:`BpeError` naming it if that fails."""
    try:
        with open(path, "wb") as file:
            file.write(text.encode("utf-8") if isinstance(text, str) else text)
    except OSError as error:
        raise BpeError(f"cannot write {os.fspath(path)}: {error.strerror}") from None
