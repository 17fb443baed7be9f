"""The example notebook runs, top to bottom, in a real Jupyter kernel, and shows what its text says.

Expected values come from the sources the notebook walks (the Sennrich paper's code output,
Wikipedia's walk-through, ASCII codes for the ids), not from a run of this engine.
"""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "examples" / "bpe_in_a_notebook.ipynb"
SENNRICH_PAPER_PAIRS = [
    ("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w"), ("n", "e"), ("ne", "w"),
    ("new", "est</w>"), ("low", "</w>"), ("w", "i"),
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, dict]:
    """``{cell id: its last output's data}`` after running a copy of the notebook in a new kernel."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    work = tmp_path_factory.mktemp("notebook")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this checkout's bpe
        NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(work)}}).execute()
    return {
        cell["id"]: cell["outputs"][-1].get("data", {})
        for cell in notebook.cells if cell["cell_type"] == "code" and cell["outputs"]
    }


def test_the_sennrich_cell_lists_the_papers_ten_merges(outputs):
    assert ast.literal_eval(outputs["sennrich-merges"]["text/plain"]) == SENNRICH_PAPER_PAIRS


def test_the_sennrich_trace_draws_itself_as_html_with_merges_and_the_corpus(outputs):
    shown = outputs["sennrich-trace"]["text/html"]
    assert "<h4>BPE trace: 10 merges</h4>" in shown
    assert "<td>new</td><td>est&lt;/w&gt;</td><td>newest&lt;/w&gt;</td>" in shown
    assert "<td>widest</td>" in shown and 'class="bpe-tok' in shown


def test_the_sennrich_chart_is_an_altair_chart_of_the_pair_counts(outputs):
    # Altair's default renderer embeds the Vega-Lite spec, its datasets included, in the HTML.
    shown = outputs["sennrich-chart"]["text/html"]
    start = shown.index("{", shown.index('"datasets": '))
    datasets, _ = json.JSONDecoder().raw_decode(shown, start)
    (rows,) = datasets.values()
    chosen = [row for row in rows if row["status"] == "chosen"]
    # Before merge 3: est + </w> occurs in newest (6) and widest (3).
    assert [(row["left"], row["right"], row["count"]) for row in chosen] == [("est", "</w>", 9)]


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
