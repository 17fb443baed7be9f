"""SentencePiece BPE: BPE Lab learns ``sentencepiece``'s pieces in its order, and encodes as it does.

The reference is the ``sentencepiece`` package itself, training offline on the same files
(``SentencePieceTrainer.train(model_type="bpe", character_coverage=1.0,
normalization_rule_name="identity")``, every other option at its default) and encoding with the
model it wrote. Our side is ``--unit char --pretokenizer sentencepiece --tie-break sentencepiece``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.errors import FormatError
from bpe.formats import import_tokenizer
from bpe.formats.sentencepiece_model import from_sentencepiece, to_sentencepiece
from bpe.text.sentencepiece_scripts import script_of
from bpe.text.sentencepiece_split import training_sentences
from bpe.training.presets import python_docs_text

from .examples import examples
from .multilingual import MULTILINGUAL, digits_corpus, multilingual_corpus
from .strategies import SENTENCEPIECE_CORPUS, SENTENCEPIECE_LINE
from .test_formats_gpt2 import SAMPLES

REPO_ROOT = Path(__file__).resolve().parents[1]
TABS_AND_SCRIPTS = "\n".join([
    "name\tvalue\t€\t€ 1\t2", "\tindented\tline", "a\x1fb\x1fab cd\x1fcd", "<s>hello</s> <unk>x", "\x00ab\x00",
    "!\U00013000 \U00013000\U00013001 \U00014400\U00014401 \U000109a0\U000109a1 !\U00014400",
    "\U00010b40\U00010b41 \U00010b60\U00010b61 \U00010b40\U00010b60",  # Inscriptional Parthian and Pahlavi
] * 4)
"""Tabs (ordinary characters since sentencepiece 0.2.3), U+001F (its boundary), NUL, special pieces'
names typed in the text, and the five scripts (Egyptian, Anatolian and Meroitic Hieroglyphs,
Inscriptional Parthian and Pahlavi) that BPE Lab's typed script table once missed."""


def left_out_of_the_thousand() -> str:
    """A pair (βγ, 55 times) below the thousand most frequent that is the best of all two merges
    later: the (mark, letter) pairs above it die when ``α`` + mark merges (``α\u0301A`` would mix
    Greek and Latin). sentencepiece 0.2.3 merges βγ next; releases up to 0.2.1 (and a BPE Lab that
    looked among a refreshed "active" set) went on merging the dead pairs first."""
    letters = [chr(code) for code in range(0x41, 0x3000) if script_of(chr(code)) == "Latin"][:1000]
    return "\n".join(["α\u0301" + letter for letter in letters for _ in range(60)] + ["βγ"] * 55)


CORPORA = {
    "python-docs": (python_docs_text()[:200_000], 2000),
    "multilingual": (multilingual_corpus(), 900),
    "long-digit-runs": (digits_corpus(), 800),
    # asked for more pieces than the corpus holds: SentencePiece goes on with pairs that no longer occur
    "beyond-the-corpus": ("low lower lowest\nnewer wider\n", 40),
    "tabs-boundaries-and-scripts": (TABS_AND_SCRIPTS, 60),
    "a-pair-left-out-of-the-thousand-most-frequent": (left_out_of_the_thousand(), 3 + 1005 + 10),
}
UNSEEN = {**SAMPLES, "multilingual": MULTILINGUAL, "spaces": "  two  spaces\tand a tab  ", "marker": "▁already▁ ▁"}


@cache
def corpus_file(name: str, folder: Path) -> Path:
    path = folder / f"{name}.txt"
    path.write_text(CORPORA[name][0], encoding="utf-8")
    return path


def sentencepiece_model(path: Path, vocab_size: int, **options) -> bytes:
    """The .model bytes ``sentencepiece`` trains on ``path`` (no file written but the input's)."""
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(**{
        "input": str(path), "model_writer": model, "model_type": "bpe", "vocab_size": vocab_size,
        "character_coverage": 1.0, "normalization_rule_name": "identity", "minloglevel": 2, "num_threads": 1, **options,
    })
    return model.getvalue()


def pieces(model: bytes) -> list[str]:
    processor = spm.SentencePieceProcessor(model_proto=model)
    return [processor.id_to_piece(i) for i in range(processor.get_piece_size())]


