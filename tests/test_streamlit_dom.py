"""Our CSS relies on Streamlit's internal markup only through ``ui/streamlit_dom.py``: every other
module's CSS names our own classes, or Streamlit's public ``st-key-<key>`` classes.
(``tests/test_browser_streamlit_dom.py`` checks the listed selectors against the pinned Streamlit.)"""

import doctest
import re
from pathlib import Path

import pytest

import ui.streamlit_dom
from ui import page_css, streamlit_dom

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    path.relative_to(ROOT).as_posix()
    for pattern in ("bpe/**/*.py", "ui/*.py", "pages/*.py", "app.py")
    for path in ROOT.glob(pattern)
)
# A Streamlit class (.stMain, .stButton), test id or data attribute, or a button's kind attribute.
INTERNAL = re.compile(r"""(?<![\w-])\.st[A-Z]\w*|data-testid|data-stale|\[kind[\^=]""")


@pytest.mark.parametrize("source", [s for s in SOURCES if s != "ui/streamlit_dom.py"])
def test_no_module_but_streamlit_dom_names_streamlits_markup(source):
    found = INTERNAL.findall((ROOT / source).read_text(encoding="utf-8"))
    assert found == [], f"{source} styles Streamlit's internals directly ({found}): name them in ui/streamlit_dom.py"


def test_every_selector_constant_is_on_the_browser_tests_checklist():
    constants = {value for name, value in vars(streamlit_dom).items() if name.isupper() and isinstance(value, str)}
    assert constants == set(streamlit_dom.INTERNALS)


def test_the_page_css_is_built_from_the_listed_selectors():
    css = page_css.LAYOUT_CSS + page_css.A11Y_CSS + page_css.STALE_CSS + page_css.PRESENTER_CSS
    used = {selector for selector in streamlit_dom.INTERNALS if selector in css}
    assert used == set(streamlit_dom.INTERNALS)  # nothing listed that no rule uses
    assert '[class*="st-key-bpe-stepper"] [data-testid="stSlider"] {' in css


def test_the_docstring_examples_hold():
    assert doctest.testmod(ui.streamlit_dom).failed == 0
