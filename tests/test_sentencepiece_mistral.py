"""The ``mistral`` pre-tokenizer trains and encodes as ``sentencepiece`` does with Mistral's options.

Mistral's ``.model`` files (and Llama 2's) were trained with three SentencePiece options away from
their defaults: ``remove_extra_whitespaces=False`` (every space kept), ``split_digits=True`` and
``allow_whitespace_only_pieces=True``. ``sentencepiece`` trains with them here on the corpora of
``tests/test_sentencepiece_parity.py``, and BPE Lab (char unit, ``--pretokenizer mistral``,
``--tie-break sentencepiece``) must learn the same pieces in the same order and cut texts into the
same pieces (an unknown character is ``<unk>`` in both: SentencePiece names its piece by its text).
"""

from __future__ import annotations

import io
import re

import pytest
import sentencepiece as spm

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.text.pretokenize import Pretokenizer

from .owners import owner_of
from .shared_tokenizers import shared_pretrained
from .test_sentencepiece_parity import CORPORA, corpus_file, folder  # noqa: F401  (folder: the fixture)

MISTRAL_OPTIONS = {"remove_extra_whitespaces": False, "split_digits": True, "allow_whitespace_only_pieces": True}


def trained_by_sentencepiece(path, size: int) -> spm.SentencePieceProcessor:
    """``sentencepiece`` with Mistral's options; a corpus too small for ``size`` gets the size it allows."""
    while True:
        model = io.BytesIO()
        try:
            spm.SentencePieceTrainer.train(
                input=str(path), model_writer=model, model_type="bpe", vocab_size=size, character_coverage=1.0,
                normalization_rule_name="identity", minloglevel=2, num_threads=1, **MISTRAL_OPTIONS,
            )
            return spm.SentencePieceProcessor(model_proto=model.getvalue())
        except RuntimeError as error:  # "Vocabulary size too high (800). Please set it to a value <= 168."
            size = int(re.search(r"<= (\d+)", str(error)).group(1))


@pytest.mark.parametrize("name", list(CORPORA))
def test_training_and_encoding_with_mistrals_options_give_sentencepieces_pieces(folder, name):  # noqa: F811
    text, size = CORPORA[name]
    processor = trained_by_sentencepiece(corpus_file(name, folder), size)
    reference = [processor.id_to_piece(i) for i in range(processor.get_piece_size())]
    settings = TrainSettings(unit="char", pretokenizer="mistral", tie_break="sentencepiece", vocab_size=len(reference), min_frequency=0)
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(text, pretokenizer="mistral"), settings))
    learned = [tokenizer.token_text(new_id) for _, _, new_id in tokenizer.merges]
    assert learned == reference[3:3 + len(learned)] and len(learned) >= 10
    for sample in (text, "  two  spaces 12345\tand a tab  ", "a b"):
        theirs = [processor.id_to_piece(i) if i != processor.unk_id() else "<unk>" for i in processor.encode(sample)]
        assert [tokenizer.token_text(i) for i in tokenizer.encode(sample)] == theirs


def test_every_space_is_kept_and_decoding_drops_only_the_one_in_front():
    mistral = Pretokenizer.parse("mistral")
    assert mistral.normalize("  a  b ") == "▁▁▁a▁▁b▁"
    assert mistral.split(mistral.normalize("  a  b 12")) == [("▁▁▁a", True), ("▁▁b", True), ("▁12", True)]
    assert mistral.denormalize("▁▁▁a▁▁b▁") == "  a  b "


def test_encode_ordinary_cuts_the_user_defined_pieces_out_as_sentencepiece_does():
    """Special-token text stays text, but for user-defined pieces, which SentencePiece always cuts out (its cut
    is prepared once: Vocabulary health encodes 600,000 short texts this way)."""
    mistral, owner = shared_pretrained("mistral-v3"), owner_of("mistral-v3")
    for piece in sorted(mistral.user_defined)[:3]:
        text = f"hello {piece} world{piece}<s>[INST]"
        assert mistral.encode_ordinary(text) == owner.default(text)
        assert mistral.encode_ordinary(text).count(mistral.special_tokens[piece]) == 2
