"""Imports in a worker with a budget (``bpe.formats.bounded_import``): what the app, ``import`` and ``check`` use.

The adversary's file is the issue's: the tokens a, aa, aaaa, ... as a rank file or a ``.model``.
Its recovery is O(n log n) now (``tests/test_merge_recovery.py``), so to see each budget refuse,
the tests give the worker a budget smaller than the file needs.
"""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys

import pytest

from bpe.errors import FormatError
from bpe.formats import import_tokenizer
from bpe.formats.bounded_import import ImportBudget, ImportBudgetError, import_tokenizer_bounded
from bpe.formats.sentencepiece_proto import _BPE, _NORMALIZER_DEFAULTS, NORMAL, UNKNOWN, _bytes_field, _int_field, _key

from .child_env import child_env
from .machine_speed import scaled
from .test_formats_cli import REPO_ROOT, run_bpe


def doubling_rank_file(longest: int) -> bytes:
    """The 256 bytes, then a * 2, a * 4, ... a * 2**longest, ranked in that order."""
    lines = [f"{base64.b64encode(bytes([byte])).decode()} {byte}" for byte in range(256)]
    lines += [f"{base64.b64encode(b'a' * 2 ** k).decode()} {255 + k}" for k in range(1, longest + 1)]
    return ("\n".join(lines) + "\n").encode("ascii")


def doubling_model(longest: int) -> bytes:
    """A SentencePiece BPE ``.model`` of <unk>, a * 2 ... a * 2**longest (best first), then a."""
    pieces = [("<unk>", 0.0, UNKNOWN), *(("a" * 2 ** k, -float(k), NORMAL) for k in range(1, longest + 1)),
              ("a", -float(longest + 1), NORMAL)]
    records = b"".join(
        _bytes_field(1, _bytes_field(1, text.encode()) + _key(2, 5) + struct.pack("<f", score) + _int_field(3, kind))
        for text, score, kind in pieces
    )
    trainer = _int_field(3, _BPE) + _int_field(4, len(pieces))
    normalizer = _bytes_field(1, b"identity") + b"".join(_int_field(number, 1) for number in _NORMALIZER_DEFAULTS)
    return records + _bytes_field(2, trainer) + _bytes_field(3, normalizer)


def test_a_bounded_import_reads_what_the_reader_reads():
    files = {"d.tiktoken": doubling_rank_file(8)}
    bounded, direct = import_tokenizer_bounded(format="tiktoken", files=files, name="d"), import_tokenizer(format="tiktoken", files=files, name="d")
    assert bounded.to_json() == direct.to_json()
    assert bounded.encode("a" * 256) == [263]


def test_the_doubling_model_imports_within_the_default_budget_up_to_sentencepieces_longest_piece():
    tokenizer = import_tokenizer_bounded(format="sentencepiece", files={"d.model": doubling_model(12)})
    assert tokenizer.encode("a" * 2 ** 12) == [0, 12]  # ▁ is no piece: the unknown token, then the longest piece
    with pytest.raises(FormatError, match="piece 13 is 8,192 bytes long"):  # as sentencepiece refuses it
        import_tokenizer_bounded(format="sentencepiece", files={"d.model": doubling_model(13)})


def test_a_file_that_needs_more_cpu_than_the_budget_is_refused():
    """It needs about 4.5 s of CPU; only the kernel's signal at 1 s gives this message."""
    with pytest.raises(ImportBudgetError, match=r"needs more than 1 s of CPU, an import's budget here"):
        import_tokenizer_bounded(format="tiktoken", files={"d.tiktoken": doubling_rank_file(20)}, budget=ImportBudget(cpu_s=1))


def test_a_file_that_needs_more_memory_than_the_budget_is_refused():
    with pytest.raises(ImportBudgetError, match=r"needs more than 40 MB of memory"):
        import_tokenizer_bounded(format="tiktoken", files={"d.tiktoken": doubling_rank_file(20)}, budget=ImportBudget(memory_mb=40))


def test_an_import_past_its_deadline_is_stopped():
    with pytest.raises(ImportBudgetError, match=r"did not finish within 0 s"):
        import_tokenizer_bounded(format="tiktoken", files={"d.tiktoken": doubling_rank_file(20)}, budget=ImportBudget(wall_s=0.2))


def test_the_readers_own_error_comes_back_as_it_was():
    with pytest.raises(FormatError, match=r"^bad\.tiktoken line 1: expected 'base64-token rank'"):
        import_tokenizer_bounded(format="tiktoken", files={"bad.tiktoken": b"not a rank file\n"})


@pytest.mark.parametrize("command", ["import", "check"])
def test_the_cli_refuses_with_one_line(tmp_path, command):
    (tmp_path / "d.tiktoken").write_bytes(doubling_rank_file(20))
    arguments = {
        "import": ["--format", "tiktoken", "--in", str(tmp_path / "d.tiktoken"), "--out", str(tmp_path / "d.json")],
        "check": ["--merges", str(tmp_path / "d.tiktoken"), "--preset", "sennrich"],
    }[command]
    result = subprocess.run(
        [sys.executable, "-m", "bpe", command, *arguments], cwd=REPO_ROOT, capture_output=True, text=True, timeout=scaled(120),
        env=child_env(BPE_LAB_IMPORT_CPU_S="1"),
    )
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "needs more than 1 s of CPU" in result.stderr and not (tmp_path / "d.json").exists()


def test_the_cli_import_writes_what_the_worker_read(tmp_path):
    (tmp_path / "d.tiktoken").write_bytes(doubling_rank_file(4))
    result = run_bpe("import", "--format", "tiktoken", "--in", str(tmp_path / "d.tiktoken"), "--out", str(tmp_path / "d.json"))
    assert result.returncode == 0, result.stderr
    assert len(json.loads((tmp_path / "d.json").read_text())["merges"]) == 4
