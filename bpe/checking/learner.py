"""A learner's merges, read from whatever file their trainer wrote.

Scope: turning a merges file into one list of ``(left, right)`` spellings, each a byte string with
any end-of-word marker spelled out (``b"es"``, ``b"t</w>"``), which is how the comparison and the
reference's tokens (:func:`bpe.tokens.vocab.token_sort_bytes`) spell them. Out of scope: comparing them.

Where each file goes, in order (:func:`merge_shapes` lists them for the page and ``--help``):

1. a **pickle** is refused unread: unpickling runs whatever code the file holds, and a merges file
   is untrusted. The refusal gives the two lines of Python that write the merges as JSON instead;
2. every one-file format of :data:`bpe.formats.FORMATS` whose ``recognizes`` says yes (minbpe's
   ``.model``, a ``tokenizer.json``, BPE Lab JSON, a tiktoken rank file, subword-nmt codes...) is
   read by that format, so a new format reaches the checker with no edit here;
3. anything else is one of the shapes learners write (:mod:`bpe.checking.handwritten`).

Every refusal is one line that says what is wrong and which shape to write, with an example.

    >>> read_learner_merges("e s\\nes t</w>\\n", name="merges.txt").pairs
    ((b'e', b's'), (b'es', b't</w>'))
    >>> read_learner_merges("minbpe v1\\n\\n0\\n97 97\\n256 98\\n", name="my.model").shape
    'minbpe'
"""

from __future__ import annotations

import json
import pickletools
from collections.abc import Callable
from dataclasses import dataclass, field

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..formats import all_formats, import_tokenizer
from ..formats.common import TokenizerFormat, as_text
from ..limits import MAX_MERGES
from ..registry import Registry
from ..tokens.vocab import token_sort_bytes
from .handwritten import HANDWRITTEN, Spelled, merges_value, read_handwritten

BOM = "\ufeff".encode()
_PICKLE_STARTS = (b"\x80\x02", b"\x80\x03", b"\x80\x04", b"\x80\x05", b"(lp0", b"(dp0", b"]q\x00", b"}q\x00", b"](", b"}(")
"""How pickles begin: protocol 2 and later say so in two bytes; protocols 0 and 1 open a list or a dict."""
AS_JSON = 'import json; json.dump([[list(a), list(b)] for a, b in merges], open("merges.json", "w"))'
"""Two lines of Python that write a list of ``(bytes, bytes)`` merges as JSON byte lists (a shape read here)."""


@dataclass(frozen=True)
class LearnerMerges:
    pairs: tuple[Spelled, ...]
    shape: str
    """The :func:`merge_shapes` entry that read the file."""
    hints: dict = field(default_factory=dict, compare=False)
    """What the file says about how it was trained: ``unit``, ``pretokenizer``, ``end_of_word``..."""


@dataclass(frozen=True)
class MergeShape:
    name: str
    title: str
    example: str


def _one_file_formats() -> dict[str, TokenizerFormat]:
    """The formats read here: those read from one file (looked up when called, so a test's toy format counts)."""
    return {entry.name: entry for entry in all_formats() if entry.reads == 1}


def merge_shapes() -> Registry[MergeShape]:
    """Every shape read, by name, in the order tried: the one-file formats (recognized by their
    ``recognizes``; one without it is read when chosen by name), then the shapes learners write."""
    shapes = [MergeShape(entry.name, entry.title, f"a {entry.file_names[0]} as its library writes it")
              for entry in _one_file_formats().values()]
    shapes += [MergeShape(shape.name, shape.title, shape.example) for shape in HANDWRITTEN]
    return Registry("merges shape", shapes, error=FormatError)


def _looks_pickled(data: bytes, name: str) -> bool:
    if data.startswith(_PICKLE_STARTS) or _reads_as_an_old_pickle(data):
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return name.lower().endswith((".pkl", ".pickle"))  # a text file named .pkl is read as text
    return False


def _reads_as_an_old_pickle(data: bytes) -> bool:
    """A protocol 0 or 1 pickle, which may begin in many ways (``((``, ``c__builtin__``, ``c_codecs``):
    its opcodes read to a STOP on the last byte. ``pickletools.genops`` only reads them, never runs
    one; three at least, so that a text such as ``a.`` is not taken for one.

    >>> _reads_as_an_old_pickle(b"((c__builtin__\\nbytes\\n(tR."), _reads_as_an_old_pickle(b"a b\\nab c\\n")
    (True, False)
    """
    if not data.endswith(b"."):
        return False
    try:
        ops = list(pickletools.genops(data))
    except Exception:  # noqa: BLE001  # any way the bytes fail to read as opcodes means "not a pickle"
        return False
    return len(ops) >= 3 and ops[-1][0].name == "STOP" and ops[-1][2] == len(data) - 1


