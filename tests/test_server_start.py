"""A server imports every page's modules as it starts (ui/server_start.py), so no first visit waits on them."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import tempfile

import pytest

import ui.server_start
from bpe.app.pages import PAGES

from .app_server import ROOT, running_app
from .machine_speed import scaled

def test_the_modules_docstring_examples_hold():
    assert doctest.testmod(ui.server_start).failed == 0


WARM_AND_LIST_MISSING = """
import importlib, sys, types
from ui.server_start import page_imports, warm
from bpe.app.pages import PAGES
warm()
missing = []
for page in PAGES:
    for name in page_imports(page):
        if name in sys.modules:
            continue
        parent, _, attribute = name.rpartition(".")
        if not parent or isinstance(getattr(sys.modules.get(parent), attribute, None), types.ModuleType) or not hasattr(sys.modules.get(parent), attribute):
            missing.append(name)  # a module (or nothing at all) that warm() did not import
print("missing:", sorted(missing))
print("streamlit.emojis:", "streamlit.emojis" in sys.modules)
"""


def test_warming_imports_every_module_every_page_imports_and_streamlits_emoji_table():
    done = subprocess.run([sys.executable, "-c", WARM_AND_LIST_MISSING], cwd=ROOT, capture_output=True, text=True,
                          timeout=scaled(120))
    assert done.returncode == 0, done.stderr
    assert "missing: []\n" in done.stdout, done.stdout
    assert "streamlit.emojis: True" in done.stdout, done.stdout


@pytest.mark.servers
def test_a_fresh_server_has_imported_the_pages_modules_before_it_answers_its_health_check():
    with tempfile.TemporaryFile("w+") as log, running_app(log):
        log.seek(0)
        said = log.read()
    warmed = re.search(rf"warm start: (\d+) modules of {len(PAGES)} pages imported in [\d.]+ s", said)
    assert warmed and int(warmed[1]) > len(PAGES), said
