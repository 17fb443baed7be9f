r"""The protobuf of SentencePiece's ``.model`` files, as far as BPE Lab reads and writes them.

Scope: the wire format (varints, length-delimited fields, 32-bit floats), the piece types, the
``TrainerSpec`` and ``NormalizerSpec`` fields that decide where pieces may split (named as in
``sentencepiece_model.proto``) with the pre-tokenizer of ours that replays each set of them, and
:func:`_model`, which cuts a file into its pieces and specs. What the pieces mean is for
:mod:`bpe.formats.sentencepiece_model` (reading) and :mod:`bpe.formats.sentencepiece_writer` (writing).

    >>> message = _int_field(3, 2) + _bytes_field(1, b"ab")    # model_type BPE, a piece's text
    >>> message, list(_fields(message))
    (b'\x18\x02\n\x02ab', [(3, 2), (1, b'ab')])
"""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from ..errors import FormatError

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
_BPE = 2
# TrainerSpec fields that decide where pieces may split, with the value BPE Lab splits by
# (sentencepiece_model.proto): split_by_unicode_script, split_by_whitespace, split_by_number,
# treat_whitespace_as_suffix, split_digits, allow_whitespace_only_pieces.
_SPLIT_OPTIONS = MappingProxyType({
    21: ("split_by_unicode_script", 1), 22: ("split_by_whitespace", 1), 23: ("split_by_number", 1),
    24: ("treat_whitespace_as_suffix", 0), 25: ("split_digits", 0), 26: ("allow_whitespace_only_pieces", 0),
})
_NORMALIZER_DEFAULTS = MappingProxyType({3: ("add_dummy_prefix", 1), 4: ("remove_extra_whitespaces", 1), 5: ("escape_whitespaces", 1)})
# The options away from those defaults that a pre-tokenizer of ours replays, all of them together.
_PRETOKENIZER_BY_OPTIONS = MappingProxyType({
    frozenset(): "sentencepiece",
    frozenset({"remove_extra_whitespaces", "split_digits", "allow_whitespace_only_pieces"}): "mistral",  # Llama 2's too
})



# -- the protobuf wire format ---------------------------------------------------------------------
def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise FormatError("the file ends inside a number: is it a SentencePiece .model file?")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        shift += 7
        if byte < 0x80:
            return value, at


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """``(field number, value)`` of one message: ints for varints and 32-bit floats' bits, bytes otherwise."""
    # Why the one-byte varints are read here and not by _varint: nearly every key, length and piece
    # type is one byte, and a call per number was much of the time of reading a .model's pieces.
    at, end = 0, len(data)
    while at < end:
        key = data[at]
        if key < 0x80:
            at += 1
        else:
            key, at = _varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0 or wire == 2:
            if at < end and data[at] < 0x80:
                value, at = data[at], at + 1
            else:
                value, at = _varint(data, at)
            if wire == 2:
                if at + value > end:
                    raise FormatError("a field runs past the end of the file: is it cut short?")
                value, at = data[at:at + value], at + value
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            value, at = int.from_bytes(data[at:at + width], "little"), at + width
        else:
            raise FormatError(f"field {number} has wire type {wire}, which a SentencePiece model never uses")
        yield number, value


def _key(number: int, wire: int) -> bytes:
    return _encode_varint(number << 3 | wire)


def _encode_varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int32 fields are written as ten bytes, as protobuf does
    out = bytearray()
    while True:
        out.append(value & 0x7F | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def _bytes_field(number: int, value: bytes) -> bytes:
    return _key(number, 2) + _encode_varint(len(value)) + value


def _int_field(number: int, value: int) -> bytes:
    return _key(number, 0) + _encode_varint(value)


# -- a model's pieces and specs -------------------------------------------------------------------
def _model(data: bytes) -> tuple[list[tuple[str, int, int]], dict[int, int | bytes], dict[int, int | bytes]]:
    """``(pieces as (text, score order, type), trainer spec, normalizer spec)``."""
    pieces, trainer, normalizer = [], {}, {}
    for number, value in _fields(data):
        if number == 1 and isinstance(value, bytes):
            pieces.append(_piece(value))
        elif number in (2, 3) and isinstance(value, bytes):
            (trainer if number == 2 else normalizer).update(_fields(value))
    if not pieces:
        raise FormatError("it holds no pieces: is it a SentencePiece .model file?")
    return pieces, trainer, normalizer


def _piece(message: bytes) -> tuple[str, int, int]:
    """One ``SentencePiece`` message as ``(text, score order, type)``.

    Why the first branch: a trainer writes a piece as its text, its score and, unless NORMAL, its
    type, each with a one-byte key and length, and reading that layout straight off the bytes is much
    quicker than reading it field by field (what the second branch does, for any other layout;
    ``tests/test_sentencepiece_import.py`` checks both against a reference reader).

    >>> _piece(b"\\n\\x02ab\\x15\\x00\\x00\\x80\\xbf\\x18\\x04")  # text ab, score -1.0, type 4
    ('ab', -1065353217, 4)
    >>> _piece(b"\\x18\\x04\\x15\\x00\\x00\\x80\\xbf\\n\\x02ab")  # the same fields in another order
    ('ab', -1065353217, 4)
    """
    size = len(message)
    text_end = message[1] + 2 if size > 1 else size
    if message[0] == 0x0A and text_end < 0x82 and text_end + 5 <= size and message[text_end] == 0x15 and (
        size == text_end + 5 or (size == text_end + 7 and message[text_end + 5] == 0x18 and message[text_end + 6] < 0x80)
    ):
        kind = message[text_end + 6] if size > text_end + 5 else NORMAL
        return _text(message[2:text_end]), _score_order(int.from_bytes(message[text_end + 1:text_end + 5], "little")), kind
    piece, score_order, kind = "", 0, NORMAL
    for field, item in _fields(message):
        if field == 1 and isinstance(item, bytes):
            piece = _text(item)
        elif field == 2 and isinstance(item, int):
            score_order = _score_order(item)
        elif field == 3 and isinstance(item, int):
            kind = item
    return piece, score_order, kind


def _score_order(bits: int) -> int:
    """A piece's 32-bit float score as SentencePiece's encoder orders it, greater first.

    Its ``SymbolPairComparator`` compares the scores' bits as integers, not as floats, so ``-0.0``
    ranks below ``0.0`` (a float comparison calls them equal and lets the ids decide); NaNs land at
    either end by their sign bit. ``-0.0``, ``0.0``, ``-1.0``:

    >>> [_score_order(bits) for bits in (0x80000000, 0x00000000, 0xBF800000)]
    [-1, 0, -1065353217]
    """
    return -(bits & 0x7FFFFFFF) - 1 if bits & 0x80000000 else bits



def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("a piece is not UTF-8 text: is it a SentencePiece .model file?") from None


