"""Every format by name: the one registry of file formats, and one call each way.

Scope: :data:`FORMATS`, the :class:`~bpe.formats.common.TokenizerFormat` each format module
declares, collected here once; and dispatch on a format name (``ours``, ``minbpe``, ``hf``,
``tiktoken``, ``gpt2``, ``subword-nmt``, ``sentencepiece``) for the CLI and the app, which deal in file names and
contents and read what a format can hold from its entry, never from a list of names.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> files = export_tokenizer(load_pretrained("gpt2"), format="gpt2")
    >>> sorted(files)
    ['encoder.json', 'vocab.bpe']
    >>> import_tokenizer(format="gpt2", files=files).encode("hello world")
    [31373, 995]

Adding a format: a module next to this one that declares its ``TokenizerFormat``, and one line in
:data:`FORMATS`. Callers look formats up when called (:func:`all_formats`, :func:`tokenizer_format`),
so a test can offer a toy format by replacing :data:`FORMATS` alone.
Out of scope: reading and writing paths (the CLI does that), and the layouts (one module each).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..registry import Registry
from .common import TokenizerFormat
from .gpt2 import GPT2
from .huggingface import HF
from .minbpe import MINBPE
from .ours import OURS
from .sentencepiece_model import SENTENCEPIECE
from .subword_nmt import SUBWORD_NMT
from .tiktoken_bpe import TIKTOKEN

FORMATS: Registry[TokenizerFormat] = Registry(
    "format", (OURS, MINBPE, HF, TIKTOKEN, GPT2, SUBWORD_NMT, SENTENCEPIECE), error=FormatError,
)
"""Every format by name, in the order menus list them."""


def all_formats() -> tuple[TokenizerFormat, ...]:
    return tuple(FORMATS.values())


def tokenizer_format(format: str) -> TokenizerFormat:
    """The registry's entry for ``format``; FormatError naming the known ones if there is none."""
    return FORMATS.lookup(format)


def export_problem(tokenizer: Tokenizer, *, format: str) -> str | None:
    """Why ``format`` cannot hold ``tokenizer`` (a sentence that says what to do instead); None if it can."""
    return tokenizer_format(format).export_problem(tokenizer)


def export_tokenizer(tokenizer: Tokenizer, *, format: str) -> dict[str, str | bytes]:
    """``file name -> text`` (bytes for a binary format) for ``format``; FormatError if it cannot hold ``tokenizer``."""
    return tokenizer_format(format).export(tokenizer)


def export_all(tokenizer: Tokenizer, *, progress: Callable[[float, str], None] | None = None) -> dict[str, dict[str, bytes] | str]:
    """Every format's files (``file name -> bytes``), or the sentence saying why it cannot hold ``tokenizer``,
    in :data:`FORMATS` order; ``progress(fraction, doing)`` is told before each format.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> exported = export_all(Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)))
    >>> sorted(exported["gpt2"]), exported["subword-nmt"][:40]
    (['encoder.json', 'vocab.bpe'], 'subword-nmt codes are merges of characte')
    """
    exported: dict[str, dict[str, bytes] | str] = {}
    for done, entry in enumerate(FORMATS.values()):
        if progress is not None:
            progress(done / len(FORMATS), f"writing {entry.title}")
        problem = entry.export_problem(tokenizer)
        exported[entry.name] = problem or {
            name: text.encode("utf-8") if isinstance(text, str) else text for name, text in entry.export(tokenizer).items()
        }
    return exported


def import_tokenizer(
    *,
    format: str,
    files: Mapping[str, str | bytes],
    pretokenizer: str = "gpt2",
    special_tokens: Mapping[str, int] | None = None,
    name: str = "",
) -> Tokenizer:
    """Read ``files`` (``file name -> contents``) in ``format``.

    ``pretokenizer`` is used only by formats that do not store the split pattern (tiktoken, GPT-2)
    and ``special_tokens`` only by those that do not store special tokens (tiktoken; GPT-2's live
    in ``encoder.json``). Files a format writes for people only (minbpe's ``.vocab``) are ignored.
    """
    entry, read, options = _reading(format, files, pretokenizer=pretokenizer, special_tokens=special_tokens, name=name)
    return entry.read(read, **options)


def import_json(
    *,
    format: str,
    files: Mapping[str, str | bytes],
    pretokenizer: str = "gpt2",
    special_tokens: Mapping[str, int] | None = None,
    name: str = "",
) -> str:
    """:func:`import_tokenizer`'s tokenizer as BPE Lab JSON, the same text as its ``to_json()``, written
    without building the tokenizer where the format can (``TokenizerFormat.read_json``): an import's
    worker sends only this text (:mod:`bpe.formats.bounded_import`)."""
    entry, read, options = _reading(format, files, pretokenizer=pretokenizer, special_tokens=special_tokens, name=name)
    return entry.read_json(read, **options) if entry.read_json else entry.read(read, **options).to_json()


def _reading(
    format: str, files: Mapping[str, str | bytes], *, pretokenizer: str, special_tokens: Mapping[str, int] | None, name: str,
) -> tuple[TokenizerFormat, list[tuple[str, str | bytes]], dict[str, object]]:
    """The format, the files it reads and the options it takes, or a FormatError saying what does not fit."""
    entry = tokenizer_format(format)
    for_people = tuple(file_name[file_name.rfind("."):] for file_name in entry.file_names[entry.reads:])
    files = {file: text for file, text in files.items() if not for_people or not str(file).endswith(for_people)}
    if len(files) != entry.reads:
        what = " and ".join(entry.file_names) if entry.reads > 1 else "one file"
        raise FormatError(f"{entry.title} is read from {what}; got {len(files)} file(s)")
    if special_tokens and entry.stores_special_tokens:
        raise FormatError(
            f"{entry.title} stores its own special tokens; give special tokens for "
            f"{' or '.join(other.name for other in all_formats() if not other.stores_special_tokens)} only"
        )
    if pretokenizer != "gpt2" and entry.stores_pattern:
        raise FormatError(
            f"{entry.title} stores its own split pattern; choose one for "
            f"{' or '.join(other.name for other in all_formats() if not other.stores_pattern)} only"
        )
    options: dict[str, object] = {"name": name}
    if not entry.stores_pattern:
        options["pretokenizer"] = pretokenizer
    if not entry.stores_special_tokens:
        options["special_tokens"] = dict(special_tokens or {})
    return entry, list(files.items()), options
