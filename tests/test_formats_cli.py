"""``python -m bpe export``/``import`` and ``--pretrained gpt2``, run as a user runs them.

Every format is written and read back through the CLI; every bad input ends with exit code 2 and
one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bpe import Tokenizer
from bpe.cli.commands import main
from bpe.formats import FORMATS

from .child_env import child_env
from .format_samples import run_held_by
from .machine_speed import scaled

REPO_ROOT = Path(__file__).resolve().parents[1]
TEXT = "the cat sat on the mat; the end.\n  Then: 12345 cafés 😀"
OUT_PATHS = {  # --out per format, and the files it writes
    "ours": ("t.json", ["t.json"]),
    "minbpe": ("t.model", ["t.model", "t.vocab"]),
    "hf": ("tokenizer.json", ["tokenizer.json"]),
    "tiktoken": ("t.tiktoken", ["t.tiktoken"]),
    "gpt2": ("gpt2-files", ["gpt2-files/encoder.json", "gpt2-files/vocab.bpe"]),
}
IMPORT_INPUTS = {  # --in per format (gpt2's two files in the "wrong" order on purpose)
    "ours": "t.json", "minbpe": "t.model", "hf": "tokenizer.json", "tiktoken": "t.tiktoken",
    "gpt2": "gpt2-files/vocab.bpe,gpt2-files/encoder.json",
}


def run_bpe(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bpe", *args], cwd=cwd, capture_output=True, text=True, timeout=scaled(120),
        env=child_env(),
    )


def run_ok(*args: str, cwd: Path = REPO_ROOT) -> str:
    result = run_bpe(*args, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout


def assert_clean_failure(result: subprocess.CompletedProcess, message: str) -> None:
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr, result.stderr


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("formats-cli")
    run_ok("train", "--text", TEXT * 5, "--merges", "20", "--special", "<|endoftext|>", "--save", "trained.json",
           cwd=folder)
    return folder


def encode(workdir: Path, tokenizer: str) -> list[str]:
    return run_ok("encode", "--tokenizer", tokenizer, "--text", TEXT + "<|endoftext|>", "--allowed-special", "all",
                  cwd=workdir).split()


@pytest.mark.parametrize("format", sorted(OUT_PATHS))  # the byte-level formats (subword-nmt: below)
def test_export_writes_the_documented_files_and_import_reads_them_back(workdir, format):
    out, written = OUT_PATHS[format]
    stdout = run_ok("export", "--tokenizer", "trained.json", "--format", format, "--out", out, cwd=workdir)
    for path in written:
        assert (workdir / path).is_file()
        assert f"wrote {path}" in stdout
    extra = ["--special", "<|endoftext|>=276"] if not FORMATS[format].stores_special_tokens else []
    run_ok("import", "--format", format, "--in", IMPORT_INPUTS[format], "--out", f"back-{format}.json", *extra,
           cwd=workdir)
    back = json.loads((workdir / f"back-{format}.json").read_text(encoding="utf-8"))
    original = json.loads((workdir / "trained.json").read_text(encoding="utf-8"))
    assert back["merges"] == original["merges"]
    assert back["special_tokens"] == original["special_tokens"]
    assert encode(workdir, f"back-{format}.json") == encode(workdir, "trained.json")


def test_a_subword_nmt_run_exports_its_codes_file_and_reads_back(tmp_path):
    run_ok("train", "--text", TEXT * 5, "--unit", "char", "--pretokenizer", "space", "--end-of-word", "</w>",
           "--end-of-word-mode", "attached", "--tie-break", "lexicographic-max", "--merges", "15",
           "--save", "trained.json", cwd=tmp_path)
    assert "wrote bpe.codes" in run_ok("export", "--tokenizer", "trained.json", "--format", "subword-nmt",
                                       "--out", "bpe.codes", cwd=tmp_path)
    assert (tmp_path / "bpe.codes").read_text(encoding="utf-8").startswith("#version: 0.2\n")
    run_ok("import", "--format", "subword-nmt", "--in", "bpe.codes", "--out", "back.json", cwd=tmp_path)
    run_ok("export", "--tokenizer", "back.json", "--format", "subword-nmt", "--out", "again.codes", cwd=tmp_path)
    assert (tmp_path / "again.codes").read_text(encoding="utf-8") == (tmp_path / "bpe.codes").read_text(encoding="utf-8")
    assert len(json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))["merges"]) == 15


@pytest.mark.parametrize("entry", list(FORMATS.values()), ids=lambda entry: entry.name)
def test_every_format_of_the_registry_is_exported_read_back_and_exported_again_to_the_same_files(entry, tmp_path, capsys):
    # in-process (main), so that going over every format of the registry costs no Python start-up each
    tokenizer = Tokenizer.from_trace(run_held_by(entry))
    tokenizer.save(tmp_path / "t.json")
    out = entry.file_names[0] if len(entry.file_names) == 1 else "files"  # one file: its name; more: a prefix or a folder

    def export(tokenizer_file: Path, folder: str) -> dict[str, bytes]:
        (tmp_path / folder).mkdir()
        assert main(["export", "--tokenizer", str(tokenizer_file), "--format", entry.name, "--out", str(tmp_path / folder / out)]) == 0
        written = re.findall(r"^wrote (.+)$", capsys.readouterr().out, flags=re.MULTILINE)
        assert len(written) == len(entry.file_names)
        return {Path(path).relative_to(tmp_path / folder).as_posix(): Path(path).read_bytes() for path in written}

    first = export(tmp_path / "t.json", "first")
    pattern = [] if entry.stores_pattern else ["--pretokenizer", tokenizer.pretokenizer.name]
    inputs = ",".join(str(tmp_path / "first" / name) for name in reversed(first))  # in any order
    assert main(["import", "--format", entry.name, "--in", inputs, "--out", str(tmp_path / "back.json"), *pattern]) == 0
    capsys.readouterr()
    assert export(tmp_path / "back.json", "again") == first


def test_minbpe_out_without_suffix_is_a_prefix(workdir):
    run_ok("export", "--tokenizer", "trained.json", "--format", "minbpe", "--out", "prefix", cwd=workdir)
    assert (workdir / "prefix.model").is_file() and (workdir / "prefix.vocab").is_file()


def test_pattern_free_exports_say_what_the_file_does_not_store(workdir):
    stdout = run_ok("export", "--tokenizer", "trained.json", "--format", "tiktoken", "--out", "x.tiktoken", cwd=workdir)
    assert "does not store the split pattern or special tokens" in stdout
    assert "--pretokenizer 'gpt2'" in stdout


def test_encode_and_decode_with_pretrained_gpt2():
    assert run_ok("encode", "--pretrained", "gpt2", "--text", "hello world<|endoftext|>", "--allowed-special", "all") \
        == "31373 995 50256\n"
    assert run_ok("decode", "--pretrained", "gpt2", "31373", "995") == "hello world\n"


def test_export_pretrained_gpt2_as_hf(tmp_path):
    run_ok("export", "--pretrained", "gpt2", "--format", "hf", "--out", str(tmp_path / "gpt2.json"))
    document = json.loads((tmp_path / "gpt2.json").read_text(encoding="utf-8"))
    assert len(document["model"]["merges"]) == 50000


BAD = {
    "no-tokenizer-choice": (["encode", "--text", "hi"], "one of the arguments --tokenizer --pretrained --model is required"),
    "both-tokenizer-choices": (["encode", "--tokenizer", "t.json", "--pretrained", "gpt2", "--text", "hi"],
                               "not allowed with argument"),
    "unknown-pretrained": (["encode", "--pretrained", "gpt5", "--text", "hi"], "invalid choice: 'gpt5'"),
    "unknown-format": (["export", "--pretrained", "gpt2", "--format", "onnx", "--out", "x"], "invalid choice: 'onnx'"),
    "minbpe-refuses-gpt2": (["export", "--pretrained", "gpt2", "--format", "minbpe", "--out", "x"],
                            "minbpe .model numbers bytes 0-255 by value"),
    "missing-input": (["import", "--format", "hf", "--in", "nope.json", "--out", "x.json"], "no such file: nope.json"),
    "wrong-format": (["import", "--format", "tiktoken", "--in", "trained.json", "--out", "x.json"],
                     "trained.json line 1: expected 'base64-token rank'"),
    "gpt2-needs-two-files": (["import", "--format", "gpt2", "--in", "trained.json", "--out", "x.json"],
                             "is read from encoder.json and vocab.bpe; got 1 file(s)"),
    "bad-special": (["import", "--format", "tiktoken", "--in", "t.tiktoken", "--special", "eot", "--out", "x.json"],
                    "write TEXT=ID"),
    "pattern-for-hf": (["import", "--format", "hf", "--in", "tokenizer.json", "--pretokenizer", "gpt4", "--out", "x"],
                       "stores its own split pattern"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_exits_2_with_one_line(workdir, name):
    for format in ("hf", "tiktoken"):  # the files some cases read
        out = OUT_PATHS[format][0]
        if not (workdir / out).exists():
            run_ok("export", "--tokenizer", "trained.json", "--format", format, "--out", out, cwd=workdir)
    args, message = BAD[name]
    assert_clean_failure(run_bpe(*args, cwd=workdir), message)


def test_char_level_export_is_refused_with_the_alternative(workdir):
    run_ok("train", "--text", "low lower", "--unit", "char", "--end-of-word", "</w>", "--merges", "3", "--save",
           "char.json", cwd=workdir)
    result = run_bpe("export", "--tokenizer", "char.json", "--format", "hf", "--out", "char-hf.json", cwd=workdir)
    assert_clean_failure(result, "cannot hold a char-level tokenizer")
    assert "BPE Lab JSON" in result.stderr