def _repeats_a_line(data: bytes) -> bool:
    """A line that comes twice: a merge made twice, which a format's reader may drop (subword-nmt's
    keeps the first, as ``apply_bpe`` does), so such a file is read as lines first."""
    lines = [line for line in data.split(b"\n")[1:] if line.strip()]
    return len(set(lines)) < len(lines)


def _from_tokenizer(tokenizer: Tokenizer, entry: TokenizerFormat) -> LearnerMerges:
    tokens, marker = tokenizer.tokens, tokenizer.end_of_word
    pairs = tuple((token_sort_bytes(tokens[left], marker), token_sort_bytes(tokens[right], marker))
                  for left, right, _ in tokenizer.merges)
    hints: dict = {"unit": tokenizer.unit, "end_of_word": marker, "end_of_word_mode": tokenizer.end_of_word_mode}
    if entry.stores_pattern:
        hints["pretokenizer"] = tokenizer.pretokenizer.name
    if entry.stores_special_tokens:
        hints["special_tokens"] = tuple(tokenizer.special_tokens)
    return LearnerMerges(pairs, entry.name, hints)


def _json_value(text: str, name: str) -> object:
    """The parsed JSON when ``text`` is JSON; None when it is not (``[`` may open a Python list instead)."""
    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        if start == "[":
            return None
        raise _refused(f"{name} is not valid JSON ({str(error)[:80]})", "json") from None


def _shape(name: str):
    return next(entry for entry in HANDWRITTEN if entry.name == name)


def _refused(problem: str, shape: str) -> FormatError:
    return _shape(shape).refusal(problem)


def read_learner_merges(
    contents: str | bytes, *, name: str = "merges.txt", shape: str | None = None,
    read_tokenizer: Callable[..., Tokenizer] = import_tokenizer,
) -> LearnerMerges:
    """Read a learner's merges file in any of :func:`merge_shapes` (``shape``: that one, not recognized);
    a :class:`FormatError` says what is wrong. A tokenizer file is read by ``read_tokenizer``
    (:func:`~bpe.formats.import_tokenizer`'s arguments; the app and the CLI bound it:
    :func:`~bpe.formats.bounded_import.import_tokenizer_bounded`)."""
    data = contents.encode("utf-8", errors="surrogatepass") if isinstance(contents, str) else bytes(contents)
    if _looks_pickled(data, name):
        raise FormatError(f"{name} is a Python pickle, which is never loaded here (unpickling runs any code the file "
                          f"holds): write your merges as JSON instead with these two lines of Python, then check "
                          f"merges.json: {AS_JSON}")
    if shape is not None:
        merge_shapes().lookup(shape)  # an unknown shape is a FormatError listing the shapes
    data = data.removeprefix(BOM)  # a byte-order mark from a Windows editor is not part of the first token
    formats = _one_file_formats()
    entry = formats.get(shape) if shape else next(
        (entry for entry in formats.values() if entry.recognizes is not None and entry.recognizes(data)), None)
    if entry is not None and shape is None and _repeats_a_line(data):
        try:
            found, pairs, hints = read_handwritten(as_text(data, source=name), source=name)
            return LearnerMerges(pairs, found, hints)
        except FormatError:
            pass  # not merge lines after all (a minbpe .model's header): its format reads it
    if entry is not None:
        try:
            tokenizer = read_tokenizer(format=entry.name, files={name: data})
        except FormatError as error:
            json_shape = _shape("json")
            raise FormatError(f"{error} (read as {entry.title}; merges your own code wrote can be written as "
                              f"{json_shape.title}, e.g. {json_shape.example})") from None
        merges = _from_tokenizer(tokenizer, entry)
    else:
        try:
            text = as_text(data, source=name)
        except FormatError as error:
            raise _refused(str(error).rstrip("?"), "text") from None
        value = _json_value(text, name)
        if shape is None and value is not None and merges_value(value) is None:
            raise _refused(f"{name} holds JSON that is no tokenizer file and has no list of merges", "json")
        found, pairs, hints = read_handwritten(text, source=name, value=value, shape=shape)
        merges = LearnerMerges(pairs, found, hints)
    if not merges.pairs:
        raise _refused(f"{name} holds no merges", "text")
    if len(merges.pairs) > MAX_MERGES:
        raise FormatError(f"{name} holds {len(merges.pairs):,} merges, over the limit of {MAX_MERGES:,}; check the first {MAX_MERGES:,}")
    return merges
