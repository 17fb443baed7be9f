"""The example notebook runs, top to bottom, in a real Jupyter kernel, and shows what its text says;
its committed outputs (it reads on a code host without running) are the ones it makes now.

Expected values come from the sources the notebook walks (the Sennrich paper's code output,
Wikipedia's walk-through, ASCII codes for the ids), not from a run of this engine. How outputs are
compared from run to run: ``tests/notebook_outputs.py``.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import nbformat
import pytest

from .notebook_outputs import NOTEBOOK, execute, stable
SENNRICH_PAPER_PAIRS = [
    ("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w"), ("n", "e"), ("ne", "w"),
    ("new", "est</w>"), ("low", "</w>"), ("w", "i"),
]


@pytest.fixture(scope="module")
def executed() -> nbformat.NotebookNode:
    return execute(nbformat.read(NOTEBOOK, as_version=4))


@pytest.fixture(scope="module")
def outputs(executed) -> dict[str, dict]:
    """``{cell id: its last output's data, or its printed text}`` after running the notebook in a new kernel."""
    return {
        cell["id"]: cell["outputs"][-1].get("data", {"text/plain": cell["outputs"][-1].get("text", "")})
        for cell in executed.cells if cell["cell_type"] == "code" and cell["outputs"]
    }


def test_the_committed_outputs_are_the_ones_the_notebook_makes_now(executed):
    committed = stable(nbformat.read(NOTEBOOK, as_version=4))
    assert all(outputs for _, kind, _, outputs in committed if kind == "code"), "a code cell was committed without its output"
    assert committed == stable(executed), "refresh them: .venv/bin/python -m tests.notebook_outputs"


def test_the_sennrich_cell_lists_the_papers_ten_merges(outputs):
    assert ast.literal_eval(outputs["sennrich-merges"]["text/plain"]) == SENNRICH_PAPER_PAIRS


def test_the_sennrich_trace_draws_itself_as_html_with_merges_and_the_corpus(outputs):
    shown = outputs["sennrich-trace"]["text/html"]
    assert "<h4>BPE trace: 10 merges</h4>" in shown
    assert "<td>new</td><td>est&lt;/w&gt;</td><td>newest&lt;/w&gt;</td>" in shown
    assert "<td>widest</td>" in shown and 'class="bpe-tok' in shown


def test_the_sennrich_chart_is_a_picture_of_the_pair_counts(outputs):
    # A picture (SVG, drawn by vl-convert), so the chart shows where no script runs.
    shown = outputs["sennrich-chart"]["image/svg+xml"]
    texts = [html.unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", shown)]
    # Before merge 3: est + </w> occurs in newest (6) and widest (3).
    assert "1. est + </w>" in texts and "9 ◀ merged" in texts


def test_the_wikipedia_cells_learn_aa_ab_aaab_and_encode_as_x_d_x_a_c(outputs):
    merges, stopped = ast.literal_eval(outputs["wikipedia-merges"]["text/plain"])
    assert merges == ["aa", "ab", "aaab"] and "occurs 1 time" in stopped
    assert "<h4>BPE tokenizer: wikipedia</h4>" in outputs["wikipedia-tokenizer"]["text/html"]
    chips = re.findall(r'data-id="\d+">([^<]*)</span>', outputs["wikipedia-show"]["text/html"])
    assert [html.unescape(chip) for chip in chips] == ["aaab", "d", "aaab", "a", "c"]
    # Ids: 256 + 2 for the third merge (aaab), then the bytes of d, a, c.
    assert outputs["wikipedia-ids"]["text/plain"] == "([258, 100, 258, 97, 99], 'aaabdaaabac')"


def test_the_tokenizer_and_trace_saved_to_files_read_back_the_same(outputs):
    assert outputs["save"]["text/plain"] == "(True, True)"


def test_the_reference_section_prints_the_training_loop_and_learns_what_the_engine_learns(outputs):
    source = outputs["reference-source"]["text/plain"]
    assert source.startswith("def train(") and "pair = break_tie(" in source
    assert outputs["reference-wikipedia"]["text/plain"] == (
        "[Merge(pair=(97, 97), count=4, new_id=256),\n Merge(pair=(97, 98), count=2, new_id=257),\n"
        " Merge(pair=(256, 257), count=2, new_id=258)]"
    )
    assert outputs["reference-same"]["text/plain"] == "(True, True, 'aaabdaaabac')"
    assert outputs["reference-sennrich"]["text/plain"] == "True"
