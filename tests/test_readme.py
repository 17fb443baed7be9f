"""The README is the front page: what it shows must be what the project does.

Generated from the registries and the README itself, so a new page, document or example line is
checked with no edit here: every page of ``PAGES`` has its row in the pages table, in the sidebar's
order; every link to a file of the project points at one that exists; every line of the Python
example runs, and a line whose comment starts with a value gives exactly that value.
"""

from __future__ import annotations

import ast
import re

import pytest

from bpe.app.pages import PAGES

from .app_server import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
PROMISED = re.compile(r"#\s*(\[[^\]]*\]|'[^']*')")
"""A comment that promises a value starts with it: a list or a string (``# [15496, 995], as tiktoken gives``)."""


def section(heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL)
    assert match, f"README.md has a section '## {heading}'"
    return match.group(1)


def example_lines() -> list[str]:
    code = re.search(r"```python\n(.*?)```", section("The engine in a few lines"), re.DOTALL)
    assert code, "README.md shows the engine in a Python block"
    return code.group(1).splitlines()


def test_the_pages_table_lists_every_page_in_the_sidebars_order():
    rows = [line.split("|")[1].strip() for line in section("The pages").splitlines()
            if line.startswith("| ") and not line.startswith("| page |")]
    assert rows == [page.title for page in PAGES]


def test_every_link_to_a_project_file_points_at_one():
    targets = re.findall(r"\]\(((?!https?://|#)[^)\s]+)\)", README)
    assert len(targets) > 10  # the reader's table, the screenshots, the notebook
    assert [target for target in targets if not (ROOT / target.split("#")[0]).exists()] == []


def test_the_engine_example_has_values_to_check():
    assert sum(bool(PROMISED.search(line)) for line in example_lines()) >= 3


@pytest.mark.parametrize("upto", [i for i, line in enumerate(example_lines()) if PROMISED.search(line)])
def test_each_promised_value_of_the_engine_example_is_what_its_line_gives(upto):
    lines = example_lines()
    namespace: dict = {}
    exec(compile("\n".join(lines[:upto]), "README.md", "exec"), namespace)  # the lines before, as a reader runs them
    line = lines[upto]
    assert ast.literal_eval(PROMISED.search(line).group(1)) == eval(line.split("#")[0], namespace)