def ours(text: str, vocab_size: int) -> Tokenizer:
    settings_ = TrainSettings(
        unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", vocab_size=vocab_size, min_frequency=0,
    )
    return Tokenizer.from_trace(train(Corpus.from_text(text, pretokenizer="sentencepiece"), settings_))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("sentencepiece")


@pytest.mark.parametrize("name", list(CORPORA))
def test_training_learns_sentencepieces_pieces_in_its_order(folder, name):
    text, size = CORPORA[name]
    reference = pieces(sentencepiece_model(corpus_file(name, folder), size))
    tokenizer = ours(text, size)
    learned = [tokenizer.token_text(new_id) for _, _, new_id in tokenizer.merges]
    assert learned == reference[3:3 + len(learned)]  # merge for merge
    assert pieces(to_sentencepiece(tokenizer)) == reference  # and every piece, characters and ids included
    assert len(reference) == size >= 40


def test_the_command_line_learns_the_same_pieces(folder):
    text, size = CORPORA["long-digit-runs"]
    path = corpus_file("long-digit-runs", folder)
    command = [sys.executable, "-m", "bpe", "train", "--file", str(path), "--unit", "char", "--pretokenizer",
               "sentencepiece", "--tie-break", "sentencepiece", "--vocab-size", str(size), "--json"]
    result = json.loads(subprocess.run(
        [*command, "--save", str(folder / "digits.json")], capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    ).stdout)
    learned = [merge["token"] for merge in result["merges"]]
    reference = pieces(sentencepiece_model(path, size))
    assert learned == reference[3:3 + len(learned)]
    assert result["vocab_size"] == size and len(learned) > 500
    for arguments in (["export", "--tokenizer", "digits.json", "--format", "sentencepiece", "--out", "digits.model"],
                      ["import", "--format", "sentencepiece", "--in", "digits.model", "--out", "back.json"]):
        subprocess.run([sys.executable, "-m", "bpe", *arguments], capture_output=True, check=True, cwd=folder,
                       env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert pieces((folder / "digits.model").read_bytes()) == reference
    assert Tokenizer.from_json((folder / "back.json").read_text(encoding="utf-8")).encode("call 0123") == (
        spm.SentencePieceProcessor(model_proto=(folder / "digits.model").read_bytes()).encode("call 0123")
    )


def test_the_command_line_goes_on_past_the_corpus_as_sentencepiece_does_without_a_minimum_frequency_given(folder):
    text, size = CORPORA["beyond-the-corpus"]
    result = json.loads(subprocess.run(
        [sys.executable, "-m", "bpe", "train", "--text", text, "--unit", "char", "--pretokenizer", "sentencepiece",
         "--tie-break", "sentencepiece", "--vocab-size", str(size), "--json"],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    ).stdout)
    learned = [merge["token"] for merge in result["merges"]]
    reference = pieces(sentencepiece_model(corpus_file("beyond-the-corpus", folder), size))
    assert learned == reference[3:3 + len(learned)] and result["vocab_size"] == size  # pairs seen once, then gone


def test_with_byte_fallback_it_learns_the_same_merges_with_256_fewer_pieces_asked(folder):
    """BPE Lab's training has no byte pieces: the 256 are SentencePiece's, after <unk> <s> </s>."""
    text, size = CORPORA["multilingual"]
    reference = pieces(sentencepiece_model(corpus_file("multilingual", folder), size + 256, byte_fallback=True))
    assert reference[3:259] == [f"<0x{byte:02X}>" for byte in range(256)]
    tokenizer = ours(text, size)
    assert [tokenizer.token_text(new_id) for _, _, new_id in tokenizer.merges] == reference[259:259 + len(tokenizer.merges)]


@cache
def imported(byte_fallback: bool, folder: Path) -> tuple[Tokenizer, spm.SentencePieceProcessor]:
    model = sentencepiece_model(corpus_file("python-docs", folder), 2000, byte_fallback=byte_fallback)
    return from_sentencepiece(model), spm.SentencePieceProcessor(model_proto=model)


@pytest.mark.parametrize("byte_fallback", [False, True], ids=["unknown-as-unk", "byte-fallback"])
@pytest.mark.parametrize("sample", list(UNSEEN))
def test_an_imported_model_encodes_unseen_text_as_sentencepiece(folder, byte_fallback, sample):
    tokenizer, processor = imported(byte_fallback, folder)
    text = UNSEEN[sample]
    ids = tokenizer.encode(text)
    assert ids == processor.encode(text)
    shown = processor.encode(text, out_type=str)  # an unknown piece shows its characters, not <unk>
    assert [piece_name(tokenizer, i) for i, piece in zip(ids, shown) if i != processor.unk_id()] == [
        piece for i, piece in zip(ids, shown) if i != processor.unk_id()
    ]
    if byte_fallback:
        assert tokenizer.decode(ids) == processor.decode(ids)


def piece_name(tokenizer: Tokenizer, token_id: int) -> str:
    """A token as SentencePiece names it (a byte-fallback token as <0xE2>)."""
    byte = tokenizer.fallback_bytes.get(token_id)
    return tokenizer.token_text(token_id) if byte is None else f"<0x{byte:02X}>"


def test_byte_fallback_spells_an_unknown_character_in_byte_pieces(folder):
    tokenizer, processor = imported(True, folder)
    assert [tokenizer.decode_single_token_bytes(i) for i in tokenizer.encode("☃")] == ["▁".encode(), *map(bytes, ([0xE2], [0x98], [0x83]))]
    assert processor.encode("☃", out_type=str) == ["▁", "<0xE2>", "<0x98>", "<0x83>"]


@settings(max_examples=examples(100), deadline=None)
@given(st.text(max_size=40) | st.text(alphabet=st.sampled_from("ab ▁\t\n1é東\u0301☃ "), max_size=40) | SENTENCEPIECE_LINE)
def test_any_text_encodes_as_sentencepiece_with_and_without_byte_fallback(folder, text):
    for byte_fallback in (False, True):
        tokenizer, processor = imported(byte_fallback, folder)
        assert tokenizer.encode(text) == processor.encode(text)


@settings(max_examples=examples(120), deadline=None)
@given(SENTENCEPIECE_CORPUS, st.lists(SENTENCEPIECE_LINE, max_size=4))
def test_any_corpus_of_tabs_boundaries_and_scripts_trains_and_encodes_as_sentencepiece(folder, text, samples):
    assume(training_sentences(text))  # sentencepiece refuses a corpus with nothing to train on
    path = folder / "drawn.txt"
    path.write_text(text, encoding="utf-8", newline="")
    model = sentencepiece_model(path, 400, hard_vocab_limit=False)
    reference = pieces(model)
    assert pieces(to_sentencepiece(ours(text, len(reference)))) == reference, "merges, characters and ids"
    imported_model, processor = from_sentencepiece(model), spm.SentencePieceProcessor(model_proto=model)
    for sample in [text, *samples]:
        assert imported_model.encode(sample) == processor.encode(sample), sample


def test_the_format_registry_reads_and_writes_model_files(folder):
    tokenizer, processor = imported(True, folder)
    files = {"tokenizer.model": to_sentencepiece(tokenizer)}
    assert import_tokenizer(format="sentencepiece", files=files).encode(MULTILINGUAL) == processor.encode(MULTILINGUAL)
    assert pieces(files["tokenizer.model"]) == [processor.id_to_piece(i) for i in range(processor.get_piece_size())]


@pytest.mark.parametrize("options, refused", [
    ({"model_type": "unigram"}, "unigram model"),
    ({"normalization_rule_name": "nmt_nfkc"}, "normalizes text with 'nmt_nfkc'"),
    ({"split_digits": True}, "split_digits is True"),
    ({"remove_extra_whitespaces": False}, "remove_extra_whitespaces is False"),
])
def test_models_it_cannot_replay_are_refused_saying_why(folder, options, refused):
    model = sentencepiece_model(corpus_file("long-digit-runs", folder), 100, **options)
    with pytest.raises(FormatError, match=refused):
        from_sentencepiece(model)


def test_a_model_file_cut_short_is_a_format_error(folder):
    model = sentencepiece_model(corpus_file("long-digit-runs", folder), 100)
    with pytest.raises(FormatError, match="tokenizer.model:"):
        from_sentencepiece(model[: len(model) // 2])
