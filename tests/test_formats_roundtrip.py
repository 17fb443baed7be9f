"""Round trips: trained (and GPT-2's) tokenizers survive every format, and the owning libraries
(Hugging Face ``tokenizers``, ``tiktoken``) load our exports and encode and decode exactly as we do.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
import tiktoken
import tiktoken.load
from tokenizers import Tokenizer as HfTokenizer
from tokenizers import decoders, models, pre_tokenizers

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError
from bpe.formats import (
    FORMATS, export_problem, export_tokenizer, from_hf, import_tokenizer, tiktoken_pattern, to_hf,
    to_minbpe, to_tiktoken,
)
from bpe.pretrained.registry import pretrained_file_paths
from bpe.text.corpus import Corpus
from bpe.text.pretokenize import GPT2_PATTERN
from bpe.tokens.byte_level import to_byte_text
from bpe.tokens.vocab import Token
from bpe.training.presets import python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.trace import Trace
from bpe.training.trainer import train

from tests.test_formats_gpt2 import ENDOFTEXT, SAMPLES

from .shared_tokenizers import shared_pretrained

PRETOKENIZERS = {
    "gpt2": "gpt2",
    "gpt4": "gpt4",
    "whitespace": "whitespace",
    "custom-regex-with-gaps": "regex:[A-Za-z]+|[0-9]+",
    "none": "none",
}
PLAIN_BYTE_LEVEL = Tokenizer(unit="byte", pretokenizer="gpt2", base={b: Token(bytes([b])) for b in range(256)}, merges=[])
HOLD_BYTE_LEVEL = [name for name, entry in FORMATS.items() if entry.export_problem(PLAIN_BYTE_LEVEL) is None]
"""The formats that hold a byte-level tokenizer, as their entries say (subword-nmt's codes hold
characters: tests/test_subword_nmt_parity.py)."""
BYTE_FORMATS = [name for name, entry in FORMATS.items() if entry.byte_level_only]


@lru_cache(maxsize=None)
def trained(pretokenizer: str) -> Trace:
    """A few hundred merges on the python docs ("none" trains one long chunk, so on a slice)."""
    text = python_docs_text()[:3000] if pretokenizer == "none" else python_docs_text()
    settings = TrainSettings(
        pretokenizer=pretokenizer, merges=100 if pretokenizer == "none" else 300, special_tokens=(ENDOFTEXT,)
    )
    return train(Corpus.from_text(text, pretokenizer=pretokenizer, special_tokens=(ENDOFTEXT,)), settings)


def trained_tokenizer(pretokenizer: str, step: int | None = None) -> Tokenizer:
    return Tokenizer.from_trace(trained(pretokenizer), step=step, name=f"trained-{pretokenizer}")


def tiktoken_encoding(tokenizer: Tokenizer, tmp_path, monkeypatch) -> tiktoken.Encoding:
    """What a tiktoken user does with our rank file: load it from a local path (offline)."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # tiktoken caches by path; a stale file would hide bugs
    path = tmp_path / "tokenizer.tiktoken"
    path.write_text(to_tiktoken(tokenizer), encoding="utf-8")
    return tiktoken.Encoding(
        name="bpe-lab-export",
        pat_str=tiktoken_pattern(tokenizer),
        mergeable_ranks=tiktoken.load.load_tiktoken_bpe(str(path)),
        special_tokens=tokenizer.special_tokens,
    )


def assert_same_tokenizer(back: Tokenizer, original: Tokenizer) -> None:
    assert back.merges == original.merges
    assert back.tokens == original.tokens
    assert back.special_tokens == original.special_tokens
    assert back.pretokenizer.name == original.pretokenizer.name
    for text in SAMPLES.values():
        assert back.encode(text, allowed_special="all") == original.encode(text, allowed_special="all")


# -- the owning libraries load our exports ------------------------------------------------------
@pytest.mark.parametrize("pretokenizer", list(PRETOKENIZERS.values()), ids=list(PRETOKENIZERS))
def test_hf_export_loads_in_tokenizers_and_encodes_and_decodes_identically(pretokenizer):
    ours = trained_tokenizer(pretokenizer)
    hf = HfTokenizer.from_str(to_hf(ours))
    for name, text in SAMPLES.items():
        ids = ours.encode(text, allowed_special="all")
        assert hf.encode(text).ids == ids, name
        assert hf.decode(ids, skip_special_tokens=False) == ours.decode(ids) == text, name


