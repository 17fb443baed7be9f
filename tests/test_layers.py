"""Layers that hold: no import runs up a layer and no modules import each other in a circle.

The layer order is written down here, once: :data:`LAYERS`, lowest first. A module's layer is read
from its path (the longest prefix in :data:`LAYERS` that matches), so a new module's layer is its
folder's, and a file in no layer fails :func:`test_every_module_has_a_layer`.

A module may import its own layer and any layer below it, never one above, and never in a
circle. Every import counts: at the top of a file, inside a function, or under
``if TYPE_CHECKING:``, since a deferred import that breaks a circle hides the circle, it does not
remove it. Imports of project modules also belong at the top of the file: one inside a function
is allowed only where :data:`DEFERRED` says why. Tests, benchmarks, scripts and examples are
outside the layers (they may import anything) and are not read. Everything is read from the
``ast`` of each file, so the checks also hold for modules added later.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("bpe/errors.py", "bpe/limits.py", "bpe/collector.py", "bpe/registry.py", "bpe/renamed.py")),  # errors, limits, the registry type: each contract once
    ("jobs", ("bpe/jobs/",)),  # work run apart from the page's thread: worker processes within a budget, shared, cancelled
    ("tokens", ("bpe/tokens/",)),  # what a token is, ids, bytes as text, the end-of-word marker
    ("reference", ("bpe/reference.py",)),  # the readable BPE: it needs only the tokens' Pair
    ("text", ("bpe/text/",)),  # the corpus, normalization and pre-tokenization, special-token text
    ("encoding", ("bpe/encoding/",)),  # the tokenizer, its table, the merge loop, streaming, segmentations
    ("training", ("bpe/training/",)),  # the trainer, its rules and helpers, settings, the trace, presets
    ("formats", ("bpe/formats/",)),  # other libraries' tokenizer files
    ("pretrained", ("bpe/pretrained/",)),  # the pretrained registry, read through formats
    ("analysis", ("bpe/analysis/",)),  # what merge lists reveal: lineage, the family tree, the training mix
    ("notation", ("bpe/notation/",)),  # how a learner reads tokens as text (plain, Markdown)
    ("checking", ("bpe/checking/",)),  # Check my BPE and Check my encoder
    ("command line", ("bpe/cli/",)),  # python -m bpe / bpe-lab
    ("public API", ("bpe/__init__.py", "bpe/__main__.py", "bpe/moved.py")),  # what `import bpe` offers, old paths kept
)
"""The engine's stages, lowest first: the folder tree under ``bpe/`` is the path a text takes, and a
stage imports only the stages below it (stdlib + regex; pandas and altair only from ``views`` up)."""
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    *STAGES,
    ("app model", ("bpe/app/",)),  # what a link carries, the settings the sidebar offers, the pages
    ("teaching", ("bpe/teaching/",)),  # the quiz, the labs and the tour, as plain data
    ("views", ("bpe/views/",)),  # HTML, DataFrames and charts built from the layers below
    ("front ends", ("ui/", "bpe/notebook.py")),  # Streamlit's glue and Jupyter's
    ("pages", ("pages/", "app.py")),
)
"""``(layer, path prefixes)``, lowest layer first: the engine's stages, then what is drawn from them.
A file at the top of ``bpe/`` that is named nowhere here is in no layer: put it in a stage's folder."""
OUTSIDE = ("tests/", "benchmarks/", "scripts/", "examples/", "setup.py", "build/", "test-artifacts/")
"""Code outside the layers: it may import any layer."""
DEFERRED: dict[tuple[str, str], str] = {
    ("bpe/views/notebook.py", "bpe.views.charts"): "the chart needs altair, which an install of the engine alone lacks",
}
"""``(file, module) -> why``: the function-local imports of project modules there are reasons for."""
HELPERS_ELSEWHERE: dict[str, str] = {
    "bpe/formats/tekken.py": "a file format, beside the others; today only the pretrained registry reads Tekken files",
}
"""``file -> why``: engine modules that one module alone imports, yet that live outside its folder."""
MAX_LINES = 400
MAX_PAGE_LINES = 250


