"""A ``.model`` import, read fast, gives what the field-by-field reading gave (issue 52, item 4).

The reader takes a trainer's piece layout straight off the bytes (``sentencepiece_proto._piece``) and
one-byte numbers inline (``_fields``). Checked three ways: every shipped ``.model`` imported cold
(from its bytes, never the pretrained cache) gives the very JSON it gave before the speed-up (pinned
from the main branch at 99e430b, whose imports the parity tests had checked against sentencepiece)
and encodes as sentencepiece does; and on any piece message, in any layout, the reading equals a
reference protobuf reader written here, which shares no code with the engine.
"""

from __future__ import annotations

import hashlib
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.errors import FormatError
from bpe.formats.bounded_import import import_json_bounded
from bpe.formats.files import import_json, import_tokenizer
from bpe.formats.sentencepiece_proto import _piece
from bpe.pretrained.registry import PRETRAINED, pretrained_file_paths

from .multilingual import MULTILINGUAL
from .owners import SentencePieceOwner
from .test_sentencepiece_model_reader import BYTES, CHARACTERS, CONTROL, NORMAL, SPECIALS, model

MODELS = [name for name, entry in PRETRAINED.items() if entry.format == "sentencepiece"]
BEFORE = {  # sha256 of the imported tokenizer's to_json(), from main at 99e430b (before the fast reading)
    "mistral-v1": "93581d3e2649dbc6eab7c54152a979f1642a32bee6dbd74c87dd8dd425400dce",
    "mistral-v3": "923f95486ff962368caeb7aff6761cb0f5a82d6edefd6bb489ccabf3de164fd3",
    "mistral-v7": "2cd651db599dd3eb88d5da13f09e9fcd3f62fcd6fa6e0a79e1ba58a317b852c8",
}
TEXTS = ["Hello  world", "  leading spaces, 12345 digits\tand\ttabs\n", MULTILINGUAL]


def test_every_shipped_model_has_its_import_pinned():
    assert sorted(BEFORE) == sorted(MODELS)


@pytest.mark.parametrize("name", MODELS)
def test_a_model_file_imports_to_the_same_tokenizer_as_before_and_encodes_as_sentencepiece(name):
    (path,) = pretrained_file_paths(name)
    imported = import_tokenizer(format="sentencepiece", files={path.name: path.read_bytes()})
    assert hashlib.sha256(imported.to_json().encode("utf-8")).hexdigest() == BEFORE[name]
    owner = SentencePieceOwner(path)
    assert [imported.encode_ordinary(text) for text in TEXTS] == [owner.default(text) for text in TEXTS]


@pytest.mark.parametrize("name", MODELS)
def test_the_apps_import_sends_the_same_json_written_without_building_the_tokenizer(name):
    (path,) = pretrained_file_paths(name)
    text = import_json_bounded(format="sentencepiece", files={path.name: path.read_bytes()})
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == BEFORE[name]


def outcome(read, data: bytes) -> str:
    try:
        return read(data)
    except FormatError as error:
        return f"refused: {error}"


@st.composite
def merged_pieces(draw) -> list[tuple[str, float, int]]:
    """Pieces as a trainer makes them, each two earlier ones joined, best first, now and then of another type."""
    texts = ["▁", "a", "b", "c"]
    for left, right in draw(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=12)):
        joined = texts[left % len(texts)] + texts[right % len(texts)]
        if joined not in texts:
            texts.append(joined)
    kinds = draw(st.lists(st.sampled_from([NORMAL] * 8 + [CONTROL, 4]), min_size=len(texts), max_size=len(texts)))  # 4: user-defined
    return [(text, -1.0 - rank, kind) for rank, (text, kind) in enumerate(zip(texts[4:], kinds))]


@settings(max_examples=150, deadline=None)
@given(merged_pieces(), st.booleans(), st.booleans())
def test_any_model_writes_the_json_its_built_tokenizer_writes_or_is_refused_alike(pieces, byte_fallback, characters):
    # mostly models a trainer could write (each character a piece of its own), some that are refused
    data = model([*SPECIALS, *(BYTES if byte_fallback else []), *pieces, *(CHARACTERS if characters else [])],
                 byte_fallback=byte_fallback)
    files = lambda data: {"tokenizer.model": data}  # noqa: E731
    built = outcome(lambda data: import_tokenizer(format="sentencepiece", files=files(data)).to_json(), data)
    assert outcome(lambda data: import_json(format="sentencepiece", files=files(data)), data) == built


# -- any piece message: a reference reader of the protobuf wire format, sharing no code ------------
def reference_varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for shift in range(0, 70, 7):
        if at >= len(data):
            raise ValueError("cut short")
        value |= (data[at] & 0x7F) << shift
        at += 1
        if data[at - 1] < 0x80:
            return value, at
    raise ValueError("too long")


def reference_piece(message: bytes) -> tuple[str, int, int]:
    """(text, score order, type) as ``sentencepiece_model.proto`` reads a piece: the last value of a field wins."""
    text, bits, kind, at = b"", 0, 1, 0
    while at < len(message):
        key, at = reference_varint(message, at)
        if key & 7 == 0:
            value, at = reference_varint(message, at)
        elif key & 7 == 2:
            size, at = reference_varint(message, at)
            if at + size > len(message):
                raise ValueError("cut short")
            value, at = message[at:at + size], at + size
        else:
            value, at = int.from_bytes(message[at:at + 4], "little"), at + 4
        text, bits, kind = {1: (value, bits, kind), 2: (text, value, kind), 3: (text, bits, value)}.get(key >> 3, (text, bits, kind))
    order = -(bits & 0x7FFFFFFF) - 1 if bits & 0x80000000 else bits  # the bits as integers, as SentencePiece orders them
    return text.decode("utf-8"), order, kind


def varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    return bytes(out + bytes([value]))


FIELD = st.one_of(
    st.text(min_size=0, max_size=150).map(lambda text: varint(1 << 3 | 2) + varint(len(text.encode())) + text.encode()),
    st.floats(width=32, allow_nan=False).map(lambda score: varint(2 << 3 | 5) + struct.pack("<f", score)),
    st.integers(0, 300).map(lambda kind: varint(3 << 3 | 0) + varint(kind)),
    st.integers(0, 2**20).map(lambda other: varint(7 << 3 | 0) + varint(other)),  # a field a piece does not read
)
TRAINERS_LAYOUT = st.tuples(st.text(min_size=1, max_size=40), st.floats(width=32, allow_nan=False),
                            st.sampled_from([None, 2, 3, 4, 5, 6, 200])).map(
    lambda piece: (varint(10) + varint(len(piece[0].encode())) + piece[0].encode() + b"\x15" + struct.pack("<f", piece[1])
                   + (b"" if piece[2] is None else b"\x18" + varint(piece[2]))))


@settings(max_examples=400, deadline=None)
@given(st.one_of(TRAINERS_LAYOUT, st.lists(FIELD, min_size=1, max_size=5).map(b"".join)))
def test_any_piece_message_reads_as_a_reference_protobuf_reader_reads_it(message):
    assert _piece(message) == reference_piece(message)


@settings(max_examples=200, deadline=None)
@given(st.lists(FIELD, min_size=1, max_size=5).map(b"".join), st.data())
def test_a_message_cut_anywhere_is_refused_or_read_as_the_reference_reads_it(message, data):
    cut = message[:data.draw(st.integers(1, len(message)))]
    try:
        expected = reference_piece(cut)
    except (ValueError, UnicodeDecodeError):
        expected = None
    try:
        got = _piece(cut)
    except FormatError:
        got = None
    assert got == expected
