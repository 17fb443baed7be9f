"""``save`` and ``from_file`` (Hugging Face's and minbpe's names): a tokenizer or a trace written to a
file reads back the same, and a wrong file says what is wrong with it."""

from __future__ import annotations

import pytest

from bpe import PRESETS, Corpus, Tokenizer, Trace, TrainSettings, train
from bpe.errors import BpeError, FormatError

SENNRICH_PAPER = train(PRESETS["sennrich-paper"].corpus(), PRESETS["sennrich-paper"].settings)
WITH_SPECIALS = train(
    Corpus.from_text("ab ab ab <|end|> cd cd", special_tokens=("<|end|>",)),
    TrainSettings(merges=4, special_tokens=("<|end|>",)),
)


@pytest.mark.parametrize("trace", [SENNRICH_PAPER, WITH_SPECIALS], ids=["char-level-with-marker", "byte-level-with-special"])
def test_a_tokenizer_saved_to_a_file_reads_back_the_same(trace, tmp_path):
    tokenizer = Tokenizer.from_trace(trace, name="mine")
    path = tmp_path / "tokenizer.json"
    tokenizer.save(path)
    back = Tokenizer.from_file(path)
    assert back.to_json() == tokenizer.to_json() == path.read_text(encoding="utf-8")
    assert (back.name, back.merges, back.special_tokens) == (tokenizer.name, tokenizer.merges, tokenizer.special_tokens)
    text = "lowest newer<|end|>" if tokenizer.special_tokens else "lowest newer"
    assert back.encode(text, allowed_special="all") == tokenizer.encode(text, allowed_special="all")
    assert Tokenizer.from_file(str(path)).merges == tokenizer.merges  # a str path as well as a Path


def test_a_trace_saved_to_a_file_reads_back_equal_without_its_corpus(tmp_path):
    path = tmp_path / "trace.json"
    SENNRICH_PAPER.save(path)
    back = Trace.from_file(path)
    assert back == SENNRICH_PAPER and back.steps == SENNRICH_PAPER.steps
    assert back.corpus is None  # a trace file keeps the merges, not the corpus


def test_reading_a_missing_file_a_folder_or_another_kind_of_file_says_what_is_wrong(tmp_path):
    with pytest.raises(BpeError, match="no such file: .*absent.json"):
        Tokenizer.from_file(tmp_path / "absent.json")
    with pytest.raises(BpeError, match="is a folder, not a file"):
        Trace.from_file(tmp_path)
    SENNRICH_PAPER.save(tmp_path / "trace.json")
    with pytest.raises(FormatError, match='not a BPE Lab tokenizer file: expected "format": "bpe-lab/tokenizer"'):
        Tokenizer.from_file(tmp_path / "trace.json")
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(BpeError, match="latin1.json is not UTF-8 text"):
        Tokenizer.from_file(tmp_path / "latin1.json")


def test_saving_into_a_folder_that_does_not_exist_says_so(tmp_path):
    with pytest.raises(BpeError, match="cannot write .*no-folder/t.json: No such file or directory"):
        Tokenizer.from_trace(SENNRICH_PAPER).save(tmp_path / "no-folder" / "t.json")
