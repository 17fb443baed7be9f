"""``python -m bpe`` as a user (or a script) runs it: a real subprocess from the repository root.

The CLI's contract: ``--json`` output with documented keys, tokenizers that round-trip through
``--save``, and for every bad input exit code 2 with exactly one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .machine_speed import scaled

REPO_ROOT = Path(__file__).resolve().parents[1]
MERGE_KEYS = {
    "step", "id", "left", "right", "token", "left_hex", "right_hex", "token_hex",
    "count", "replacements", "ties",
}
SENNRICH_TOKENS = ["st", "est", "ow", "low", " low", "west", "ne", "newest", " newest", "wi"]
ROUND_TRIP_TEXT = "aaabdaaabac, and then some plain text: café 東京 😀"


def run_bpe(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bpe", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=scaled(60)
    )


def run_ok(*args: str) -> str:
    result = run_bpe(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def saved_tokenizer(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "tokenizer.json"
    run_ok("train", "--text", "aaabdaaabac", "--pretokenizer", "none", "--merges", "3", "--save", str(path))
    return path


# -- train ------------------------------------------------------------------------------------
def test_train_json_lists_every_merge_with_the_documented_keys():
    output = json.loads(run_ok("train", "--preset", "sennrich", "--json"))
    assert {"merges", "stop_reason", "vocab_size", "elapsed_s"} <= output.keys()
    assert all(merge.keys() == MERGE_KEYS for merge in output["merges"])
    assert [merge["token"] for merge in output["merges"]] == SENNRICH_TOKENS
    assert output["stop_reason"] == "merges"
    assert output["vocab_size"] == 266
    assert output["elapsed_s"] >= 0


def test_train_json_spells_each_merge_in_text_and_hex():
    first = json.loads(run_ok("train", "--preset", "sennrich", "--json"))["merges"][0]
    assert first == {
        "step": 1, "id": 256, "left": "s", "right": "t", "token": "st", "left_hex": "73", "right_hex": "74",
        "token_hex": "7374", "count": 9, "replacements": 9, "ties": 2,
    }


def test_train_reads_a_word_table_from_words():
    output = json.loads(
        run_ok("train", "--words", "low:5,lower:2,newest:6,widest:3", "--tie-break", "lexicographic-max",
               "--merges", "12", "--json")
    )
    tokens = [merge["token"] for merge in output["merges"]]
    assert tokens[:2] == ["st", "est"]
    assert tokens[-1] == "lower"


def test_train_prints_one_line_per_merge_and_a_stop_line():
    lines = run_ok("train", "--preset", "wikipedia").splitlines()
    assert len(lines) == 4
    assert lines[-1].startswith("stopped:")


# -- encode and decode ------------------------------------------------------------------------
def test_encode_uses_the_saved_tokenizer(saved_tokenizer):
    assert run_ok("encode", "--tokenizer", str(saved_tokenizer), "--text", "aaabdaaabac").split() == [
        "258", "100", "258", "97", "99",
    ]


def test_decode_inverts_encode_through_a_saved_tokenizer(saved_tokenizer):
    ids = run_ok("encode", "--tokenizer", str(saved_tokenizer), "--text", ROUND_TRIP_TEXT).split()
    assert run_ok("decode", "--tokenizer", str(saved_tokenizer), *ids) == ROUND_TRIP_TEXT + "\n"


def test_encode_json_reports_ids_and_time(saved_tokenizer):
    output = json.loads(run_ok("encode", "--tokenizer", str(saved_tokenizer), "--text", "aaab", "--json"))
    assert output["ids"] == [258]
    assert output["elapsed_s"] >= 0


# -- bad input: exit 2, one line, no traceback ------------------------------------------------
@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    files = {
        "latin1": folder / "latin1.txt",
        "not-json": folder / "not-json.json",
        "wrong-format": folder / "wrong-format.json",
        "truncated": folder / "truncated.json",
        "null-pretokenizer": folder / "null-pretokenizer.json",
    }
    files["latin1"].write_bytes("caf\xe9 na\xefve".encode("latin-1"))
    files["not-json"].write_text("{this is not json", encoding="utf-8")
    files["wrong-format"].write_text(json.dumps({"model": {"type": "BPE"}}), encoding="utf-8")
    files["truncated"].write_text(
        json.dumps({"format": "bpe-lab/tokenizer", "version": 1, "unit": "byte"}), encoding="utf-8"
    )
    run_ok("train", "--text", "low lower", "--merges", "2", "--save", str(files["null-pretokenizer"]))
    tokenizer = json.loads(files["null-pretokenizer"].read_text(encoding="utf-8"))
    files["null-pretokenizer"].write_text(json.dumps({**tokenizer, "pretokenizer": None}), encoding="utf-8")
    return files


BAD_INPUTS = {
    "missing-file": ["train", "--file", "no/such/file.txt"],
    "non-utf8-file": ["train", "--file", "{latin1}"],
    "invalid-regex": ["train", "--text", "abc", "--pretokenizer", "regex:(("],
    "regex-matching-empty": ["train", "--text", "abc", "--pretokenizer", "regex:a*"],
    "unknown-pretokenizer": ["train", "--text", "abc", "--pretokenizer", "gpt9"],
    "vocab-size-below-base": ["train", "--text", "abc", "--vocab-size", "100"],
    "negative-merges": ["train", "--text", "abc", "--merges", "-1"],
    "two-sources": ["train", "--text", "abc", "--preset", "sennrich"],
    "no-source": ["train"],
    "bad-word-table": ["train", "--words", "low:five"],
    "unknown-command": ["tokenize"],
    "tokenizer-not-json": ["encode", "--tokenizer", "{not-json}", "--text", "hi"],
    "tokenizer-wrong-format": ["encode", "--tokenizer", "{wrong-format}", "--text", "hi"],
    "tokenizer-missing-fields": ["encode", "--tokenizer", "{truncated}", "--text", "hi"],
    "tokenizer-with-null-pretokenizer": ["encode", "--tokenizer", "{null-pretokenizer}", "--text", "hi"],
    "tokenizer-missing-file": ["decode", "--tokenizer", "no/such/tokenizer.json", "1"],
    "unknown-ids": ["decode", "--tokenizer", "{tokenizer}", "258", "99999"],
    "non-integer-id": ["decode", "--tokenizer", "{tokenizer}", "abc"],
    "negative-id": ["decode", "--tokenizer", "{tokenizer}", "--", "-5"],
    "special-text-not-allowed": ["encode", "--tokenizer", "{tokenizer}", "--text", "a<|endoftext|>"],
}


BAD_INPUT_SAYS = {
    "missing-file": "no such file: no/such/file.txt",
    "non-utf8-file": "is not UTF-8 text (byte 3 is 0xe9)",
    "invalid-regex": "the custom pattern '((' is not a valid regex",
    "regex-matching-empty": "the custom pattern 'a*' matches the empty string",
    "unknown-pretokenizer": "unknown pre-tokenizer 'gpt9'",
    "vocab-size-below-base": "vocabulary size 100 is below the base vocabulary",
    "negative-merges": "merges must be from 0 to",
    "two-sources": "give exactly one of --preset, --text, --file, --words or --language",
    "no-source": "give exactly one of --preset, --text, --file, --words or --language",
    "bad-word-table": "cannot read 'low:five' as word:count",
    "unknown-command": "invalid choice: 'tokenize'",
    "tokenizer-not-json": "the tokenizer file is not valid JSON",
    "tokenizer-wrong-format": "not a BPE Lab tokenizer file",
    "tokenizer-missing-fields": "the tokenizer file is malformed",
    "tokenizer-with-null-pretokenizer": "the pre-tokenizer must be a name",
    "tokenizer-missing-file": "no such file: no/such/tokenizer.json",
    "unknown-ids": "unknown token id 99999",
    "non-integer-id": "cannot read 'abc' as a token id",
    "negative-id": "-5 is negative: token ids start at 0",
    "special-text-not-allowed": "the text contains the special token '<|endoftext|>', which is not allowed",
}
"""What each bad input's one line must say (a fragment), so a case cannot pass on another error."""


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_exits_2_with_one_line_on_stderr_and_no_traceback(case, bad_files, special_tokenizer):
    paths = {name: str(path) for name, path in bad_files.items()} | {"tokenizer": str(special_tokenizer)}
    result = run_bpe(*(arg.format(**paths) if arg.startswith("{") else arg for arg in BAD_INPUTS[case]))
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error: ")
    assert BAD_INPUT_SAYS[case] in result.stderr
    assert result.stdout == ""


@pytest.fixture(scope="module")
def special_tokenizer(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("special") / "tokenizer.json"
    run_ok("train", "--text", "aaabdaaabac", "--pretokenizer", "none", "--merges", "3",
           "--special", "<|endoftext|>", "--save", str(path))
    return path
