"""Draw the engine's import graph into docs/import_graph.md: the stages, which stage imports which,
and every module with the project modules it imports.

Usage: ``python scripts/draw_import_graph.py`` (rewrites the file). The graph is read by
tests/test_layers.py, from the ``ast`` of every file, the same reading its checks use, so the drawing
and the checks never disagree; ``test_the_drawn_import_graph_is_current`` there fails when a change
to the imports is not redrawn.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_layers import LAYERS, MODULES, STAGES, circles, layer_of, module_name, project_imports  # noqa: E402

DRAWING = ROOT / "docs" / "import_graph.md"


def _short(name: str) -> str:
    return name.removeprefix("bpe.")


def draw() -> str:
    """The whole of docs/import_graph.md."""
    engine = range(len(STAGES))
    edges: dict[str, set[str]] = defaultdict(set)
    stage_edges: dict[int, set[int]] = defaultdict(set)
    upward = 0
    for found in project_imports():
        source, target = layer_of(found.source), layer_of(MODULES[found.module])
        if source in engine:
            edges[module_name(found.source)].add(found.module)
            if target != source:
                stage_edges[source].add(target)
            upward += target > source
    engine_paths = sorted((path for path in MODULES.values() if layer_of(path) in engine), key=lambda p: (layer_of(p), p))
    out = [
        "# The engine's import graph",
        "",
        "Drawn by `python scripts/draw_import_graph.py` from the `ast` of every file (the reading",
        "`tests/test_layers.py` checks); do not edit by hand. Stages lowest first: a stage imports only",
        "stages below it.",
        "",
        f"- imports up a stage: **{upward}**; import circles: **{len(circles())}**; engine modules: {len(engine_paths)}"
        " (each at most 400 lines: `test_modules_and_pages_stay_short`)",
        "",
        "## Stages",
        "",
        "```mermaid",
        "graph BT",
    ]
    for index, (stage, _) in enumerate(STAGES):
        out += [f'  s{index}["{stage}"]'] + [f"  s{index} --> s{target}" for target in sorted(stage_edges[index])]
    out += ["```", "", "| stage | folder or files | imports the stages |", "|---|---|---|"]
    for index, (stage, prefixes) in enumerate(STAGES):
        below = ", ".join(STAGES[target][0] for target in sorted(stage_edges[index])) or "(none)"
        out.append(f"| {stage} | {', '.join(f'`{prefix}`' for prefix in prefixes)} | {below} |")
    out += ["", "## Modules", "", "Each engine module and the project modules it imports.", ""]
    for index, (stage, _) in enumerate(STAGES):
        out += [f"### {stage}", ""]
        for path in (p for p in engine_paths if layer_of(p) == index):
            name = module_name(path)
            imported = ", ".join(_short(target) for target in sorted(edges[name])) or "—"
            out.append(f"- `{path}`: {imported}")
        out.append("")
    above = [layer for layer, _ in LAYERS[len(STAGES):]]
    out.append(f"Above the engine ({', '.join(above)}) the same checks hold; they are not drawn here.")
    return "\n".join(out) + "\n"


def main() -> int:
    DRAWING.write_text(draw(), encoding="utf-8")
    print(f"wrote {DRAWING.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
