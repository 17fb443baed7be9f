"""What the AppTest page tests share: paths, opening a page as from a link, reading what it shows."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

import pyarrow as pa
from streamlit.testing.v1 import AppTest

from bpe.views.clicker import CLICKER_JS
from bpe.views.tab_focus import TAB_FOCUS_JS
from ui import background

from .machine_speed import scaled

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")  # AppTest resolves relative paths against the test file: use absolute ones
TRAIN = "pages/1_Train.py"
ENCODE = "pages/2_Encode_and_decode.py"
VOCAB = "pages/3_Vocabulary.py"
APPTEST_TIMEOUT_S = scaled(60)
"""An AppTest run's limit: a minute on a quiet machine (a page may train python-docs or read a large
pretrained tokenizer while the other worker keeps both cores busy), scaled to this one."""


def open_page(page=None, **query) -> AppTest:
    """A fresh session on ``page`` (home when ``None``), as if opened from a link with ``query``, run until
    the work it asked for apart is drawn (:func:`settled`)."""
    at = AppTest.from_file(APP, default_timeout=APPTEST_TIMEOUT_S)
    for key, value in query.items():
        at.query_params[key] = value
    if page:
        at.switch_page(page)
    return settled(at.run())


JOB_WAIT_S = 180.0
"""How long a page test waits for the work a page runs apart (a worker at the lowest priority on a loaded machine)."""


def settled(at: AppTest) -> AppTest:
    """``at`` run again until no job it asked for is still worked out (``ui.background``'s progress bar gone):
    a browser's page reruns itself each second while one works; an AppTest runs only when told."""
    deadline = time.monotonic() + JOB_WAIT_S
    while at.get("progress"):
        while background.BOARD.busy():
            assert time.monotonic() < deadline, f"the page's jobs did not finish within {JOB_WAIT_S:.0f} s"
            time.sleep(0.05)
        at.run()
    return at


def step_slider(at: AppTest, stepper: str = "main"):
    """The stepper's slider (``ui.stepper``): its key is ``w.step.<stepper>``, with a turn number after
    each move of the step other than by the slider itself."""
    (slider,) = [slider for slider in at.slider if re.fullmatch(rf"w\.step\.{stepper}(\.\d+)?", slider.key or "")]
    return slider


def run_with_a_late_report(at: AppTest, report) -> AppTest:
    """Run the page as a browser that is slow to draw asks it to: with ``report`` (a widget's state as
    an earlier run drew it, ``widget._widget_state``) in place of what the page shows now. AppTest
    has no public way to send what a page no longer shows, as such a browser does."""
    states = at._tree.get_widget_states()
    kept = [state for state in states.widgets if state.id != report.id]
    del states.widgets[:]
    states.widgets.extend([*kept, report])
    return at._run(states)


def unescape_markdown(text: str) -> str:
    """Undo :func:`bpe.notation.markdown.escape_markdown` (``unescape_markdown(escape_markdown(text)) == text``
    on one line), to read what a page shows."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def plain(markup: str) -> str:
    """The text a reader sees: scripts and tags dropped, entities decoded.

    >>> plain('<script>document.cookie = "a=b";</script><b>x &amp; y</b>')
    'x & y'
    """
    return html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<script\b.*?</script>", "", markup, flags=re.S)))


def page_markup(at: AppTest) -> list[str]:
    """Each HTML element's markup, less the app's own scripts (the clicker's, ``bpe.views.clicker``, and
    the tab lists' focus keeper, ``bpe.views.tab_focus``), so a test can say that no other script reached the page."""
    return [element.value.replace(CLICKER_JS + TAB_FOCUS_JS, "") for element in at.html]


def html_with(at: AppTest, marker: str) -> str:
    found = [element.value for element in at.html if marker in element.value]
    assert found, f"no HTML element contains {marker!r}"
    return found[0]


def after_merge(markup: str) -> str:
    """The Train page's corpus *after* the step's merge (the block also holds the corpus before it)."""
    return markup.split('class="bpe-layer bpe-after"', 1)[-1]


def narration(at: AppTest) -> str:
    """The Train page's headline, then its "why" sentences when they are shown (two elements)."""
    html_with(at, "bpe-narration")
    return "\n".join(plain(element.value) for element in at.html if "bpe-narration" in element.value or "bpe-why" in element.value)


def chart_rows(element) -> list[dict]:
    """The rows of an Altair chart as Streamlit sent them (Arrow datasets beside the spec)."""
    return pa.ipc.open_stream(element.proto.datasets[0].data.data).read_pandas().to_dict("records")


def errors(at: AppTest) -> list[str]:
    """The error messages as the reader sees them (the page escapes Markdown in user text)."""
    return [unescape_markdown(element.value) for element in at.error]


def stat(at: AppTest, label: str) -> str:
    """The value of the headline number ``label`` in a row of stats (``bpe.views.stats.stats_html``)."""
    for element in at.html:
        found = re.search(
            r'<div class="bpe-stat-label">' + re.escape(html.escape(label)) + r'</div><div class="bpe-stat-value">([^<]*)<',
            element.value,
        )
        if found:
            return html.unescape(found.group(1))
    raise AssertionError(f"no stat labelled {label!r}")