@pytest.mark.parametrize("pretokenizer", list(PRETOKENIZERS.values()), ids=list(PRETOKENIZERS))
def test_tiktoken_export_loads_in_tiktoken_and_encodes_and_decodes_identically(pretokenizer, tmp_path, monkeypatch):
    ours = trained_tokenizer(pretokenizer)
    enc = tiktoken_encoding(ours, tmp_path, monkeypatch)
    for name, text in SAMPLES.items():
        ids = ours.encode(text, allowed_special="all")
        assert enc.encode(text, allowed_special="all") == ids, name
        assert enc.decode(ids) == ours.decode(ids) == text, name


@pytest.mark.parametrize("pretokenizer", list(PRETOKENIZERS.values()), ids=list(PRETOKENIZERS))
def test_hf_pre_tokenizer_cuts_text_exactly_where_ours_does(pretokenizer):
    """Checked on the pieces themselves, so a split difference cannot hide behind absent merges."""
    ours = trained_tokenizer(pretokenizer)
    hf = HfTokenizer.from_str(to_hf(ours))
    for name, text in {**SAMPLES, "digits": "1234567 12 1 x12345y"}.items():
        pieces = [piece for piece, _ in hf.pre_tokenizer.pre_tokenize_str(text)]
        assert pieces == [to_byte_text(piece.encode()) for piece, _ in ours.pretokenizer.split(text)], name


def test_hf_refuses_custom_patterns_that_oniguruma_reads_differently():
    tokenizer = Tokenizer(
        unit="byte", pretokenizer=r"regex:\d{1,3}+|\D+", base={i: Token(bytes([i])) for i in range(256)}, merges=[]
    )
    with pytest.raises(FormatError, match=r"possessive bounded repeat.*\(\?>X\{1,3\}\)"):
        export_tokenizer(tokenizer, format="hf")


def test_gpt2_exported_to_hf_encodes_like_tiktoken_gpt2_in_tokenizers():
    gpt2 = shared_pretrained("gpt2")
    hf = HfTokenizer.from_str(to_hf(gpt2))
    for text in SAMPLES.values():
        assert hf.encode(text).ids == gpt2.encode(text, allowed_special="all")


def test_gpt2_exported_to_tiktoken_round_trips_through_tiktoken(tmp_path, monkeypatch):
    gpt2 = shared_pretrained("gpt2")
    enc = tiktoken_encoding(gpt2, tmp_path, monkeypatch)
    for text in SAMPLES.values():
        assert enc.encode(text, allowed_special="all") == gpt2.encode(text, allowed_special="all")


# -- export -> import gives the same tokenizer ---------------------------------------------------
def import_back(tokenizer: Tokenizer, format: str) -> Tokenizer:
    return import_tokenizer(
        format=format,
        files=export_tokenizer(tokenizer, format=format),
        pretokenizer=tokenizer.pretokenizer.name if not FORMATS[format].stores_pattern else "gpt2",
        special_tokens=tokenizer.special_tokens if not FORMATS[format].stores_special_tokens else None,
    )


@pytest.mark.parametrize("format", HOLD_BYTE_LEVEL)
@pytest.mark.parametrize("pretokenizer", list(PRETOKENIZERS.values()), ids=list(PRETOKENIZERS))
def test_export_then_import_gives_the_same_tokenizer(format, pretokenizer):
    original = trained_tokenizer(pretokenizer)
    assert_same_tokenizer(import_back(original, format), original)


@pytest.mark.parametrize("format", HOLD_BYTE_LEVEL)
@pytest.mark.parametrize("step", [0, 1, 57])
def test_a_tokenizer_cut_at_any_step_round_trips(format, step):
    original = trained_tokenizer("gpt2", step=step)
    assert len(original.merges) == step
    assert_same_tokenizer(import_back(original, format), original)


@pytest.mark.parametrize("format", ["ours", "hf", "tiktoken", "gpt2"])
def test_gpt2_round_trips_through_every_format_that_stores_ids(format):
    gpt2 = shared_pretrained("gpt2")
    back = import_back(gpt2, format)
    assert back.merges == gpt2.merges and back.special_tokens == gpt2.special_tokens
    assert back.encode("hello world<|endoftext|>", allowed_special="all") == [31373, 995, 50256]


def test_hf_merges_read_as_strings_or_as_pairs():
    original = trained_tokenizer("gpt2")
    document = json.loads(to_hf(original))
    document["model"]["merges"] = [" ".join(pair) for pair in document["model"]["merges"]]
    assert_same_tokenizer(from_hf(json.dumps(document)), original)


