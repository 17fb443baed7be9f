"""A hostile value for every link parameter, for the page (AppTest) and browser tests.

The lab's parameters come from the link registry (:func:`bpe.app.lab_state.lab_params`, which
reads the setting specs), so a new setting is sent a hostile value without editing a test. Each
page's own parameters are found in the code that reads them (``url.new_param(...)`` in ``pages/``
and ``ui/``, the class room's among them), and ``present`` from ``ui/url.py``.

    >>> hostile("eow")
    "<svg/onload=alert('eow')>"
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from bpe.app.lab_state import lab_params

ROOT = Path(__file__).resolve().parent.parent
EVERY_PAGE = "pages/1_Train.py"
"""Where a parameter that every page reads (presenter mode, the tour) is sent."""
ONE_PAGES_UI = {
    "classroom.py": "pages/4_Predict_the_next_merge.py",
    "dropout.py": "pages/2_Encode_and_decode.py",
    "extension.py": "pages/13_Extend_a_tokenizer.py",
    "health.py": "pages/14_Vocabulary_health.py",
}
"""``ui`` modules whose link parameters one page alone acts on: the class room's (``room``,
``student``, ``teacher``) are read by Predict the next merge, which draws the room; BPE-dropout's
(``dropout``, ``samples``, ``seed``, ``droprule``) by Encode & decode; Extend's and Vocabulary health's
by those pages."""
READERS = {"new_param", "read_choice", "read_whole_number"}
"""The calls that read a link parameter named by their first argument (``ui/url.py``)."""


def hostile(param: str) -> str:
    """Markup that would run script if any page drew it unescaped; it names its parameter."""
    return f"<svg/onload=alert('{param}')>"  # no space: pages that show spaces as · show it whole


def lab_links() -> dict[str, str]:
    """``param -> hostile value`` for every parameter a lab link (example, settings, step) carries."""
    return {param: hostile(param) for param in sorted(lab_params())}


def _constant(module: ast.Module, name: str) -> str:
    """The value of ``name`` in a module: assigned there, or imported from one of ours."""
    for node in ast.walk(module):
        if isinstance(node, ast.Assign) and any(getattr(target, "id", None) == name for target in node.targets):
            return ast.literal_eval(node.value)
        if isinstance(node, ast.ImportFrom) and node.module and any(alias.name == name for alias in node.names):
            return getattr(importlib.import_module(node.module), name)
    raise LookupError(name)


def page_params() -> dict[str, set[str]]:
    """``page file -> parameters`` that page reads from a link with ``url.new_param`` (those read
    in ``ui/`` go to :data:`EVERY_PAGE`, or to the page :data:`ONE_PAGES_UI` names), plus presenter
    mode's ``present``."""
    found: dict[str, set[str]] = {EVERY_PAGE: {_constant(ast.parse((ROOT / "ui" / "url.py").read_text()), "PRESENT_KEY")}}
    for path in sorted([*(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py")]):
        module = ast.parse(path.read_text(encoding="utf-8"))
        page = f"pages/{path.name}" if path.parent.name == "pages" else ONE_PAGES_UI.get(path.name, EVERY_PAGE)
        for node in ast.walk(module):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in READERS:
                argument = node.args[0]
                if path.name == "url.py" and isinstance(argument, ast.Name) and argument.id == "key":
                    continue  # the readers themselves, passing on their caller's name
                name = argument.value if isinstance(argument, ast.Constant) else _constant(module, argument.id)
                found.setdefault(page, set()).add(name)
    return found


def url_path(page: str) -> str:
    """``pages/8_Byte_inspector.py`` -> ``/Byte_inspector``, the path Streamlit serves it on."""
    return "/" + Path(page).stem.split("_", 1)[1]
