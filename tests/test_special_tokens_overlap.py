"""Special tokens that contain each other: the longest match wins, everywhere text is split.

Golden behaviour from Hugging Face ``tokenizers`` (its added tokens match leftmost-longest): the
same file, loaded there, gives the same ids. When only some are allowed, tiktoken's rule: the
longest special token at the leftmost place is found among *all* of them, and one that is not
allowed stays text (the search goes on from its second character), so with ``<|e|>`` allowed and
``<|e|><|e|>`` not, ``<|e|><|e|>`` is the text ``<|e|>`` and then the token ``<|e|>``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HfTokenizer

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import to_hf
from bpe.text.corpus import Corpus
from bpe.tokens.vocab import Token
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

from .examples import examples

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


# -- allowed and not-allowed special tokens that overlap: tiktoken's rule -----------------------------
E, EE = "<|e|>", "<|e|><|e|>"


def byte_tokenizers(specials: dict[str, int]) -> tuple[Tokenizer, "tiktoken.Encoding"]:
    """Ours and tiktoken's, with no merges and the same split: only the special tokens decide."""
    import tiktoken

    ours = Tokenizer(unit="byte", pretokenizer=r"regex:\S+|\s+", base={i: Token(bytes([i])) for i in range(256)},
                     merges=[], special_tokens=specials)
    theirs = tiktoken.Encoding("t", pat_str=r"\S+|\s+", mergeable_ranks={bytes([i]): i for i in range(256)},
                               special_tokens=specials)
    return ours, theirs


def test_a_longer_special_token_that_is_not_allowed_stays_text_as_in_tiktoken():
    ours, theirs = byte_tokenizers({E: 256, EE: 257})
    expected = [60, 124, 101, 124, 62, 256]  # tiktoken: the longer token's first half as text, then <|e|>
    assert theirs.encode(EE, allowed_special={E}, disallowed_special=()) == expected
    assert ours.encode(EE, allowed_special={E}, disallowed_special=()) == expected
    assert ours.decode(expected) == EE
    walk = ours.encode_walkthrough(EE, allowed_special={E}, disallowed_special=())
    assert [(chunk.kind, chunk.text) for chunk in walk] == [("word", E), ("special", E)]


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.sampled_from([E, EE, "<|", "e|>", "|>", "a", " "]), max_size=10).map("".join),
    st.sets(st.sampled_from([E, EE, "<|x|>"])),
)
def test_any_mix_of_overlapping_special_tokens_encodes_as_in_tiktoken(text, allowed):
    ours, theirs = byte_tokenizers({E: 256, EE: 257, "<|x|>": 258})
    expected = theirs.encode(text, allowed_special=allowed, disallowed_special=())
    assert ours.encode(text, allowed_special=allowed, disallowed_special=()) == expected
    for cut in range(len(text) + 1):
        streamed = ours.encode_iterable([text[:cut], text[cut:]], allowed_special=allowed, disallowed_special=())
        assert list(streamed) == expected, cut