def test_hf_file_saved_by_tokenizers_itself_reads_as_gpt2():
    """A tokenizer.json written by the library (not by us): GPT-2's files through models.BPE."""
    encoder_path, merges_path = pretrained_file_paths("gpt2")
    vocab = json.loads(encoder_path.read_text(encoding="utf-8"))
    lines = merges_path.read_text(encoding="utf-8").split("\n")[1:]
    hf = HfTokenizer(models.BPE(vocab, [tuple(line.split(" ")) for line in lines if line]))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.add_special_tokens([ENDOFTEXT])
    back = from_hf(hf.to_str())
    gpt2 = shared_pretrained("gpt2")
    assert back.merges == gpt2.merges and back.special_tokens == gpt2.special_tokens
    assert back.pretokenizer.name == "gpt2"


def test_minbpe_vocab_file_spells_tokens_like_minbpe():
    model, vocab = to_minbpe(trained_tokenizer("gpt2", step=3))
    lines = vocab.splitlines()
    assert lines[10] == "[\\u000a] 10"
    assert lines[256].endswith("] 256") and " -> [" in lines[256]
    assert model.splitlines()[:4] == ["minbpe v1", GPT2_PATTERN, "1", f"{ENDOFTEXT} 556"]
    assert model.splitlines()[4:] == [f"{left} {right}" for left, right, _ in trained_tokenizer("gpt2", step=3).merges]


# -- what each format refuses, and says so ------------------------------------------------------
@pytest.fixture(scope="module")
def char_level() -> Tokenizer:
    settings = TrainSettings(unit="char", pretokenizer="whitespace", merges=5)
    return Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest", pretokenizer="whitespace"), settings))


@pytest.fixture(scope="module")
def with_marker() -> Tokenizer:
    settings = TrainSettings(pretokenizer="whitespace", end_of_word="</w>", merges=5)
    return Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest", pretokenizer="whitespace"), settings))


@pytest.mark.parametrize("format", BYTE_FORMATS)
def test_char_level_tokenizers_go_only_to_our_json(char_level, format):
    assert "char-level" in export_problem(char_level, format=format)
    with pytest.raises(FormatError, match="char-level.*BPE Lab JSON"):
        export_tokenizer(char_level, format=format)
    assert_same_tokenizer_json(char_level)


@pytest.mark.parametrize("format", BYTE_FORMATS)
def test_end_of_word_tokenizers_go_only_to_our_json(with_marker, format):
    with pytest.raises(FormatError, match="end-of-word marker '</w>'.*BPE Lab JSON"):
        export_tokenizer(with_marker, format=format)
    assert_same_tokenizer_json(with_marker)


def assert_same_tokenizer_json(tokenizer: Tokenizer) -> None:
    assert export_problem(tokenizer, format="ours") is None
    back = import_tokenizer(format="ours", files=export_tokenizer(tokenizer, format="ours"))
    assert back.merges == tokenizer.merges and back.tokens == tokenizer.tokens


def duplicate_bytes_tokenizer() -> Tokenizer:
    """"abc" made twice: (ab, c) and (a, bc). Possible in a merge list, never in a byte-keyed file."""
    a, b, c = ord("a"), ord("b"), ord("c")
    return Tokenizer(
        unit="byte", pretokenizer="gpt2", base={i: Token(bytes([i])) for i in range(256)},
        merges=[(a, b, 256), (256, c, 257), (b, c, 258), (a, 258, 259)],
    )


@pytest.mark.parametrize("format", ["hf", "tiktoken", "gpt2"])
def test_formats_keyed_by_bytes_refuse_two_ids_with_the_same_bytes(format):
    with pytest.raises(FormatError, match=r"ids 257 and 259 both decode to b'abc'"):
        export_tokenizer(duplicate_bytes_tokenizer(), format=format)


@pytest.mark.parametrize("format", ["ours", "minbpe"])
def test_formats_that_store_merges_keep_duplicate_bytes(format):
    original = duplicate_bytes_tokenizer()
    assert_same_tokenizer(import_back(original, format), original)


def test_tiktoken_refuses_merged_ids_out_of_merge_order():
    shuffled = Tokenizer(
        unit="byte", pretokenizer="gpt2", base={i: Token(bytes([i])) for i in range(256)},
        merges=[(97, 98, 300), (99, 100, 299)],
    )
    with pytest.raises(FormatError, match="merges in id order.*merge 2 makes id 299"):
        export_tokenizer(shuffled, format="tiktoken")


def test_minbpe_refuses_gpt2s_shuffled_byte_ids():
    with pytest.raises(FormatError, match="minbpe .model numbers bytes 0-255 by value"):
        export_tokenizer(shared_pretrained("gpt2"), format="minbpe")
