"""What a server does once, as it starts, so that no learner's first visit pays for it: every page's imports.

A page's first run on a fresh server used to spend most of its time importing (pandas, Altair, the
engine's views, the class room's Redis client and QR codes), before it drew anything; the first
phones to join a class room all waited on the Predict page's imports (py-spy;
``benchmarks/cold_first_screen.py`` and ``benchmarks/room_join.py`` print the figures). The modules
are shared by every session of the process, so importing them once at the start is the whole cost.

Which modules: the ones each page in :data:`bpe.app.pages.PAGES` imports at its top, read from the
page's file (its syntax tree, never run), so a new page is warmed with no edit here:

    >>> "ui.classroom_views" in page_imports(pages.QUIZ)
    True

``streamlit run app.py`` finds the server in ``app.py`` (``app = st.App(..., lifespan=lifespan)``),
and the server answers ``/_stcore/health`` once :func:`lifespan` has imported them (its log says
"warm start: ... modules of ... pages imported in ... s").

subtle: a module that fails to import is logged and skipped: the page that needs it shows the error
when it runs, and the other pages still serve.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from streamlit.logger import get_logger

from bpe.app import pages
from bpe.app.pages import Page

ROOT = Path(__file__).resolve().parent.parent
_LOG = get_logger(__name__)  # Streamlit's: its level, and the server's log


def page_imports(page: Page) -> list[str]:
    """The modules ``page``'s file imports at its top level, in the order it imports them
    (``from ui import url`` gives ``ui`` and ``ui.url``: either may be the module)."""
    tree = ast.parse((ROOT / page.file).read_text(encoding="utf-8"))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return list(dict.fromkeys(names))


def warm_streamlit() -> None:
    """Streamlit's own work on the first page a process runs, done here instead (py-spy, a first visit
    on a fresh server: about 0.4 s and 0.2 s of it).

    * ``st.set_page_config`` with an emoji icon imports ``streamlit.emojis``, which compiles a pattern
      of every emoji;
    * the first element a process sends asks, once, whether it runs in a REPL, by walking the whole
      call stack with ``inspect.stack()`` (reading the source of every frame's file); from this thread
      the stack is short. subtle: a private function, so it is looked up, never required: a Streamlit
      without it just pays at the first visit again.
    """
    importlib.import_module("streamlit.emojis")
    once = getattr(importlib.import_module("streamlit.delta_generator"), "_maybe_print_use_warning", None)
    if callable(once):
        once()


def warm() -> int:
    """Streamlit's first-page work (:func:`warm_streamlit`), then every page's modules; the number of
    modules that import (a name that is a class or a function, not a module, is not one)."""
    warm_streamlit()
    imported = 0
    for page in pages.PAGES:
        for name in page_imports(page):
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as error:
                if error.name != name:  # the module exists, one it needs does not: the page will say so
                    _LOG.warning("warming %s: %s", page.file, error)
                continue
            except Exception:  # noqa: BLE001 - logged, and shown again by the page that needs it
                _LOG.exception("warming %s: importing %s failed", page.file, name)
                continue
            imported += 1
    return imported


@asynccontextmanager
async def lifespan(_app: object) -> AsyncIterator[None]:
    """The server's start: every page's imports, in a thread (the event loop stays free), before
    the server answers its health check."""
    started = time.perf_counter()
    imported = await asyncio.to_thread(warm)
    _LOG.info("warm start: %d modules of %d pages imported in %.2f s", imported, len(pages.PAGES), time.perf_counter() - started)
    yield None
