"""The regex memory bomb is refused on every path a pattern arrives by, within 5 s, with the limit.

``(?:a{65535}){65535}`` made ``regex.compile`` allocate gigabytes while holding the GIL. Each path
(the engine, ``python -m bpe train --pretokenizer``, ``python -m bpe import`` and an imported file
of every format that stores a pattern) runs in a child process whose address space is capped at
1 GB: if the guard ever breaks, the child fails with MemoryError (or the 20 s timeout) instead of
this test process eating the machine. The page paths (link, sidebar) are in test_app_bad_input.py
and the browser test in test_browser_guard.py.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from functools import lru_cache

import pytest

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.errors import PatternError
from bpe.formats import to_hf, to_minbpe, to_tiktoken
from bpe.limits import MAX_PATTERN_CHARS, MAX_PATTERN_DEPTH, MAX_PATTERN_PROGRAM
from bpe.text.pattern_guard import program_size
from bpe.text.pretokenize import GPT2_PATTERN, GPT4_PATTERN, Pretokenizer

from .app_server import ROOT
from .machine_speed import scaled

BOMB = "(?:a{65535}){65535}"
PLACEHOLDER = r"\w+|[^\w\s]+"  # a file is written with this pattern, then the bomb is put in its place
CAP_BYTES = 1 << 30
ANSWER_WITHIN_S = scaled(5.0)


def _cap_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def run_capped(args: list[str]) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``python ARGS`` from the project root with a 1 GB address-space cap; also its wall time."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=scaled(20), preexec_fn=_cap_address_space
    )
    return done, time.perf_counter() - started


@lru_cache(maxsize=1)
def tokenizer_with_placeholder() -> Tokenizer:
    pretokenizer = f"regex:{PLACEHOLDER}"
    settings = TrainSettings(pretokenizer=pretokenizer, merges=5)
    return Tokenizer.from_trace(train(Corpus.from_text("low lower lowest", pretokenizer=pretokenizer), settings))


def bomb_files() -> dict[str, str]:
    """A tokenizer file of each format that stores its split pattern, with the bomb as the pattern."""
    tokenizer = tokenizer_with_placeholder()
    ours = json.loads(tokenizer.to_json())
    ours["pretokenizer"] = f"regex:{BOMB}"
    hf = to_hf(tokenizer)
    model, _ = to_minbpe(tokenizer)
    files = {"ours": json.dumps(ours), "hf": hf.replace(json.dumps(PLACEHOLDER)[1:-1], json.dumps(BOMB)[1:-1]),
             "minbpe": model.replace(PLACEHOLDER, BOMB)}
    assert all(BOMB in text for text in files.values())
    return files


IMPORT_IN_CHILD = """
import sys
from bpe.errors import BpeError
from bpe.formats import import_tokenizer
format, path, pretokenizer = sys.argv[1:]
with open(path, encoding="utf-8") as file:
    contents = file.read()
try:
    import_tokenizer(format=format, files={path: contents}, pretokenizer=pretokenizer)
except BpeError as error:
    print(error)