@dataclass(frozen=True)
class Import:
    source: str
    """The importing file, relative to the checkout (``bpe/training/trace.py``)."""
    line: int
    module: str
    """The project module imported (``bpe.views.notebook``)."""
    deferred: bool
    """Inside a function (not at module level, where ``if TYPE_CHECKING:`` imports also are)."""

    def where(self) -> str:
        return f"{self.source}:{self.line}"


def python_files() -> list[str]:
    """The project's own Python files; ignored folders (the virtualenv's thousands of files among
    them) are never walked."""
    ignored = (".venv/", ".git/", *OUTSIDE)
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        relative = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if relative == "." else f"{relative}/"
        subfolders[:] = [name for name in subfolders if not f"{prefix}{name}/".startswith(ignored)]
        found += [f"{prefix}{name}" for name in files if name.endswith(".py") and not f"{prefix}{name}".startswith(ignored)]
    return sorted(found)


def module_name(path: str) -> str:
    """``bpe/views/token_html.py`` -> ``bpe.views.token_html``; a package is its ``__init__``."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


FILES = python_files()
MODULES = {module_name(path): path for path in FILES}


def layer_of(path: str) -> int | None:
    """Index of ``path``'s layer in :data:`LAYERS` (longest matching prefix), None if it has none."""
    matches = [(len(prefix), index) for index, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes
               if path == prefix or (prefix.endswith("/") and path.startswith(prefix))]
    return max(matches)[1] if matches else None


def imports_of(path: str) -> Iterator[Import]:
    """Every import of a project module in ``path``, wherever it stands in the file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
    name = module_name(path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    deferred_nodes = {
        id(node) for function in ast.walk(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for node in ast.walk(function)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [_project_module(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            # `from bpe.views import notebook` imports the module bpe.views.notebook; `from bpe import
            # Tokenizer` imports the package bpe (its __init__).
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else _project_module(base)
                       for alias in node.names]
        else:
            continue
        for target in dict.fromkeys(targets):
            if target is not None and target != name:
                yield Import(path, node.lineno, target, id(node) in deferred_nodes)


def _project_module(dotted: str) -> str | None:
    """The longest project module that ``dotted`` names (``bpe.views.notebook.x`` -> ``bpe.views.notebook``)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in MODULES:
            return ".".join(parts[:end])
    return None


@functools.cache
def project_imports() -> tuple[Import, ...]:
    """Every project import in every file (read when a test asks: each pytest-xdist worker imports
    this module to collect it, and only one runs its tests)."""
    return tuple(found for path in FILES for found in imports_of(path))


def circles() -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan's algorithm, iterative)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for found in project_imports():
        graph[module_name(found.source)].add(found.module)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


# -- the checks ------------------------------------------------------------------------------------
def test_every_module_has_a_layer():
    homeless = [path for path in FILES if layer_of(path) is None]
    assert not homeless, f"these files are in no layer; add their folder to LAYERS in {Path(__file__).name}: {homeless}"


def test_no_import_runs_up_a_layer():
    upward = [
        f"{found.where()}: {module_name(found.source)} ({LAYERS[layer_of(found.source)][0]}) imports "
        f"{found.module} ({LAYERS[layer_of(MODULES[found.module])][0]}), a higher layer"
        for found in project_imports()
        if layer_of(found.source) is not None and layer_of(found.source) < layer_of(MODULES[found.module])
    ]
    assert not upward, "move what both need down to the lower layer:\n" + "\n".join(upward)


def test_no_modules_import_each_other_in_a_circle():
    found = []
    for group in circles():
        members = set(group)
        edges = [f"  {i.where()} imports {i.module}" for i in project_imports()
                 if module_name(i.source) in members and i.module in members]
        found.append(f"{' <-> '.join(group)}:\n" + "\n".join(edges))
    assert not found, "import circles (put what both sides need in one module both import):\n" + "\n".join(found)


def test_project_modules_are_imported_at_the_top_of_the_file():
    hidden = [
        f"{found.where()}: imports {found.module} inside a function"
        for found in project_imports() if found.deferred and (found.source, found.module) not in DEFERRED
    ]
    assert not hidden, (
        "import these at the top of the file (or, for an optional package, add the reason to DEFERRED):\n"
        + "\n".join(hidden)
    )
    present = {(found.source, found.module) for found in project_imports() if found.deferred}
    assert set(DEFERRED) <= present, f"DEFERRED names imports that are gone: {set(DEFERRED) - present}"


