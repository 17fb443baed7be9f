"""Wall-clock limits scale with the machine's measured slowdown (``tests/machine_speed.py``): a loaded
machine makes the suite slower, never red."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading

import pytest

from . import machine_speed
from .apptest_support import APPTEST_TIMEOUT_S
from .conftest import FIRST_LOAD_MS
from .machine_speed import ENV, REFERENCE_CPU_S, measure, scaled, scaled_ms, slowdown


def test_the_factor_is_the_workloads_median_wall_time_over_its_reference_cpu_time(monkeypatch):
    laps = itertools.cycle([0.0, 3 * REFERENCE_CPU_S])  # every run takes three times the reference
    monkeypatch.setattr(machine_speed.time, "perf_counter", lambda: next(laps))
    assert measure() == pytest.approx(3.0)


def test_a_fast_machine_keeps_the_limits_as_set_and_a_stalled_one_does_not_grow_them_past_the_cap(monkeypatch):
    for lap, expected in ((REFERENCE_CPU_S / 4, 1.0), (1000 * REFERENCE_CPU_S, machine_speed.MAX_FACTOR)):
        laps = itertools.cycle([0.0, lap])
        monkeypatch.setattr(machine_speed.time, "perf_counter", lambda laps=laps: next(laps))
        assert measure() == expected


def test_a_busy_machine_measures_slower():
    """Two threads that never stop competing for the interpreter: the workload gets a third of it."""
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            sum(range(1000))

    busy = [threading.Thread(target=spin) for _ in range(2)]
    for thread in busy:
        thread.start()
    try:
        loaded = measure()
    finally:
        stop.set()
        for thread in busy:
            thread.join()
    assert loaded >= 2.0


def test_the_run_measures_once_and_its_workers_and_subprocesses_read_the_same_factor():
    assert os.environ[ENV] == f"{slowdown():.3f}" or float(os.environ[ENV]) == slowdown()
    read = subprocess.run([sys.executable, "-c", "from tests.machine_speed import slowdown; print(slowdown())"],
                          cwd=machine_speed.__file__.rsplit("/tests/", 1)[0], capture_output=True, text=True,
                          env={**os.environ, ENV: "2.5"}, timeout=scaled(60))
    assert read.stdout.strip() == "2.5"  # given, not measured again


def test_a_factor_given_by_hand_that_is_no_number_says_so():
    read = subprocess.run([sys.executable, "-c", "from tests.machine_speed import slowdown; slowdown()"],
                          cwd=machine_speed.__file__.rsplit("/tests/", 1)[0], capture_output=True, text=True,
                          env={**os.environ, ENV: "fast"}, timeout=scaled(60))
    assert f"{ENV}='fast' is not a number: unset it, or give a factor such as 2" in read.stderr


def test_the_suites_limits_are_scaled_by_the_runs_factor(request):
    factor = slowdown()
    assert APPTEST_TIMEOUT_S == 60 * factor and FIRST_LOAD_MS == scaled_ms(60_000) == round(60_000 * factor)
    guard = request.node.get_closest_marker("timeout")
    assert guard is not None and guard.args[0] == pytest.approx(600 * factor)  # pytest.ini's hang guard, scaled
