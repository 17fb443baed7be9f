"""What every file format shares: reading input, refusing what a format cannot hold, building.

Scope: turning raw file contents into text (with a clear error when they are not UTF-8), the
checks an exporter runs before writing (byte-level only, no end-of-word marker, one id per byte
string, ids in merge order), :class:`TokenizerFormat` (what each format declares about itself),
reading GPT-2's byte-level spelling of the base tokens, and wrapping engine errors so a
parser only ever raises :class:`~bpe.errors.FormatError`. Out of scope: any one format's layout
(one module per format next to this one).

What can go where:

* BPE Lab's JSON (``ours``) holds every tokenizer: char-level, with an end-of-word marker, any ids.
* minbpe, Hugging Face ``tokenizer.json``, tiktoken and GPT-2's ``encoder.json``/``vocab.bpe``
  all start from the 256 bytes, so they need a **byte-level** tokenizer **without** an
  end-of-word marker (the marker decodes to nothing, which none of them can express).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError, FormatError, RegistryError
from ..text.pretokenize import NAMED_PATTERNS
from ..tokens.byte_level import BYTE_TO_UNICODE
from ..tokens.ids import is_digits, is_whole_number
from ..tokens.vocab import Token

Read = TypeVar("Read", Tokenizer, str)
"""What a format's reader gives: the tokenizer (``read``) or its BPE Lab JSON (``read_json``)."""


@dataclass(frozen=True)
class TokenizerFormat:
    """One file format: declared once, in its own module, and listed once in ``files.FORMATS``.

    The CLI, the exporters and the Import & export page read only these fields, so a new format
    is one module with one of these and one line in ``FORMATS`` (``tests/test_formats_registry.py``
    adds a toy format that way).
    """

    name: str
    """What ``--format`` takes, e.g. ``hf``."""
    title: str
    """What a person calls it, e.g. ``Hugging Face tokenizer.json``."""
    file_names: tuple[str, ...]
    """The files :meth:`export` writes, in order; the first ``reads`` of them are read back."""
    note: str
    """Who reads the files, for the export page (Markdown)."""
    write: Callable[[Tokenizer], str | bytes | tuple[str, ...]]
    """The files' texts, one per file name (a lone ``str``, or ``bytes`` for a binary file, for one
    file), for a tokenizer that :meth:`export_problem` has found no problem with (:meth:`texts`
    checks, then writes)."""
    read: Callable[..., Tokenizer]
    """``read(files, *, name, ...)``: ``files`` is ``(source, contents)`` pairs, one per file read, and the
    options are ``pretokenizer`` unless ``stores_pattern``, ``special_tokens`` unless ``stores_special_tokens``."""
    problem: Callable[[Tokenizer], str | None] = lambda tokenizer: None
    """Why it cannot hold a tokenizer, beyond ``byte_level_only``; None if it can."""
    reads: int = 1
    """How many of ``file_names`` the reader needs (minbpe's ``.vocab`` is for people only)."""
    byte_level_only: bool = True
    """It starts from the 256 bytes: no char-level tokenizers, no end-of-word marker."""
    byte_level_why: str = "it starts from the 256 bytes"
    """Why a ``byte_level_only`` format refuses a char-level tokenizer, in the words of its refusal."""
    stores_pattern: bool = True
    """False when the files lack the split pattern: importing asks for it (``pretokenizer``)."""
    stores_special_tokens: bool = True
    """False when the files lack the special tokens: importing takes them (``special_tokens``)."""
    recognizes: Callable[[bytes], bool] | None = None
    """Whether a one-file format's contents look like its files (a header, a JSON key, the shape of
    its lines), for readers that are not told the format (Check my BPE); None: chosen by name only,
    which ``tests/test_checking_shapes.py`` refuses for a registered one-file format, naming it."""
    read_json: Callable[..., str] | None = None
    """``read``'s tokenizer as BPE Lab JSON (``read(...).to_json()``, the same text), written from the
    files without building the tokenizer: an import's worker sends only that text, which the server
    builds anyway (:func:`~bpe.formats.files.import_json`); None: ``read(...).to_json()``."""

    def __post_init__(self) -> None:  # a mistake in a format's entry fails at import, not on first use
        if not 1 <= self.reads <= len(self.file_names) or len(set(self.file_names)) != len(self.file_names):
            raise RegistryError(f"format {self.name!r}: reads {self.reads} of the distinct file names {self.file_names}")

    def export_problem(self, tokenizer: Tokenizer) -> str | None:
        """Why this format cannot hold ``tokenizer`` (a sentence that says what to do instead); None if it can."""
        byte_level = byte_level_problem(tokenizer, title=self.title, why=self.byte_level_why) if self.byte_level_only else None
        return byte_level or self.problem(tokenizer)

    def texts(self, tokenizer: Tokenizer) -> str | bytes | tuple[str, ...]:
        """What :attr:`write` gives, after the one check of :meth:`export_problem`: FormatError (saying
        why) if the format cannot hold ``tokenizer``. Each format's ``to_...`` function is this."""
        first_problem(self.export_problem(tokenizer))
        return self.write(tokenizer)

    def export(self, tokenizer: Tokenizer) -> dict[str, str | bytes]:
        """``file name -> text`` (bytes for a binary file); FormatError (saying why) if the format cannot hold ``tokenizer``."""
        texts = self.texts(tokenizer)
        return dict(zip(self.file_names, (texts,) if isinstance(texts, (str, bytes)) else texts, strict=True))


