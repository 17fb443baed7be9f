"""An extended SentencePiece model (Mistral with new merges) exports, checked against ``sentencepiece`` itself.

To a ``.model`` that Google's ``sentencepiece`` loads and encodes with exactly as BPE Lab encodes:
every old id keeps its piece and type (control, user-defined, byte, normal), the new pieces take
the ids after them, scored by rank. As BPE Lab JSON, still a SentencePiece model (its user-defined
pieces cut from text). Every other format says in one line why it cannot hold it. Rows come from
the registry: every pretrained entry of the ``sentencepiece`` format.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import FORMATS, export_tokenizer, import_tokenizer
from bpe.formats.sentencepiece_writer import export_problem, model_bytes
from bpe.formats.sentencepiece_tokenizer import SentencePieceModelTokenizer
from bpe.pretrained.registry import PRETRAINED, pretrained_file_paths
from bpe.teaching.extension import NEW_TEXTS
from bpe.tokens.vocab import Token
from bpe.training.extend import extend

from .hostile_text_suite import HOSTILE_TEXTS
from .shared_tokenizers import shared_pretrained

MODELS = [name for name, entry in PRETRAINED.items() if entry.format == "sentencepiece"]
NEW_TEXT = NEW_TEXTS["amh"].text + "\n" + NEW_TEXTS["hin"].text + "\n" + NEW_TEXTS["code"].text
"""A script Mistral has few pieces for (Amharic: 37 characters it spells in byte pieces), one it has
some for (Hindi), and a domain (Python code)."""
SAMPLES = {
    **{f"new text: {key}": new.text for key, new in NEW_TEXTS.items()},
    **{name: text.replace("\ud800", "\ufffd").replace("\udfff", "\ufffd") for name, text in HOSTILE_TEXTS.items()},
    "control and user-defined text": "[INST] hi [/INST] <s> </s> <unk> [REFERENCE_DOC_0] [REF] [SYSTEM_PROMPT]",
    "new characters among old": "ሰላም hello ሰላም 123 def f(x):\n    return x  # ሀ",
}
KIND = sentencepiece_model_pb2.ModelProto.SentencePiece


def pieces(model: bytes) -> list[tuple[str, int, float]]:
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(model)
    return [(piece.piece, piece.type, piece.score) for piece in proto.pieces]


@dataclass(frozen=True)
class Extended:
    name: str
    old: Tokenizer
    tokenizer: Tokenizer
    model: bytes
    """Its ``.model`` file, as BPE Lab exports it."""
    processor: spm.SentencePieceProcessor
    """``sentencepiece`` loaded with that file."""


@pytest.fixture(scope="module", params=MODELS)
def extended(request) -> Extended:
    """A SentencePiece entry with 150 new merges on :data:`NEW_TEXT`, exported and loaded by sentencepiece."""
    old = shared_pretrained(request.param)
    tokenizer = old.continued(extend(old, NEW_TEXT, merges=150), name=f"{request.param} extended")
    model = export_tokenizer(tokenizer, format="sentencepiece")["tokenizer.model"]
    return Extended(request.param, old, tokenizer, model, spm.SentencePieceProcessor(model_proto=model))


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_sentencepiece_encodes_the_exported_model_as_bpe_lab_does(extended, sample):
    text = SAMPLES[sample]
    assert extended.processor.encode(text) == extended.tokenizer.encode(text)


def test_sentencepiece_decodes_it_as_bpe_lab_does(extended):
    for text in SAMPLES.values():
        ids = extended.processor.encode(text)
        assert extended.processor.decode(ids) == extended.tokenizer.decode(ids)


def test_every_old_id_keeps_its_piece_and_type_and_the_new_ones_follow(extended):
    tokenizer = extended.tokenizer
    original = pieces(pretrained_file_paths(extended.name)[0].read_bytes())
    written = pieces(extended.model)
    assert [(piece, kind) for piece, kind, _ in written[:len(original)]] == [(piece, kind) for piece, kind, _ in original]
    added = written[len(original):]
    assert len(written) == tokenizer.n_vocab and {kind for _, kind, _ in added} == {KIND.NORMAL}
    assert [piece for piece, _, _ in added] == [tokenizer.token_text(i) for i in range(len(original), tokenizer.n_vocab)]


def test_merged_pieces_are_scored_by_rank_new_ones_below_every_old_one(extended):
    tokenizer, written = extended.tokenizer, pieces(extended.model)
    assert [written[new_id][2] for _, _, new_id in tokenizer.merges] == [-float(rank) for rank in range(len(tokenizer.merges))]
    assert len(tokenizer.merges) > len(extended.old.merges)


def test_bpe_lab_reads_its_own_export_back_as_the_same_model(extended):
    tokenizer = extended.tokenizer
    back = import_tokenizer(format="sentencepiece", files={"tokenizer.model": extended.model})
    assert isinstance(back, SentencePieceModelTokenizer) and back.user_defined == tokenizer.user_defined
    assert (back.tokens, back.merges, back.special_tokens, back.fallback_bytes) == (
        tokenizer.tokens, tokenizer.merges, tokenizer.special_tokens, tokenizer.fallback_bytes)


def test_bpe_lab_json_keeps_it_a_sentencepiece_model(extended):
    tokenizer = extended.tokenizer
    back = import_tokenizer(format="ours", files=export_tokenizer(tokenizer, format="ours"))
    assert isinstance(back, SentencePieceModelTokenizer) and back.user_defined == tokenizer.user_defined
    text = SAMPLES["control and user-defined text"]
    assert back.encode(text) == tokenizer.encode(text) == extended.processor.encode(text)


def test_each_format_holds_it_or_says_why_in_one_line(extended):
    problems = {name: entry.export_problem(extended.tokenizer) for name, entry in FORMATS.items()}
    assert problems["sentencepiece"] is None and problems["ours"] is None
    for name, problem in problems.items():
        assert problem is None or (problem.strip() and "\n" not in problem), name


# -- what the writer refuses, and why it must ------------------------------------------------------
def abc_tokenizer(merges: list[tuple[int, int, int]]) -> Tokenizer:
    """▁ a b c, then ``merges`` (ids 4 on), with <unk> last."""
    base = {i: Token(text.encode()) for i, text in enumerate("▁abc")}
    return SentencePieceModelTokenizer(
        unit="char", pretokenizer="sentencepiece", base=base, merges=merges, special_tokens={"<unk>": 7},
        unknown_token="<unk>", specials_in_text="plain",
    )


def test_a_merge_sentencepiece_would_make_from_other_parts_is_refused_as_it_would_encode_otherwise():
    # b+c first, then a+b, then ab+c: BPE Lab cuts "abc" a|bc, but SentencePiece, which knows only
    # pieces, joins a and bc because "abc" is a piece
    tokenizer = abc_tokenizer([(2, 3, 4), (1, 2, 5), (5, 3, 6)])
    problem = export_problem(tokenizer)
    assert problem is not None and "would build 'abc' (id 6) from 'a' + 'bc', not from 'ab' + 'c'" in problem
    processor = spm.SentencePieceProcessor(model_proto=model_bytes(tokenizer))
    assert tokenizer.encode("abc") == [0, 1, 4] and processor.encode("abc") == [0, 6]


def test_a_merge_spelling_a_special_tokens_text_is_refused():
    tokenizer = SentencePieceModelTokenizer(
        unit="char", pretokenizer="sentencepiece", base={i: Token(text.encode()) for i, text in enumerate("▁<s>")},
        merges=[(1, 2, 4), (4, 3, 5)], special_tokens={"<unk>": 6, "<s>": 7}, unknown_token="<unk>", specials_in_text="plain",
    )
    assert "'<s>' is both token 5 and token 7" in export_problem(tokenizer)
