"""The app's background loader of pretrained tokenizers (``ui/pretrained_loader.py``): each loaded
once, whoever asks first, in the order asked; a page's wait is bounded; an error kept and raised again."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from bpe.errors import BpeError
from ui.pretrained_loader import PretrainedLoader


def slow_loads(gate: threading.Event):
    """A load function that counts its calls and holds each until ``gate`` opens."""
    calls: Counter = Counter()
    order: list[str] = []

    def load(name: str) -> str:
        calls[name] += 1
        order.append(name)
        gate.wait(30)
        if name == "broken":
            raise BpeError("its package is not installed")
        return name.upper()

    return load, calls, order


def test_a_page_gets_what_is_loaded_within_its_wait_and_the_rest_loads_in_the_order_asked():
    gate = threading.Event()
    load, calls, order = slow_loads(gate)
    loader = PretrainedLoader(load)
    assert loader.ready(["a", "b", "c"], wait_s=0.2) == {}  # none ready: the page draws them as loading
    gate.set()
    assert loader.ready(["a", "b", "c"], wait_s=30) == {"a": "A", "b": "B", "c": "C"}
    assert order == ["a", "b", "c"] and set(calls.values()) == {1}


def test_a_page_that_needs_one_now_waits_for_the_background_load_instead_of_loading_it_again():
    gate = threading.Event()
    load, calls, _ = slow_loads(gate)
    loader = PretrainedLoader(load)
    loader.ready(["a"])  # the background thread starts on a
    waiting = threading.Thread(target=lambda: results.append(loader.get("a")))
    results: list[str] = []
    waiting.start()
    gate.set()
    waiting.join(30)
    assert results == ["A"] and loader.get("a") == "A" and calls["a"] == 1


def test_a_load_that_fails_is_kept_and_raised_again_without_a_second_try():
    gate = threading.Event()
    gate.set()
    load, calls, _ = slow_loads(gate)
    loader = PretrainedLoader(load)
    (error,) = loader.ready(["broken"], wait_s=30).values()
    assert isinstance(error, BpeError)
    with pytest.raises(BpeError, match="its package is not installed"):
        loader.get("broken")
    assert calls["broken"] == 1
