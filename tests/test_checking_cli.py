"""``python -m bpe check`` as a script runs it: a real subprocess, the JSON contract, and bad input.

The contract: ``--json`` prints one object with ``matching``, ``total``, ``first_difference`` (null,
or ``step``, ``yours``/``reference`` with ``left``, ``right``, ``count``, and both trainings' counts
``yours_count`` and ``reference_count``), ``diagnosis`` (``code`` and ``message`` each),
``best_match`` (settings, mistake, ``matching``) and, when the settings were guessed,
``guess_quality`` (``reproduced``, ``total``); bad input is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json

import pytest

from bpe.training.presets import SENNRICH_WORDS

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
    assert "first difference at merge 1" in out and "counts in the reference's training:" in out
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


def test_the_first_difference_has_both_trainings_counts_and_a_guess_says_how_good_it_is(tmp_path):
    # Every distinct word counted once: (l, o), (o, w), (w, e), (e, s), (s, t) all 2, and the greater pair
    # (w, e) wins, which the reference counts 2 + 6 = 8 (lower 2, newest 6); the reference's own pair is
    # (s, t), 6 + 3 = 9 (newest, widest), tied with (e, s).
    pairs = LEARNERS["word-frequency"](words=dict(SENNRICH_WORDS), num_merges=12)
    args = ["check", "--merges", _merges_file(tmp_path, pairs), "--words", WORDS, "--json"]
    out = json.loads(run_ok(*args, "--tie-break", "lexicographic-max"))
    first = out["first_difference"]
    assert (first["yours"]["shown"], first["reference"]["shown"]) == ("w + e", "s + t")
    assert (first["reference_count"], first["reference"]["count"], first["yours"]["count"]) == (9, 9, 8)
    assert first["yours_count"] == first["yours"]["your_training"]["count"] == 2
    assert first["reference"]["your_training"]["count"] == 2
    assert first["retrained_with"] == "each distinct word counted once"
    assert "guess_quality" not in out
    # unknown settings: no setting alone reproduces the first merge; with the word-frequency mistake, all
    guessed = json.loads(run_ok(*args, "--guess-settings"))
    assert [cause["code"] for cause in guessed["diagnosis"]] == ["word-frequency"]
    assert {k: guessed["guess_quality"][k] for k in ("reproduced", "total", "quality", "sentence")} == {
        "reproduced": 0, "total": 12, "quality": "all",
        "sentence": "The guessed settings reproduce 0 of your 12 merges; with the mistake below, all of them."}


@pytest.mark.parametrize("name, contents, says", [
    ("bad.json", '{"merges": [{"left_hex": "65", "right_hex": "73"}], "settings": [1]}', "its settings are list"),
    ("bad2.json", '{"merges": [{"left_hex": "65"}]}', "not a record with left_hex and right_hex"),
    ("bad3.json", '{"merges": [[" t", 5]]}', "not a pair"),
    ("bad.txt", "b'a' b'b' b'c'\n", "has no partner"),
    ("bad.tsv", "x\ty\tz\n", "separated by a tab"),
    ("bad.model", "minbpe v1\n\n0\n300 1\n", "read as minbpe .model"),
    ("bad.codes", "#version: 0.2\na b</w>\nx y z\n", "read as subword-nmt codes file"),
    ("tokenizer.json", '{"model": {"type": "BPE", "merges": 5}}', "read as Hugging Face tokenizer.json"),
])
def test_a_malformed_file_in_any_shape_is_one_line_on_stderr_and_exit_code_2(tmp_path, name, contents, says):
    path = tmp_path / name
    path.write_text(contents, encoding="utf-8")
    result = run_bpe("check", "--merges", str(path), "--preset", "cs336", "--json")
    assert (result.returncode, result.stdout) == (2, "")
    assert len(result.stderr.strip().splitlines()) == 1 and says in result.stderr


def test_a_pickle_is_one_line_on_stderr_that_gives_the_python_to_write_json(tmp_path):
    path = tmp_path / "merges.pkl"
    path.write_bytes(__import__("pickle").dumps([(b" ", b"t")]))
    result = run_bpe("check", "--merges", str(path), "--preset", "cs336")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "is a Python pickle, which is never loaded here" in result.stderr and "json.dump(" in result.stderr


def test_help_has_a_purpose_line_every_shape_and_a_worked_example_that_runs_as_shown(tmp_path):
    from bpe.checking import merge_shapes

    help_text = run_ok("check", "--help")
    assert "Compare the merges your own BPE trainer learned with the reference" in help_text
    for shape in merge_shapes().values():
        assert f"  {shape.name:<12} {shape.title}: {shape.example}" in help_text
    example = help_text.split("worked example", 1)[1].splitlines()
    printf, command, *shown = [line.strip() for line in example[1:] if line.strip()]
    (tmp_path / "merges.txt").write_text(printf.split("'")[1].encode().decode("unicode_escape"), encoding="utf-8")
    args = command.replace("merges.txt", str(tmp_path / "merges.txt")).split()[3:]
    out = run_ok(*args)
    for line in shown:
        head, _, tail = line.partition("...")
        assert any(printed.strip().startswith(head.strip()) for printed in out.splitlines()), line
        if tail.strip(" .:"):
            assert tail.strip(" .:").split(" Fix")[0] in out