def one_file(parse: Callable[..., Read]) -> Callable[..., Read]:
    """The ``read`` (or ``read_json``) of a one-file format whose ``parse(contents, *, source, name, ...)`` takes the options."""

    def read(files: Sequence[tuple[str, str | bytes]], **options: object) -> Read:
        (source, contents), = files
        return parse(contents, source=source, **options)

    return read


def as_text(contents: str | bytes, *, source: str) -> str:
    """File contents as text; bytes must be UTF-8 (``source`` names the file in the error)."""
    if isinstance(contents, str):
        return contents
    if not isinstance(contents, (bytes, bytearray)):
        raise FormatError(f"{source}: expected file contents (text or bytes), got {type(contents).__name__}")
    try:
        return bytes(contents).decode("utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(
            f"{source} is not UTF-8 text (byte {error.start} is invalid): is it the right file, "
            "or was it saved in another encoding?"
        ) from None


def json_object(contents: str | bytes) -> dict | None:
    """The JSON object ``contents`` holds, or None (not JSON, or JSON but not an object): for
    ``recognizes``, which must never raise.

    >>> json_object('{"model": {}}'), json_object("[1]"), json_object("e s")
    ({'model': {}}, None, None)
    """
    if contents.lstrip()[:1] not in ("{", b"{"):
        return None
    try:
        data = json.loads(contents)
    except (ValueError, RecursionError):  # ValueError: also UnicodeDecodeError and ints too long to read
        return None
    return data if isinstance(data, dict) else None


def build_tokenizer(*, source: str, factory: type[Tokenizer] = Tokenizer, **fields: object) -> Tokenizer:
    """``factory(**fields)``, with any engine complaint re-raised as a FormatError naming ``source``.

    Subtle: the engine raises e.g. SpecialTokenError for an empty special token; to a file reader
    that is a malformed file, so parsers promise FormatError and nothing else.
    """
    try:
        return factory(**fields)  # type: ignore[arg-type]
    except BpeError as error:
        raise FormatError(f"{source}: {error}") from None


# -- what an exporter checks -------------------------------------------------------------------
def byte_level_problem(tokenizer: Tokenizer, *, title: str, why: str = "it starts from the 256 bytes") -> str | None:
    """Why the format ``title`` cannot hold ``tokenizer`` because of its unit or marker; None if it can."""
    if tokenizer.unit != "byte":
        return (
            f"{title} cannot hold a char-level tokenizer: {why}. Save it as "
            "BPE Lab JSON (format 'ours'), or retrain with the byte unit to export it anywhere"
        )
    if tokenizer.end_of_word is not None:
        return (
            f"{title} cannot hold a tokenizer with the end-of-word marker {tokenizer.end_of_word!r} "
            "(the marker decodes to nothing, which it cannot express). Save it as BPE Lab JSON "
            "(format 'ours'), or retrain without a marker to export it anywhere"
        )
    return None


def duplicate_bytes_problem(tokenizer: Tokenizer, *, title: str) -> str | None:
    """Formats keyed by a token's bytes cannot hold two ids that decode to the same bytes."""
    seen: dict[bytes, int] = {}
    for token_id, token in tokenizer.tokens.items():
        if tokenizer.is_special(token_id):
            continue
        if token.data in seen:
            return (
                f"{title} is keyed by a token's bytes, but ids {seen[token.data]} and "
                f"{token_id} both decode to {token.data!r}. Save it as BPE Lab JSON or minbpe, which "
                "store merges instead"
            )
        seen[token.data] = token_id
    return None


