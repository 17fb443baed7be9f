"""A token's merge tree as Graphviz DOT: which merges built it, down to base bytes/characters.

Pure text, drawn by ``st.graphviz_chart``. Labels are Graphviz's HTML-like labels, the token large
and its id and step small under it (a narrow box: a tree of many leaves is scaled down less to fit
its column, so its labels stay readable); their text is HTML-escaped after whitespace is made
visible, so a token spelled ``<b>`` or ``>`` cannot break out of its label.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> wikipedia = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> print(merge_tree_dot(wikipedia, 258))      # X = Z + Y = (a a) + (a b)
    digraph merges {
      ...
      n0 [label=<aaab<BR/><FONT POINT-SIZE="11">id 258 · step 3</FONT>>, fillcolor="#F7E0AD"];
      n1 [label=<aa<BR/><FONT POINT-SIZE="11">id 256 · step 1</FONT>>, fillcolor="#F7E0AD"];
      ...
      n0 -> n1; n0 -> n4;
    }
"""

from __future__ import annotations

import html

from collections.abc import Callable, Mapping

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import quote, spelled, visible_text
from ..training.trace import Trace

MAX_NODES = 127
"""A tree this big (64 leaves) is unreadable anyway; deeper nodes are cut with "…"."""


DETAIL_SCALE = 0.8
"""The id and step under a token, this much smaller than the token (11 points under 14: 15 px on a
laptop, 21 px on a projector; at 0.55 they were 11 px, too small to read)."""

TREE_FONT_PT = 14
"""A token's label size in Graphviz points: drawn 4/3 as many pixels (19 px) unless the page scales
a wide tree down to its column. (Streamlit's own CSS once shrank every label to 0.6 rem whatever
the size asked for; ``ui.page_css`` gives labels back their size.)"""


def tree_font_pt(*, presenting: bool) -> int:
    """Label size: 20 points (27 px) in presenter mode, over 24 px from the back of a room."""
    return 20 if presenting else TREE_FONT_PT


def merge_tree_dot(
    trace: Trace, token_id: int, names: Mapping[int, str] | None = None, *, font_size: int = TREE_FONT_PT
) -> str:
    """DOT source of the tree of merges that made ``token_id`` (a single node for base tokens)."""
    names = names or {}
    base_count = len(trace.base)

    def describe(current: int) -> tuple[str, str, tuple[int, int] | None]:
        text = spelled(trace, current)
        created = trace.created_at(current)
        name = f"{names[current]} = " if current in names else ""
        detail = f"id {current}" + (f" · step {created.step}" if created else "")
        parts = (created.left, created.right) if created is not None and current >= base_count else None
        return name + text, detail, parts

    return _tree_dot(token_id, describe, font_size=font_size)


def tokenizer_merge_tree_dot(
    tokenizer: Tokenizer, token_id: int, made_by: Mapping[int, tuple[int, int, int]], *, font_size: int = TREE_FONT_PT
) -> str:
    """The same tree for a tokenizer without a trace (e.g. GPT-4o): ``made_by`` is ``new id -> (rank, left, right)``.

    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> from bpe.tokens.vocab import Token
    >>> tok = Tokenizer(unit="byte", pretokenizer="none", base={i: Token(bytes([i])) for i in range(256)},
    ...                 merges=[(97, 98, 256), (256, 99, 257)])
    >>> print(tokenizer_merge_tree_dot(tok, 257, {256: (0, 97, 98), 257: (1, 256, 99)}))  # abc = (a b) c
    digraph merges {
      ...
      n0 [label=<abc<BR/><FONT POINT-SIZE="11">id 257 · merge 2</FONT>>, fillcolor="#F7E0AD"];
      ...
    }
    """
    tokens, whole_only = tokenizer.tokens, tokenizer.whole_only

    def describe(current: int) -> tuple[str, str, tuple[int, int] | None]:
        made = made_by.get(current)
        detail = f"id {current}" + (f" · merge {made[0] + 1:,}" if made else " · whole chunk only" if current in whole_only else "")
        return visible_text(tokens[current].data), detail, (made[1], made[2]) if made else None

    return _tree_dot(token_id, describe, font_size=font_size)


def _tree_dot(
    token_id: int, describe: Callable[[int], tuple[str, str, tuple[int, int] | None]], *, font_size: int
) -> str:
    """The DOT of a merge tree; ``describe(id)`` gives its label, detail line and two parts (None: a leaf)."""
    detail_size = round(font_size * DETAIL_SCALE)
    lines = [
        "digraph merges {",
        '  graph [rankdir=TB, bgcolor="transparent", nodesep=0.25, ranksep=0.45];',
        f'  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize={font_size}, fillcolor="#C9E7F8"];',
        f'  edge [color="#555555", arrowsize={0.7 * font_size / 14:.2f}];',
    ]
    counter = 0

    def add(current: int) -> str:
        nonlocal counter
        node = f"n{counter}"
        counter += 1
        text, detail, parts = describe(current)
        fill = '"#F7E0AD"' if parts is not None else '"#ADE0D2"'  # merged tokens orange, base tokens green
        label = f'{html.escape(text)}<BR/><FONT POINT-SIZE="{detail_size}">{html.escape(detail)}</FONT>'
        lines.append(f"  {node} [label=<{label}>, fillcolor={fill}];")
        if parts is not None:
            if counter + 2 > MAX_NODES:
                lines.append(f'  {node}_more [label="…", shape=plaintext, style=""];')
                lines.append(f"  {node} -> {node}_more;")
                return node
            left = add(parts[0])
            right = add(parts[1])
            lines.append(f"  {node} -> {left}; {node} -> {right};")
        return node

    add(token_id)
    lines.append("}")
    return "\n".join(lines)


def biggest_tree(trace: Trace, step: int) -> int | None:
    """The token learned by merge ``step`` or before whose tree has the most leaves (the latest on a
    tie): the tree a page opens on, since the last merge's is often two leaves. ``None`` before any merge.

    >>> from bpe import PRESETS, train
    >>> wikipedia = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> biggest_tree(wikipedia, 3), biggest_tree(wikipedia, 1), biggest_tree(wikipedia, 0)   # aaab = (a a) + (a b)
    (258, 256, None)
    """
    leaves: dict[int, int] = {}
    best = None
    for merge in trace.steps[:step]:  # a merge's parts are older tokens: their counts are known
        leaves[merge.new_id] = leaves.get(merge.left, 1) + leaves.get(merge.right, 1)
        if best is None or leaves[merge.new_id] >= leaves[best]:
            best = merge.new_id
    return best


def merge_tree_text(trace: Trace, token_id: int, *, limit: int = 20) -> str:
    """The tree in words, for screen readers (the drawing is a picture): each merged token as its
    two halves, top down, in the notation of the chips.

    >>> from bpe import PRESETS, train
    >>> merge_tree_text(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings), 258)
    "Merge tree of 'aaab': 'aaab' = 'aa' + 'ab' (merge 3); 'aa' = 'a' + 'a' (merge 1); 'ab' = 'a' + 'b' (merge 2)."
    """
    def label(current: int) -> str:
        return quote(spelled(trace, current))

    parts, queue = [], [token_id]
    while queue and len(parts) < limit:
        current = queue.pop(0)
        created = trace.created_at(current)
        if created is not None:
            parts.append(f"{label(current)} = {label(created.left)} + {label(created.right)} (merge {created.step})")
            queue += [created.left, created.right]
    body = "; ".join(parts) if parts else "a base token, made by no merge"
    return f"Merge tree of {label(token_id)}: {body}{'; …' if queue and len(parts) >= limit else ''}."