"""


def assert_refused_quickly(done: subprocess.CompletedProcess, seconds: float, output: str) -> None:
    assert seconds < ANSWER_WITHIN_S, f"took {seconds:.1f} s"
    assert "MemoryError" not in done.stderr
    assert "counted repeats would compile to about 4,294,836,225 regex steps" in output
    assert f"the limit is {MAX_PATTERN_PROGRAM:,}" in output
    assert "Use + or * instead of big counts" in output


def test_the_engine_refuses_the_bomb_before_compiling_it():
    code = f"from bpe.text.pretokenize import Pretokenizer\ntry:\n    Pretokenizer.parse('regex:{BOMB}')\nexcept ValueError as e:\n    print(e)"
    done, seconds = run_capped(["-c", code])
    assert_refused_quickly(done, seconds, done.stdout)


def test_the_cli_refuses_the_bomb_as_a_pretokenizer_with_one_line_and_exit_2():
    done, seconds = run_capped(["-m", "bpe", "train", "--text", "aaa bbb", "--pretokenizer", f"regex:{BOMB}"])
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert_refused_quickly(done, seconds, done.stderr)


@pytest.mark.parametrize("format", ["ours", "hf", "minbpe"])
def test_an_imported_tokenizer_file_with_the_bomb_as_its_pattern_is_refused(format, tmp_path):
    path = tmp_path / f"bomb.{format}"
    path.write_text(bomb_files()[format], encoding="utf-8")
    done, seconds = run_capped(["-c", IMPORT_IN_CHILD, format, str(path), "gpt2"])
    assert_refused_quickly(done, seconds, done.stdout)


def test_a_tiktoken_import_with_the_bomb_as_its_pattern_is_refused_by_the_cli(tmp_path):
    path = tmp_path / "bomb.tiktoken"
    path.write_text(to_tiktoken(tokenizer_with_placeholder()), encoding="utf-8")
    done, seconds = run_capped(
        ["-m", "bpe", "import", "--format", "tiktoken", "--in", str(path), "--out", str(tmp_path / "t.json"),
         "--pretokenizer", f"regex:{BOMB}"]
    )
    assert done.returncode == 2
    assert_refused_quickly(done, seconds, done.stderr)


# -- the estimate and the other limits (in process: nothing here is costly to compile) ------------
@pytest.mark.parametrize(
    "pattern, size",
    [
        ("abc", 3),
        ("a{3}", 3),
        ("a{2,5}b", 6),
        ("a{7,}", 7),
        ("a+b*c?", 3),
        ("(?:ab|cd){10}", 40),
        ("(?:a{10}){20}", 200),
        ("(?:(?:a{10}){10}){10}", 1000),
        ("[a-c]{4}", 12),  # a class counts its members: a range its two ends and the hyphen
        (r"(?x) a{5}  # a comment with (b{1000}) in it", 5),
        (r"\{1000\}", 6),
        # The parser shares one node between equal escapes: each use still counts (it was a KeyError).
        (r"\s\s", 2),
        (r"\w\w{3}|\d\d", 6),
        (r"(?:\s\s){10}", 20),
    ],
)
def test_the_program_size_estimate_multiplies_counted_repeats_along_a_nesting_path(pattern, size):
    assert program_size(pattern) == size


@pytest.mark.parametrize("pattern", [GPT2_PATTERN, GPT4_PATTERN, r"\w+|[^\w\s]+", r"\p{N}{1,3}|\S{1,100}", r"\d\d|\w\w+"])
def test_real_split_patterns_are_far_below_the_limit(pattern):
    assert program_size(pattern) < MAX_PATTERN_PROGRAM / 10
    assert Pretokenizer.parse(f"regex:{pattern}").is_custom


def test_a_pattern_just_at_the_limit_compiles_and_one_just_over_is_refused():
    Pretokenizer.parse(f"regex:(?:a|b){{{MAX_PATTERN_PROGRAM // 2}}}")
    with pytest.raises(PatternError, match=f"about {MAX_PATTERN_PROGRAM + 2:,} regex steps"):
        Pretokenizer.parse(f"regex:(?:a|b){{{MAX_PATTERN_PROGRAM // 2 + 1}}}")


def test_a_pattern_over_the_length_limit_is_refused_before_parsing():
    with pytest.raises(PatternError, match=f"over the limit of {MAX_PATTERN_CHARS:,}"):
        Pretokenizer.parse("regex:" + "a|" * MAX_PATTERN_CHARS)


@pytest.mark.parametrize("depth", [MAX_PATTERN_DEPTH + 1, 600])
def test_deeply_nested_groups_are_refused_instead_of_exhausting_the_recursion_limit(depth):
    with pytest.raises(PatternError, match=f"more than {MAX_PATTERN_DEPTH} levels deep"):
        Pretokenizer.parse("regex:" + "(" * depth + "a" + ")" * depth)


def test_nesting_at_the_depth_limit_is_accepted():
    Pretokenizer.parse("regex:" + "(?:" * MAX_PATTERN_DEPTH + "a" + ")" * MAX_PATTERN_DEPTH)


def test_clashing_flags_are_a_pattern_error_not_a_bare_value_error():
    with pytest.raises(PatternError, match="not a valid regex: VERSION0 and VERSION1"):
        Pretokenizer.parse("regex:(?V0)(?V1)a")


@pytest.mark.parametrize("pattern", [r"(?r)\w+|\s+", r"\w+(?r)", r"(?r:\w+)"])
def test_the_reverse_flag_is_refused_because_it_would_repeat_text(pattern):
    with pytest.raises(PatternError, match=r"uses the \(\?r\) flag"):
        Pretokenizer.parse(f"regex:{pattern}")
