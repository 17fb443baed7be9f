"""The engine's public surface, read and written as text: what ``tests/test_public_api.py`` pins.

Two files, both one line per name, sorted:

* ``tests/public_api.txt``, the surface today: every name of :data:`DOCUMENTED` (the modules
  ``docs/api.md`` documents), with its kind and signature, and the public methods and properties
  of each class (``bpe.Tokenizer.encode method (self, text, *, allowed_special=None, ...)``).
* ``tests/api_before_stage_folders.txt``, the names every module of ``bpe/`` exported just before
  the stage folders (commit 4627347^), read from that commit's files with ``git show`` (``module name``;
  a module that exported nothing is its name alone): frozen, since that tree will not change.

A module's names are its ``__all__`` when it has one, else the public names its own source assigns
at the top level (functions, classes, constants; an imported name is not one of them, except in a
package's ``__init__``, whose imports are what it offers). After a deliberate change to the surface
(and to ``docs/api.md``), refresh the first file with::

    .venv/bin/python -m tests.public_api

The second was written by ``.venv/bin/python -m tests.public_api --before 4627347^`` and is not
rewritten.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SURFACE_FILE = ROOT / "tests" / "public_api.txt"
BEFORE_FILE = ROOT / "tests" / "api_before_stage_folders.txt"
DOCUMENTED = ("bpe", "bpe.checking", "bpe.cli", "bpe.formats", "bpe.notebook", "bpe.pretrained", "bpe.reference",
              "bpe.registry")
"""The modules ``docs/api.md`` documents, whose every name and signature is pinned."""


def exported_names(source: str, *, is_package: bool) -> list[str]:
    """The names a module's ``source`` exports (see the module docstring), sorted.

    >>> exported_names("import os\\nfrom x import y\\nA = 1\\n_b = 2\\ndef f(): pass\\nclass C: pass", is_package=False)
    ['A', 'C', 'f']
    >>> exported_names("from .m import y, z as w\\n__all__ = ['y']", is_package=True)
    ['y']
    """
    names: list[str] = []
    declared: list[str] | None = None
    for node in _top_level(ast.parse(source).body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names += [leaf.id for leaf in ast.walk(target) if isinstance(leaf, ast.Name)]
                if isinstance(target, ast.Name) and target.id == "__all__":
                    declared = list(ast.literal_eval(node.value))
        elif isinstance(node, ast.ImportFrom) and is_package:
            names += [alias.asname or alias.name for alias in node.names]
    return sorted(declared if declared is not None else {name for name in names if not name.startswith("_")})


def _top_level(body: list[ast.stmt]):
    """The module's statements, with those inside a top-level ``if`` or ``try`` (but not ``if TYPE_CHECKING:``)."""
    for node in body:
        if isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                yield from _top_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from _top_level(node.body + [stmt for handler in node.handlers for stmt in handler.body])
        else:
            yield node


def names_at(commit: str) -> dict[str, list[str]]:
    """``module -> names`` for every module of ``bpe/`` at ``commit`` (read with ``git show``)."""
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, "bpe"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    found = {}
    for path in (path for path in listed if path.endswith(".py") and not path.endswith("__main__.py")):
        source = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT, check=True, capture_output=True,
                                text=True).stdout
        module = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        found[module] = exported_names(source, is_package=path.endswith("__init__.py"))
    return found


def module_names(module_name: str) -> list[str]:
    """The names a module exports today (its ``__all__``, or what its source assigns)."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        return sorted(module.__all__)
    return exported_names(Path(module.__file__).read_text(encoding="utf-8"),
                          is_package=module.__file__.endswith("__init__.py"))


def _signature(thing: object) -> str:
    try:
        shown = str(inspect.signature(thing))
    except (TypeError, ValueError):  # a builtin or a class without one
        return "(...)"
    return re.sub(r" at 0x[0-9a-f]+>", ">", shown)  # a default function's address changes from run to run


def _kind(value: object) -> str:
    if inspect.isclass(value):
        return "class"
    if inspect.ismodule(value):
        return "module"
    return "function" if callable(value) else f"constant {type(value).__name__}"


def _members(owner: str, cls: type) -> list[str]:
    """A class's public methods and properties, defined in BPE Lab (not inherited from elsewhere)."""
    lines = []
    fields = {field.name for field in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    fields |= set(getattr(cls, "_fields", ()))  # a NamedTuple's; fields are in the class's own signature
    for name in sorted(set(dir(cls)) - fields):
        defined_in = next((base for base in cls.__mro__ if name in vars(base)), None)
        if name.startswith("_") or defined_in is None or not defined_in.__module__.startswith("bpe"):
            continue
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, property):
            lines.append(f"{owner}.{name} property")
        elif isinstance(raw, (classmethod, staticmethod)) or inspect.isfunction(raw):
            kind = type(raw).__name__ if isinstance(raw, (classmethod, staticmethod)) else "method"
            lines.append(f"{owner}.{name} {kind} {_signature(raw.__func__ if kind != 'method' else raw)}")
    return lines


def surface() -> list[str]:
    """One line per public name of :data:`DOCUMENTED` (and per member of each class), sorted."""
    lines = []
    for module_name in DOCUMENTED:
        module = importlib.import_module(module_name)
        for name in module_names(module_name):
            value = getattr(module, name)
            kind = _kind(value)
            where = f"{module_name}.{name}"
            lines.append(f"{where} {kind} {_signature(value)}" if kind in ("class", "function") else f"{where} {kind}")
            if kind == "class":
                lines += _members(where, value)
    return sorted(lines)


def read_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def main(argv: list[str]) -> None:
    if argv[:1] == ["--before"]:
        found = sorted(names_at(argv[1]).items())  # a module exporting nothing is a line of its own: it must import
        lines = [f"{module} {name}" for module, names in found for name in names] + [module for module, names in found if not names]
        header = f"# every name each module of bpe/ exported at {argv[1]} (python -m tests.public_api --before {argv[1]})"
        BEFORE_FILE.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
        print(f"wrote {BEFORE_FILE.relative_to(ROOT)}: {len(lines)} names")
    else:
        lines = surface()
        header = "# the public surface: docs/api.md's modules, kinds and signatures (python -m tests.public_api)"
        SURFACE_FILE.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
        print(f"wrote {SURFACE_FILE.relative_to(ROOT)}: {len(lines)} lines")


if __name__ == "__main__":
    main(sys.argv[1:])