@pytest.mark.parametrize("kind, prefix, limit", [("module", "", MAX_LINES), ("page", "pages/", MAX_PAGE_LINES)])
def test_modules_and_pages_stay_short(kind, prefix, limit):
    everything = [path.relative_to(ROOT).as_posix() for path in ROOT.rglob("*.py")]
    files = [path for path in everything if path.startswith(prefix) and not path.startswith((".venv/", "build/"))]
    assert files
    long = {path: lines for path in files if (lines := len((ROOT / path).read_text(encoding="utf-8").splitlines())) > limit}
    assert not long, f"a {kind} has at most {limit} lines; split these by idea: {long}"


def test_a_helper_module_sits_in_the_folder_of_its_one_user():
    """An engine module that one other module alone imports is that module's helper, and lives beside it
    (tests, benchmarks and scripts do not count as users; views, teaching and app are read by the front ends)."""
    stages = range(len(STAGES))  # the first layers
    users: dict[str, set[str]] = {}
    for found in project_imports():
        users.setdefault(found.module, set()).add(found.source)
    strays = [
        f"{path} is imported only by {user}: move it into {Path(user).parent.as_posix()}/ (or say why in HELPERS_ELSEWHERE)"
        for name, path in MODULES.items()
        if layer_of(path) in stages and not path.endswith("__init__.py") and len(users.get(name, ())) == 1
        and Path(user := next(iter(users[name]))).parent != Path(path).parent and path not in HELPERS_ELSEWHERE
    ]
    assert not strays, "\n".join(strays)
    assert all(len(users.get(module_name(path), ())) == 1 for path in HELPERS_ELSEWHERE), "HELPERS_ELSEWHERE names a shared module"


def test_the_drawn_import_graph_is_current():
    drawer = ROOT / "scripts" / "draw_import_graph.py"
    spec = importlib.util.spec_from_file_location("draw_import_graph", drawer)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    drawing = module.draw()
    assert "imports up a stage: **0**; import circles: **0**" in drawing
    assert (ROOT / "docs" / "import_graph.md").read_text(encoding="utf-8") == drawing, (
        "docs/import_graph.md is stale: run python scripts/draw_import_graph.py"
    )


# -- the checker itself ----------------------------------------------------------------------------
def test_the_reader_sees_deferred_and_type_checking_imports_and_resolves_relative_ones():
    by_source = {(found.source, found.module): found for found in project_imports()}
    assert by_source[("bpe/views/notebook.py", "bpe.views.charts")].deferred  # inside pair_chart
    assert not by_source[("bpe/encoding/tokenizer.py", "bpe.encoding.streaming")].deferred  # `from .streaming import ...`
    assert ("bpe/formats/ours.py", "bpe.encoding.tokenizer") in by_source  # `from ..encoding.tokenizer import Tokenizer`
    assert ("bpe/teaching/tour.py", "bpe.app.pages") in by_source  # `from ..app import pages`
    assert ("bpe/teaching/tie_lab.py", "bpe.training.tiebreak") in by_source  # `from ..training import tiebreak`: a module
    assert ("bpe/notebook.py", "bpe.views.notebook") in by_source


def test_a_files_layer_is_its_folders_or_its_own_entry():
    def name(path: str) -> str | None:
        return None if layer_of(path) is None else LAYERS[layer_of(path)][0]

    assert [name(p) for p in ("bpe/errors.py", "bpe/tokens/vocab.py", "bpe/reference.py", "bpe/text/corpus.py")] == [
        "foundation", "tokens", "reference", "text",
    ]
    assert [name(p) for p in ("bpe/encoding/tokenizer.py", "bpe/training/trainer.py", "bpe/formats/ours.py")] == [
        "encoding", "training", "formats",
    ]
    assert [name(p) for p in ("bpe/cli/commands.py", "bpe/__init__.py", "bpe/app/pages.py", "bpe/views/labs.py")] == [
        "command line", "public API", "app model", "views",
    ]
    assert name("bpe/notebook.py") == name("ui/render.py") == "front ends" and name("app.py") == "pages"
    assert name("bpe/new_module.py") is None  # a new file at the top of bpe/ must be put in a stage
