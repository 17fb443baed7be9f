"""Count, in a checkout, (a) the hand-written link readers and (b) the places a page's link parameter is
spelled, for the names a link carries besides the lab's (the same list before and after the registry).

    .venv/bin/python benchmarks/link_spellings.py .                 # this checkout
    git archive <rev> | tar -x -C /tmp/before && .venv/bin/python benchmarks/link_spellings.py /tmp/before

A spelling is a string constant equal to a parameter's name that sits in link code: an argument of a
link reader (new_param, read_choice, read_whole_number, query_params.get), a key of a dict literal
inside write_url(...) or passed as query_params=, or any constant inside a function whose name says it
reads or writes a link (read_url, read_link, _linked, link_params, linked_text, seat, apply_link,
tour_bar) or a module-level mapping named LINKED; plus the registry's own declarations (ui/links.py)."""
import ast
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
NAMES = set("add at bytes card check controls dropout droprule from least left merge new of part present preset reveal right room sample samples seat seed student teacher text token tour transition unit vocab walk why lesson stop".split())
READERS = {"new_param", "read_choice", "read_whole_number"}
LINK_FUNCS = {"read_url", "read_link", "_linked", "link_params", "linked_text", "seat", "apply_link", "tour_bar"}


def reads_the_query(function: ast.FunctionDef) -> bool:
    """A hand-written reader parses or checks a link itself; a page's read_url whose every statement
    is a call of url.read (or url.read_links) with declared parameters is the one mechanism's."""
    body = [n for n in function.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    return not all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                   and getattr(n.value.func, "attr", "") in ("read", "read_links") for n in body)


files = [*sorted((root / "pages").glob("*.py")), *sorted((root / "ui").glob("*.py")), root / "app.py"]
spots, readers = {}, []
for path in files:
    tree = ast.parse(path.read_text())
    rel = str(path.relative_to(root))
    marked = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in ("read_url", "read_link") and reads_the_query(node):
            readers.append(f"{rel}:{node.name}")
        if isinstance(node, ast.FunctionDef) and node.name in LINK_FUNCS:
            marked.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Constant))
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "LINKED" for t in node.targets):
            marked.update(id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant))
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in READERS or (name == "get" and "query_params" in ast.unparse(node.func)):
                if node.args: marked.add(id(node.args[0]))
            if name == "write_url":
                marked.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Constant))
            for kw in node.keywords:
                if kw.arg == "query_params":
                    marked.update(id(n) for n in ast.walk(kw.value) if isinstance(n, ast.Constant))
        if rel == "ui/links.py" and isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            marked.add(id(node.args[0]))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES and id(node) in marked:
            spots.setdefault(node.value, []).append(f"{rel}:{node.lineno}")
print("hand-written link readers (read_url/read_link functions that parse or check a link themselves):", len(readers), readers)
total = sum(len(v) for v in spots.values())
print("parameters spelled:", len(spots), "places:", total, "spelled more than once:", sorted(n for n, v in spots.items() if len(v) > 1))
for name in sorted(spots):
    print(f"  {name:11} {len(spots[name])}  {' '.join(spots[name])}")
