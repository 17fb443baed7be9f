"""The benchmarks the README cites still run: each at a small size (the server load test against the suite's app server), so
a change to the pages they drive (what a step draws, a widget's key) breaks this test, not the next
measurement. What they measure (latency, memory) is for the benchmark runs, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .app_server import ROOT
from .machine_speed import scaled

pytestmark = pytest.mark.servers  # waits on the shared app server: sent out beside a browser file


def test_the_server_load_test_runs_a_small_class_with_no_error_and_no_cross_talk(app_url):
    done = subprocess.run(
        [sys.executable, "benchmarks/server_load_test.py", "--url", app_url, "--sessions", "2", "--seconds", "2",
         "--interval", "1", "--ramp", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=scaled(120),
    )
    report = done.stdout + done.stderr
    steps = re.search(r"^steps measured: (\d+) \(per session: min (\d+)", report, re.MULTILINE)
    assert steps and int(steps[2]) >= 1, report  # every session trained its own text and stepped
    assert "\nerrors: 0\n" in report and "\ncross-talk: 0\n" in report, report


def test_the_pretrained_load_benchmark_times_ours_beside_the_owners_library():
    done = subprocess.run(
        [sys.executable, "benchmarks/pretrained_load.py", "--runs", "1", "--tokenizers", "gpt2"],
        cwd=ROOT, capture_output=True, text=True, timeout=scaled(120),
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert re.search(r"^gpt2 +[\d.]+s +[\d.]+s +[\d.]+s +[\d.]+s +[\d.]+x +[\d.]+x ", report, re.MULTILINE), report
    assert re.search(r"^worst CPU ratio [\d.]+x", report, re.MULTILINE), report


ENGINE_BENCHMARKS = {
    "train_benchmark.py": (["--merges", "1", "--reference-merges", "1", "--repeats", "1"],
                           r"^rustbpe .* merges identical to ours \(smallest-ids rule\): True$"),
    "encode_benchmark.py": (["--runs", "1", "--tokenizers", "gpt2"], r"^summary: gpt2: load [\d.]+ s"),
    "check_benchmark.py": (["--merges", "1"], r"^slowest check: [\d.]+ s wall"),
    "train_sweep.py": (["--sizes", "0.01", "--merges", "50", "--repeats", "1"], r"^ 0\.01 +[\d,]+ +50 .* True$"),
    "sentencepiece_train_benchmark.py": (["--sizes", "300", "--runs", "1"], r"^300 pieces: .* pieces identical$"),
    "segmentation_benchmark.py": (["--runs", "1", "--tokenizers", "gpt2"], r"^  tokens: BPE's own [\d,]+ "),
    "regex_compile_cost.py": (["--cap-gb", "0.5"], r"^\(\?:a\{65535\}\)\{65535\}\t[\d,]+\trefused\t"),
    "app_step_latency.py": (["--steps", "1", "--preset", "sennrich"], r"^one step, 1 steps: median \d+ ms"),
    "tokenizer_matrix.py": (["--rows", "pretrained:gpt2,ours:bytes", "--ops", "encode,cut:fewest,health", "--no-workers"],
                            r"^cells over their bound: 0$"),
    "job_slowdown.py": (["--rounds", "1", "--steps", "2", "--preset", "sennrich"], r"^slowdown ratio: [\d.]+ \(target"),
    "why_subwords_request.py": (["--runs", "1", "--preset", "sennrich"], r"^first request on sennrich: Why subwords [\d.]+ s CPU"),
    "mixture_inference.py": (["--mixes", "1", "--merges", "100"], r"^held out : mean absolute error [\d.]+"),
    "sentencepiece_import.py": (["--runs", "1", "--tokenizers", "mistral-v1"], r"^mistral-v1 +ours +[\d.]+s"),
}
"""The engine's and one page's benchmarks at their smallest sizes, each with the line that says it
measured (a script that only prints its header, or measured nothing, fails here): a few seconds in
all. The browser and class-room benchmarks start Chromium or servers of their own and are run by hand."""


@pytest.mark.parametrize("script", ENGINE_BENCHMARKS)
def test_each_engine_benchmark_runs_small_and_prints_what_it_measured(script):
    options, measured = ENGINE_BENCHMARKS[script]
    done = subprocess.run([sys.executable, f"benchmarks/{script}", *options], cwd=ROOT, capture_output=True, text=True, timeout=scaled(120))
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert re.search(measured, report, re.MULTILINE), report


@pytest.mark.browser
def test_the_cold_first_screen_benchmark_times_a_page_on_a_fresh_server_beside_home():
    done = subprocess.run(
        [sys.executable, "benchmarks/cold_first_screen.py", "--runs", "1", "--pages", "Byte_inspector", "--cache-as-is"],
        cwd=ROOT, capture_output=True, text=True, timeout=scaled(240),
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    timed = r" +this checkout +[\d.]+ s \(worst +[\d.]+\) +[\d.]+x +[\d.]+ s \(worst +[\d.]+\)$"
    assert re.search(r"^Home" + timed, report, re.MULTILINE), report
    assert re.search(r"^Byte inspector" + timed, report, re.MULTILINE), report
    assert re.search(r"^pages over 2 s \(median first screen, this checkout\): ", report, re.MULTILINE), report
