"""``python -m bpe check`` as a script runs it: a real subprocess, the JSON contract, and bad input.

The contract: ``--json`` prints one object with ``matching``, ``total``,
``first_difference`` (null, or ``step`` and ``yours``/``reference`` with ``left``, ``right``,
``count``), ``diagnosis`` (``code`` and ``message`` each) and ``best_match`` (settings, mistake,
``matching``); bad input is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json

import pytest

from bpe.presets import SENNRICH_WORDS

from .learners import LEARNERS
from .test_engine_cli import run_bpe, run_ok

WORDS = ",".join(f"{word}:{count}" for word, count in SENNRICH_WORDS.items())


def _merges_file(tmp_path, pairs, name="merges.txt") -> str:
    path = tmp_path / name
    path.write_text("".join(f"{a.decode()} {b.decode()}\n" for a, b in pairs), encoding="utf-8")
    return str(path)


def test_check_json_has_the_contract_keys_and_diagnoses_the_tie_rule(tmp_path):
    # CS336's words: its own rule (greater pair) while the command is told first-seen.
    pairs = LEARNERS[None](words=dict(SENNRICH_WORDS), num_merges=10)
    out = json.loads(run_ok("check", "--merges", _merges_file(tmp_path, pairs), "--words", WORDS,
                            "--pretokenizer", "whitespace", "--tie-break", "first-seen", "--json"))
    assert {"matching", "total", "first_difference", "diagnosis", "best_match"} <= set(out)
    assert (out["matching"], out["total"]) == (0, 10)
    first = out["first_difference"]
    # low 5, lower 2, newest 6, widest 3: (e, s) and (s, t) both 9; first-seen takes (e, s), the learner (s, t)
    assert first["step"] == 1
    assert {k: first["reference"][k] for k in ("left", "right", "count")} == {"left": "e", "right": "s", "count": 9}
    assert {k: first["yours"][k] for k in ("left", "right", "count")} == {"left": "s", "right": "t", "count": 9}
    assert [cause["code"] for cause in out["diagnosis"]] == ["tie-break"]
    assert all(cause["message"] for cause in out["diagnosis"])
    best = out["best_match"]
    assert (best["mistake"], best["matching"], best["settings"]["tie_break"]) == ("tie-break", 10, "lexicographic-max")


def test_check_of_matching_merges_has_no_difference_and_no_diagnosis(tmp_path):
    pairs = LEARNERS[None](words=dict(SENNRICH_WORDS), num_merges=10)
    out = json.loads(run_ok("check", "--merges", _merges_file(tmp_path, pairs), "--preset", "cs336", "--json"))
    assert (out["matching"], out["total"], out["first_difference"], out["diagnosis"]) == (10, 10, None, [])
    assert out["best_match"]["mistake"] is None and out["best_match"]["matching"] == 10


def test_check_reads_gpt2_merges_with_a_version_header(tmp_path):
    path = tmp_path / "vocab.bpe"
    path.write_text("#version: 0.2\nĠ l\nĠl o\n", encoding="utf-8")
    out = json.loads(run_ok("check", "--merges", str(path), "--text", " lo lo lo", "--json"))
    assert out["shape"] == "gpt2"
    assert (out["matching"], out["total"]) == (2, 2)


def test_check_without_json_prints_the_difference_and_the_cause(tmp_path):
    pairs = LEARNERS["word-frequency"](words=dict(SENNRICH_WORDS), num_merges=12)
    out = run_ok("check", "--merges", _merges_file(tmp_path, pairs), "--words", WORDS, "--tie-break", "lexicographic-max")
    assert "first difference at merge 1:" in out
    assert "[word-frequency]" in out


def test_guess_settings_finds_the_learners_settings(tmp_path):
    pairs = LEARNERS[None](words=dict(SENNRICH_WORDS), num_merges=10)
    out = json.loads(run_ok("check", "--merges", _merges_file(tmp_path, pairs), "--words", WORDS, "--guess-settings", "--json"))
    assert (out["matching"], out["diagnosis"], out["guessed_settings"]) == (10, [], True)
    assert out["settings"]["tie_break"] == "lexicographic-max"


@pytest.mark.parametrize("args, says", [
    (["--merges", "missing.txt", "--preset", "cs336"], "no such file"),
    (["--merges", "{merges}", "--preset", "cs336", "--text", "x"], "exactly one of --preset"),
    (["--merges", "{bad}", "--preset", "cs336"], "expected two tokens"),
    (["--merges", "{merges}", "--preset", "cs336", "--guess-settings", "--unit", "char"], "drop --unit"),
    (["--merges", "{merges}", "--preset", "nope"], "invalid choice"),
    (["--preset", "cs336"], "--merges"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(tmp_path, args, says):
    merges = _merges_file(tmp_path, [(b"e", b"s")])
    bad = tmp_path / "bad.txt"
    bad.write_text("e s t\n", encoding="utf-8")
    result = run_bpe("check", *[arg.format(merges=merges, bad=bad) for arg in args])
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and says in result.stderr
    assert result.stdout == ""
