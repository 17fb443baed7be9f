"""The benchmarks the README cites still run: each at a small size against the suite's app server, so
a change to the pages they drive (what a step draws, a widget's key) breaks this test, not the next
measurement. What they measure (latency, memory) is for the benchmark runs, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .app_server import ROOT

pytestmark = pytest.mark.servers  # waits on the shared app server: sent out beside a browser file


def test_the_server_load_test_runs_a_small_class_with_no_error_and_no_cross_talk(app_url):
    done = subprocess.run(
        [sys.executable, "benchmarks/server_load_test.py", "--url", app_url, "--sessions", "2", "--seconds", "2",
         "--interval", "1", "--ramp", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    report = done.stdout + done.stderr
    steps = re.search(r"^steps measured: (\d+) \(per session: min (\d+)", report, re.MULTILINE)
    assert steps and int(steps[2]) >= 1, report  # every session trained its own text and stepped
    assert "\nerrors: 0\n" in report and "\ncross-talk: 0\n" in report, report


def test_the_pretrained_load_benchmark_times_ours_beside_the_owners_library():
    done = subprocess.run(
        [sys.executable, "benchmarks/pretrained_load.py", "--runs", "1", "--tokenizers", "gpt2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert re.search(r"^gpt2 +[\d.]+s +[\d.]+s +[\d.]+s +[\d.]+s +[\d.]+x +[\d.]+x ", report, re.MULTILINE), report
    assert re.search(r"^worst CPU ratio [\d.]+x", report, re.MULTILINE), report
