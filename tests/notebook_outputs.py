"""The example notebook's outputs: run it in a fresh kernel, compare outputs stably, write them back.

The notebook is committed with its outputs, so it reads on a code host without running (its
charts are SVG pictures). ``tests/test_notebook_example.py`` runs it and checks that the committed
outputs are the current ones; after changing the engine or the notebook, refresh them with::

    .venv/bin/python -m tests.notebook_outputs

How outputs are compared, so that two runs of the same code compare equal: each code cell's
outputs are reduced to their kind, their stream text or their data by MIME type; execution
counts, cell and output metadata (timings, the kernel's ids) are left out; and what differs from
run to run inside the data is replaced by a placeholder: object addresses (``at 0x7f...``) and the
random element ids Altair and Vega give a chart (``altair-viz-<hex>``, ``clip0``-style SVG ids
are deterministic and kept). Markdown cells compare by their source.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .machine_speed import scaled

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "examples" / "bpe_in_a_notebook.ipynb"
VOLATILE = (
    (re.compile(r" at 0x[0-9a-f]+"), " at 0x…"),
    (re.compile(r"altair-viz-[0-9a-f]+"), "altair-viz-…"),
)


def execute(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Run ``notebook`` in place in a new kernel that imports this checkout's ``bpe``, in a scratch
    folder (its cells may write files)."""
    with tempfile.TemporaryDirectory() as folder:
        previous = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = str(ROOT)
        try:
            NotebookClient(notebook, timeout=round(scaled(120)), kernel_name="python3", resources={"metadata": {"path": folder}}).execute()
        finally:
            if previous is None:
                os.environ.pop("PYTHONPATH")
            else:
                os.environ["PYTHONPATH"] = previous
    return notebook


def _stable(text: str) -> str:
    for pattern, placeholder in VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def stable(notebook: nbformat.NotebookNode) -> list[tuple]:
    """Every cell as ``(id, type, source, outputs)``, with only what a rerun of the same code repeats."""
    cells = []
    for cell in notebook.cells:
        outputs = []
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                outputs.append(("stream", output["name"], _stable(output["text"])))
            elif output["output_type"] == "error":
                outputs.append(("error", output["ename"], output["evalue"]))
            else:
                data = {kind: _stable(value if isinstance(value, str) else "".join(value)) for kind, value in output["data"].items()}
                outputs.append((output["output_type"], tuple(sorted(data.items()))))
        cells.append((cell.get("id"), cell["cell_type"], "".join(cell["source"]), tuple(outputs)))
    return cells


def refresh(path: Path = NOTEBOOK) -> None:
    """Run the notebook and write it back with its new outputs (execution timings left out)."""
    notebook = execute(nbformat.read(path, as_version=4))
    for cell in notebook.cells:
        cell["metadata"].pop("execution", None)
    nbformat.write(notebook, path)


if __name__ == "__main__":
    refresh()
    print(f"{NOTEBOOK.relative_to(ROOT)}: outputs refreshed")
