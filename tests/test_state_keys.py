"""Each page owns its session values, declared once by name (``ui/state.py`` says how): no page or
``ui`` module spells a raw ``"w.…"`` widget key or ``"bpe.…"`` session key, and no two declarations
share a name (two pages would silently share a value)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py")])
KEY_PREFIXES = ("w.", "bpe.")


def raw_keys(source: str) -> list[str]:
    """String literals (f-strings too) that start like a widget or session key."""
    found = []
    tree = ast.parse(source)
    parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if id(node) in parts:  # a piece of an f-string, judged with the whole
            continue
        if isinstance(node, ast.JoinedStr):
            head = node.values[0] if node.values else None
            text = head.value if isinstance(head, ast.Constant) and isinstance(head.value, str) else ""
            if text.startswith(KEY_PREFIXES):
                found.append(ast.unparse(node)[2:-1])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(KEY_PREFIXES):
            found.append(node.value)
    return found


def declared_names(source: str) -> list[str]:
    """The names of the ``SessionValue("name", ...)`` declared in ``source``."""
    return [
        node.args[0].value for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "SessionValue"
        and node.args and isinstance(node.args[0], ast.Constant)
    ]


def test_raw_keys_are_found_in_literals_and_f_strings_but_not_in_prose():
    source = 'st.button("Go", key="w.go")\nst.session_state[f"bpe.{name}"]\n"""Docs about `w.x`."""\n'
    assert sorted(raw_keys(source)) == ["bpe.{name}", "w.go"]


@pytest.mark.parametrize("path", [path for path in SOURCES if path.name != "state.py"], ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_page_or_ui_module_spells_a_raw_key(path):
    assert raw_keys(path.read_text(encoding="utf-8")) == []


def test_every_session_value_is_declared_once():
    names = [name for path in SOURCES for name in declared_names(path.read_text(encoding="utf-8"))]
    assert len(names) > 40  # the declarations are found at all
    assert sorted(names) == sorted(set(names))


def test_the_pages_own_their_values():
    encode = (ROOT / "pages" / "2_Encode_and_decode.py").read_text(encoding="utf-8")
    decode = (ROOT / "ui" / "decoding.py").read_text(encoding="utf-8")  # the page's Decode part, drawn by it alone
    assert {"encode_text", "encode_with"} <= set(declared_names(encode)) and "decode_ids" in declared_names(decode)
    assert "encode_text" not in declared_names((ROOT / "ui" / "state.py").read_text(encoding="utf-8"))
