"""Tables shared, not copied (issue 52): tokenizers whose tables have the same contents share one core
in memory and one file on disk, and a table that begins with another's whole contents is written
and held on it, whichever was built first. Found from the contents, never from a name."""

from __future__ import annotations

import json
import weakref

import pytest

from bpe.text.corpus import Corpus
from bpe.encoding.tokenizer import Tokenizer
from bpe.pretrained import core_files, merge_cache
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

TEXT = " ".join(f"{word}{n}" for n in range(60) for word in ("lower", "newest", "widest", "def f(x):", "return"))


def trained(merges: int) -> Tokenizer:
    """Byte-level, GPT-2's split: 20 merges are the first 20 of 40 (training is deterministic)."""
    return Tokenizer.from_trace(train(Corpus.from_text(TEXT, pretokenizer="gpt2"), TrainSettings(pretokenizer="gpt2", merges=merges)))


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_LAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())
    return tmp_path / "cache"


def cached(name: str, built: Tokenizer, special_tokens: dict[str, int] | None = None) -> Tokenizer:
    return merge_cache.cached_tokenizer(name=name, source_hash=name[0] * 64, pretokenizer="gpt2",
                                        special_tokens=special_tokens or {}, build=lambda: built)


def forget_cores(monkeypatch) -> None:
    """The next load reads its core from the file (a core this process holds is used as it is)."""
    monkeypatch.setattr(core_files, "_CORES", weakref.WeakValueDictionary())


def core_headers(folder) -> dict[int, dict]:
    """Each core file's header, by its merge count."""
    headers = [json.loads(path.read_bytes().split(b"\n", 1)[0]) for path in folder.glob("core-*.table")]
    return {header["merges"]: header for header in headers}


def test_two_tables_of_the_same_contents_share_one_core_in_memory_and_one_file(monkeypatch, cache_folder):
    built = trained(20)
    plain = cached("plain", built)
    special = cached("special", built, {"<|end|>": 10_000})
    assert plain._table.shared is special._table.shared
    assert len(core_headers(cache_folder)) == 1 and len(list(cache_folder.glob("core-*.table"))) == 1
    forget_cores(monkeypatch)
    again = [cached(name, built, specials) for name, specials in (("plain", None), ("special", {"<|end|>": 10_000}))]
    assert again[0]._table.shared is again[1]._table.shared  # read from the file once
    assert again[1].encode("lowest<|end|>", allowed_special="all") == built.encode("lowest") + [10_000]


@pytest.mark.parametrize("order", ["shorter first", "longer first"])
def test_a_table_that_extends_another_is_written_and_held_on_it(monkeypatch, cache_folder, order):
    short, long = trained(20), trained(40)
    assert len(long.merges) == 40 and long.merges[:20] == short.merges  # the premise: a table that begins with another's whole contents
    for name, built in (("short", short), ("long", long))[::1 if order == "shorter first" else -1]:
        cached(name, built)
    headers = core_headers(cache_folder)
    assert headers[40]["parent"] == headers[20]["core_sha256"] and headers[20]["parent"] is None
    assert headers[40]["sizes"][1] == 20  # its file holds only the 20 merges past the shorter's
    forget_cores(monkeypatch)
    loaded_long, loaded_short = cached("long", long), cached("short", short)
    assert loaded_long._table.shared.parent is loaded_short._table.shared
    assert next(iter(loaded_long._table.ranks)) is next(iter(loaded_short._table.ranks))  # the parent's objects
    assert loaded_long.merges == long.merges and loaded_long.encode(TEXT) == long.encode(TEXT)
    assert loaded_short.encode(TEXT) == short.encode(TEXT)
