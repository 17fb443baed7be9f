"""The .model reader against ``sentencepiece`` itself: it refuses what sentencepiece refuses to load,
encodes score ties as its encoder orders them, and says why when a file cannot be replayed."""

from __future__ import annotations

import pytest
import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as model_pb2

from bpe.errors import FormatError
from bpe.formats.sentencepiece_model import BYTE, CONTROL, NORMAL, UNKNOWN, from_sentencepiece

SPECIALS = [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("</s>", 0.0, CONTROL)]
CHARACTERS = [("▁", -10.0, NORMAL), ("a", -11.0, NORMAL), ("b", -12.0, NORMAL), ("c", -13.0, NORMAL)]
BYTES = [(f"<0x{byte:02X}>", 0.0, BYTE) for byte in range(256)]


def model(pieces: list[tuple[str, float, int]], *, byte_fallback: bool = False) -> bytes:
    """A BPE model as sentencepiece's trainer writes one (identity normalization), with these pieces."""
    proto = model_pb2.ModelProto()
    proto.trainer_spec.model_type = model_pb2.TrainerSpec.BPE
    proto.trainer_spec.vocab_size = len(pieces)
    proto.trainer_spec.byte_fallback = byte_fallback
    proto.normalizer_spec.name = "identity"
    for text, score, kind in pieces:
        piece = proto.pieces.add()
        piece.piece, piece.score, piece.type = text, score, kind
    return proto.SerializeToString()


def encodings(data: bytes, text: str) -> tuple[list[int], list[int]]:
    return from_sentencepiece(data).encode(text), spm.SentencePieceProcessor(model_proto=data).encode(text)


def test_pieces_tied_at_zero_and_minus_zero_merge_as_sentencepieces_encoder_orders_them():
    # aa (-0.0) has the smaller id, but sentencepiece compares the scores' bits: 0.0 ranks above -0.0
    data = model([*SPECIALS, ("aa", -0.0, NORMAL), ("▁a", 0.0, NORMAL), *CHARACTERS])
    ours, owner = encodings(data, "aaab")
    assert owner == [4, 3, 7] and ours == owner  # ▁a aa b


def test_a_model_sentencepiece_loads_encodes_alike_with_byte_pieces():
    data = model([*SPECIALS, *BYTES, ("ab", -1.0, NORMAL), ("▁ab", -2.0, NORMAL), *CHARACTERS], byte_fallback=True)
    for text in ("ab abc", "a☃b", "\t"):
        ours, owner = encodings(data, text)
        assert ours == owner, text


@pytest.mark.parametrize("pieces, byte_fallback, refused", [
    pytest.param([*SPECIALS, ("ab", -1.0, NORMAL), ("ab", -2.0, NORMAL), *CHARACTERS], False,
                 r"the piece 'ab' is defined twice \(ids 3 and 4\)", id="a-piece-twice"),
    pytest.param([*SPECIALS, ("a", -1.0, CONTROL), *CHARACTERS], False, r"the piece 'a' is defined twice", id="twice-across-types"),
    pytest.param([*SPECIALS, ("<unk2>", 0.0, UNKNOWN), *CHARACTERS], False, r"two unknown pieces \(ids 0 and 3\)", id="two-unk"),
    pytest.param([*SPECIALS, *BYTES[:255], *CHARACTERS], True, r"1 of the 256 byte pieces are missing \(<0xFF>\)",
                 id="byte-fallback-without-all-256"),
    pytest.param([*SPECIALS, *BYTES, *CHARACTERS], False, r"byte piece '<0x00>' \(id 3\) although byte_fallback is off",
                 id="byte-piece-without-byte-fallback"),
    pytest.param([*SPECIALS, *BYTES[:255], ("<0xff>", 0.0, BYTE), *CHARACTERS], True, r"'<0xff>' \(id 258\) is not one of",
                 id="lower-case-byte-piece"),
    pytest.param([*SPECIALS, ("", -1.0, NORMAL), *CHARACTERS], False, r"piece 3 is empty", id="empty-piece"),
    pytest.param([*SPECIALS, ("a\x00", -1.0, NORMAL), *CHARACTERS], False, r"piece 3 holds a NUL", id="nul-in-a-piece"),
    pytest.param([*SPECIALS, ("a" * 8000, -1.0, NORMAL), *CHARACTERS], False, r"piece 3 is 8,000 bytes long", id="too-long"),
])
def test_the_reader_refuses_what_sentencepiece_refuses_saying_why(pieces, byte_fallback, refused):
    data = model(pieces, byte_fallback=byte_fallback)
    with pytest.raises(RuntimeError):
        spm.SentencePieceProcessor(model_proto=data)
    with pytest.raises(FormatError, match=f"tokenizer.model: .*{refused}.*sentencepiece refuses such a file too"):
        from_sentencepiece(data)


def test_a_merged_piece_holding_a_character_without_a_piece_is_refused_with_a_reason_not_a_key_error():
    data = model([*SPECIALS, ("ad", -1.0, NORMAL), *CHARACTERS])
    assert spm.SentencePieceProcessor(model_proto=data).encode("ad", out_type=str) == ["▁", "ad"]  # the owner copes
    with pytest.raises(FormatError, match=r"the piece 'ad' \(id 3\) holds 'd', which has no piece of its own"):
        from_sentencepiece(data)

