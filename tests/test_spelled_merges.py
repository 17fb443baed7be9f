"""A repeated merge line is read as each file's owner reads it (``bpe/formats/spelled_merges.py``).

GPT-2's ``vocab.bpe`` and Hugging Face's ``merges`` keep a repeated merge at its last rank (OpenAI's
``encoder.py`` builds ``dict(zip(bpe_merges, range(len(bpe_merges))))``; ``tokenizers`` collects its
merges into a hash map), subword-nmt's codes at its first (``tests/test_subword_nmt_parity.py``
checks that one against ``apply_bpe``). The golden ids come from ``tokenizers`` loading the very
files, and each file is built so that the two rules give different ids: a test that passed with
the repeat read either way would prove nothing.
"""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HfTokenizer
from tokenizers import decoders, models, pre_tokenizers

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError
from bpe.formats import from_gpt2, from_hf, to_gpt2, to_hf
from bpe.formats.spelled_merges import read_spelled_merges
from bpe.text.corpus import Corpus
from bpe.tokens.byte_level import UNICODE_TO_BYTE
from bpe.training.presets import python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train



@pytest.fixture(scope="module")
def trained() -> Tokenizer:
    text = python_docs_text()[:20_000]
    return Tokenizer.from_trace(train(Corpus.from_text(text, pretokenizer="gpt2"), TrainSettings(merges=300)))


def _plain(spelling: str) -> str:
    return bytes(UNICODE_TO_BYTE[char] for char in spelling).decode("utf-8", errors="strict")


def repeats(merges: list[tuple[str, str]]):
    """Each file the merges give with one merge repeated further down, just after a merge it competes
    with, and a text that spells both: ``a b`` at rank i, ``b c`` at rank k > i (no merge between joins
    ``ab``), the repeat of ``a b`` after ``b c``; the text spells ``a b c``."""
    for i, (a, b) in enumerate(merges):
        for k in range(i + 1, len(merges)):
            if a + b in merges[k]:
                break  # ab is used from here on: the repeat could not move past this merge
            if merges[k][0] == b:
                try:
                    text = _plain(a + b + merges[k][1])
                except (KeyError, UnicodeDecodeError):  # a spelling of part of a character
                    continue
                yield [*merges[: k + 1], (a, b), *merges[k + 1:]], text


def first_that_matters(merges: list[tuple[str, str]], owner_ids) -> tuple[list[tuple[str, str]], str, list[int]]:
    """The first of :func:`repeats` whose text the owner encodes otherwise once the merge is repeated:
    a file that the two rules read alike would prove nothing."""
    for repeated, text in repeats(merges):
        if (theirs := owner_ids(repeated, text)) != owner_ids(merges, text):
            return repeated, text, theirs
    raise AssertionError("no repeat changes the owner's ids: train more merges")


def _hf_merges(document: dict) -> list[tuple[str, str]]:
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in document["model"]["merges"]]


def test_a_repeated_hugging_face_merge_counts_at_its_last_rank_as_in_tokenizers(trained):
    document = json.loads(to_hf(trained))

    def with_merges(merges) -> str:
        return json.dumps({**document, "model": {**document["model"], "merges": [list(pair) for pair in merges]}})

    def owner_ids(merges, text):
        return HfTokenizer.from_str(with_merges(merges)).encode(text, add_special_tokens=False).ids

    merges, text, theirs = first_that_matters(_hf_merges(document), owner_ids)
    ours = from_hf(with_merges(merges))
    assert ours.encode(text) == theirs and len(ours.merges) == len(trained.merges)


def test_a_repeated_gpt2_merge_counts_at_its_last_rank_as_encoder_py_ranks_it(trained):
    encoder_json, vocab_bpe = to_gpt2(trained)
    header, *lines = vocab_bpe.rstrip("\n").split("\n")

    def owner_ids(merges, text):  # Hugging Face reading GPT-2's two files, ranked as encoder.py's bpe_ranks are
        owner = HfTokenizer(models.BPE(vocab=json.loads(encoder_json), merges=merges))
        owner.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        owner.decoder = decoders.ByteLevel()
        return owner.encode(text, add_special_tokens=False).ids

    merges, text, theirs = first_that_matters([tuple(line.split(" ")) for line in lines], owner_ids)
    repeated_pair = next(pair for pair in merges if merges.count(pair) > 1)
    ranks = dict(zip(merges, range(len(merges))))  # encoder.py's bpe_ranks: a repeated pair's rank is its last line
    assert ranks[repeated_pair] == len(merges) - 1 - merges[::-1].index(repeated_pair)
    repeated = "\n".join([header, *(" ".join(pair) for pair in merges)]) + "\n"
    assert from_gpt2(encoder_json=encoder_json, vocab_bpe=repeated).encode(text) == theirs


def test_one_reader_keeps_the_first_or_the_last_of_a_repeated_line():
    lines = [(1, "a b"), (2, "b c"), (3, "a b"), (4, "c d")]
    assert read_spelled_merges(lines, keep="first", source="codes") == [(1, "a", "b"), (2, "b", "c"), (4, "c", "d")]
    assert read_spelled_merges(lines, keep="last", source="vocab.bpe") == [(2, "b", "c"), (3, "a", "b"), (4, "c", "d")]
    listed = [(1, ["a", "b"]), (2, "a b")]  # Hugging Face's two spellings of one merge are one merge
    assert read_spelled_merges(listed, keep="last", source="tokenizer.json,", counted="merge") == [(2, "a", "b")]


@pytest.mark.parametrize("entry", ["a b c", "a  b", "ab", " a", ["a"], ["a", ""], 7])
def test_an_entry_that_is_not_two_tokens_is_refused_naming_it(entry):
    with pytest.raises(FormatError, match="^vocab.bpe line 5: expected two tokens separated by one space"):
        read_spelled_merges([(5, entry)], keep="last", source="vocab.bpe")


def test_a_repeat_whose_token_is_joined_before_its_last_line_is_refused_at_either_rule_only_when_moved():
    lines = [(1, "a b"), (2, "ab c"), (3, "a b")]
    assert read_spelled_merges(lines, keep="first", source="codes") == [(1, "a", "b"), (2, "ab", "c")]
    with pytest.raises(FormatError, match="line 3: repeats the merge a b of line 1; .* but line 2 already joins 'ab'"):
        read_spelled_merges(lines, keep="last", source="vocab.bpe")