def rank_order_problem(tokenizer: Tokenizer, *, title: str) -> str | None:
    """Rank-keyed formats merge the lowest *id* first, so merged ids must rise with merge order."""
    previous = -1
    for rank, (_, _, new_id) in enumerate(tokenizer.merges):
        if new_id <= previous:
            return (
                f"{title} applies merges in id order, but merge {rank + 1} makes id "
                f"{new_id}, not above the id {previous} made earlier. Save it as BPE Lab JSON or Hugging "
                "Face tokenizer.json, which store the merge order"
            )
        previous = new_id
    return None


# Python's `regex` syntax that other regex engines reject or read otherwise, by what it is.
SET_OPERATION = "a set operation inside a class (like [\\p{L}--[a-z]])"
FOREIGN_SYNTAX: Mapping[str, re.Pattern] = MappingProxyType({
    SET_OPERATION: re.compile(r"\[[^\]]*(--|&&|\|\||~~)"),
    "\\X (a grapheme cluster)": re.compile(r"(?<!\\)(\\\\)*\\X"),
    "a POSIX class (like [:alpha:])": re.compile(r"\[:\^?[a-z]+:\]"),
})


def foreign_syntax_problem(tokenizer: Tokenizer, *, title: str, engine: str, cannot: Iterable[str]) -> str | None:
    """Why ``engine`` cannot run this tokenizer's custom split pattern (it lacks the :data:`FOREIGN_SYNTAX`
    named in ``cannot``), so ``title`` cannot hold it; None if it can.

    >>> base = {byte: Token(bytes([byte])) for byte in range(256)}
    >>> foreign_syntax_problem(Tokenizer(unit="byte", pretokenizer=r"regex:\\X", base=base, merges=[]),
    ...                        title="tiktoken rank file", engine="fancy-regex", cannot=FOREIGN_SYNTAX)
    "the split pattern uses \\\\X (a grapheme cluster), which fancy-regex cannot run as Python's regex does; rewrite that part to export it as tiktoken rank file"
    """
    if not tokenizer.pretokenizer.is_custom:
        return None
    pattern = tokenizer.pretokenizer.name[len("regex:"):]
    for what in cannot:
        if FOREIGN_SYNTAX[what].search(pattern):
            return (
                f"the split pattern uses {what}, which {engine} cannot run as Python's regex does; "
                f"rewrite that part to export it as {title}"
            )
    return None


def first_problem(*problems: str | None) -> None:
    for problem in problems:
        if problem:
            raise FormatError(problem)


# -- byte-level spelling -----------------------------------------------------------------------
def byte_base(ids_by_text: dict[str, int], *, source: str) -> dict[int, Token]:
    """The 256 base tokens of a vocabulary keyed by byte-level text (GPT-2, Hugging Face)."""
    missing = [byte for byte in range(256) if BYTE_TO_UNICODE[byte] not in ids_by_text]
    if missing:
        shown = ", ".join(f"0x{byte:02x} ({BYTE_TO_UNICODE[byte]!r})" for byte in missing[:5])
        raise FormatError(
            f"{source}: the vocabulary lacks {len(missing)} of the 256 single bytes ({shown}); a "
            "byte-level BPE must give every byte an id"
        )
    return {ids_by_text[BYTE_TO_UNICODE[byte]]: Token(bytes([byte])) for byte in range(256)}


def check_id(value: object, *, where: str) -> int:
    if not is_whole_number(value):
        raise FormatError(f"{where}: id {value!r} is not a whole number from 0")
    return value


def check_vocab(vocab: object, *, source: str, what: str) -> dict[str, int]:
    """A ``token text -> id`` object whose ids are whole numbers, each given to one token only."""
    if not isinstance(vocab, dict):
        raise FormatError(f"{source}: {what} must be a JSON object of token -> id, got {type(vocab).__name__}")
    owner: dict[int, str] = {}
    for token_text, token_id in vocab.items():
        check_id(token_id, where=f"{source}, token {token_text!r}")
        if token_id in owner:
            raise FormatError(f"{source}: id {token_id} is given to both {owner[token_id]!r} and {token_text!r}")
        owner[token_id] = token_text
    return vocab


def parse_id(text: str, *, where: str, what: str = "id") -> int:
    """``"42" -> 42``; anything but up to 18 ASCII digits is a FormatError naming ``where``."""
    if not is_digits(text):
        raise FormatError(f"{where}: the {what} {text[:20]!r} is not a whole number from 0")
    return int(text)


def pretokenizer_name(pattern: str, *, aliases: Iterable[tuple[str, str]] = ()) -> str:
    """Our pre-tokenizer name for a split regex: a named one when it is spelled like ours."""
    for name, named in NAMED_PATTERNS.items():
        if named == pattern:
            return name
    for alias, name in aliases:
        if alias == pattern:
            return name
    return f"regex:{pattern}"
