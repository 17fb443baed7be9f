"""Special tokens that contain each other: the longest match wins, everywhere text is split.

Golden behaviour from Hugging Face ``tokenizers`` (its added tokens match leftmost-longest): the
same file, loaded there, gives the same ids.
"""

from __future__ import annotations

from tokenizers import Tokenizer as HfTokenizer

from bpe.corpus import Corpus
from bpe.formats import to_hf
from bpe.settings import TrainSettings
from bpe.tokenizer import Tokenizer
from bpe.trainer import train

EOT = "<|endoftext|>"
SPECIALS = (EOT, EOT + EOT, "<|end")
TEXT = f"the cat{EOT}{EOT}{EOT} sat <|end on{EOT}the mat"


def tokenizer() -> Tokenizer:
    settings = TrainSettings(merges=20, special_tokens=SPECIALS)
    return Tokenizer.from_trace(train(Corpus.from_text(TEXT * 3, special_tokens=SPECIALS), settings))


def test_training_cuts_out_the_longest_special_token_at_each_place():
    corpus = Corpus.from_text(TEXT, special_tokens=SPECIALS)
    assert corpus.special_count == 4  # EOT+EOT, EOT, <|end, EOT
    assert not any("<|" in word or "endoftext" in word for word, _ in corpus.words)


def test_encoding_takes_the_longest_special_token():
    tok = tokenizer()
    ids = tok.encode(TEXT, allowed_special="all")
    specials = [tok.token_text(i) for i in ids if tok.is_special(i)]
    assert specials == [EOT + EOT, EOT, "<|end", EOT]
    assert tok.decode(ids) == TEXT
    walk = tok.encode_walkthrough(TEXT, allowed_special="all")
    assert [chunk.text for chunk in walk if chunk.kind == "special"] == specials


def test_hugging_face_gives_the_same_ids_for_the_same_file():
    tok = tokenizer()
    theirs = HfTokenizer.from_str(to_hf(tok))
    assert theirs.encode(TEXT, add_special_tokens=False).ids == tok.encode(TEXT, allowed_special="all")
