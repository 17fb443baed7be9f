"""Pretrained tokenizers read once per server process, in the background while a page draws without them.

Why: the Why page shows every pretrained tokenizer, and Compare opens on two. Each loads in
about the time tiktoken takes to read its file (``benchmarks/pretrained_load.py``), yet one after
another on a cold server that is seconds, and the page stood blank until the last. So a page asks
:meth:`PretrainedLoader.ready` for what is loaded (waiting a moment for the rest), draws those,
marks the others as loading, and reruns as they arrive (``ui.tokenizers.arrivals``); one
background thread per server loads them in the order asked. A page that needs one tokenizer
before it can draw anything (Encode with GPT-4o chosen) calls :meth:`get`, which waits for it,
never loading a tokenizer twice at once.

Shared by every session (the tokenizers are read-only, as with ``st.cache_resource``), and the
loader itself is one ``st.cache_resource`` object, so clearing Streamlit's caches clears it.

    >>> loader = PretrainedLoader(lambda name: name.upper())
    >>> loader.ready(["a", "b"], wait_s=5), loader.get("c")
    ({'a': 'A', 'b': 'B'}, 'C')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from bpe.errors import BpeError

Loaded = TypeVar("Loaded")


class PretrainedLoader(Generic[Loaded]):
    """``load(name)`` once per name, for any thread; a :class:`BpeError` is kept and raised again."""

    def __init__(self, load: Callable[[str], Loaded]) -> None:
        self._load = load
        self._changed = threading.Condition()
        self._done: dict[str, Loaded | BpeError] = {}
        self._loading: set[str] = set()
        self._queue: list[str] = []
        self._worker: threading.Thread | None = None

    def get(self, name: str) -> Loaded:
        """The tokenizer, loaded now if nobody is loading it, else once whoever is has it."""
        result = self._result(name)
        if isinstance(result, BpeError):
            raise result
        return result

    def ready(self, names: Sequence[str], *, wait_s: float = 0.0) -> dict[str, Loaded | BpeError]:
        """Those of ``names`` loaded (or failed) within ``wait_s``, in ``names``'s order; the others
        are queued for the background thread, first asked first loaded."""
        deadline = time.monotonic() + wait_s
        with self._changed:
            self._queue += [name for name in names if name not in self._done and name not in self._queue]
            if self._queue and (self._worker is None or not self._worker.is_alive()):
                self._worker = threading.Thread(target=self._work, name="pretrained-loader", daemon=True)
                self._worker.start()
            while any(name not in self._done for name in names) and (left := deadline - time.monotonic()) > 0:
                self._changed.wait(left)
            return {name: self._done[name] for name in names if name in self._done}

    def _work(self) -> None:
        while True:
            with self._changed:
                if not self._queue:
                    return
                name = self._queue.pop(0)
            self._result(name)

    def _result(self, name: str) -> Loaded | BpeError:
        with self._changed:
            while name in self._loading:
                self._changed.wait()
            if name in self._done:
                return self._done[name]
            self._loading.add(name)
        result: Loaded | BpeError | None = None
        try:
            result = self._load(name)
        except BpeError as error:  # a package missing or damaged: the page says how to install it
            result = error
        finally:  # done and no longer loading at once: a waiter never finds it neither and loads it again
            with self._changed:
                self._loading.discard(name)
                if result is not None:
                    self._done[name] = result
                self._changed.notify_all()
        return result
