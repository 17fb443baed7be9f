""""The code" on Train and Encode: the lines of ``bpe/reference.py`` a step runs, with its values.

The lines and values come from :mod:`bpe.teaching.reference_code`, the HTML from
:mod:`bpe.views.code_panel`; this draws them into the page and, on Encode, offers which chunk and
which of its merges to follow.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bpe.encoding.tokenizer import ChunkWalk, Tokenizer
from bpe.teaching.reference_code import encode_merge_lines, train_step_lines
from bpe.training.trace import Trace
from bpe.views.code_panel import CODE_PANEL_CSS, code_panel_html

from .render import show_html
from .state import widget_key

ABOUT = (
    "`bpe/reference.py` is BPE in a hundred readable lines; the fast engine is tested against it merge "
    "for merge. Beside each line, what it computes at this step."
)


def train_code(trace: Trace, step: int) -> None:
    """The training loop's lines for merge ``step`` (nothing to run at step 0)."""
    if not step:
        st.caption("No merge yet: press Next to see the lines that make merge 1.")
        return
    show_html(CODE_PANEL_CSS + code_panel_html(train_step_lines(trace, step)))
    st.caption(ABOUT)


def encode_code(walks: Sequence[ChunkWalk], tokenizer: Tokenizer) -> None:
    """The encode loop's lines for one merge of one chunk, both chosen by the learner."""
    merged = [walk for walk in walks if walk.merges]
    if not merged:
        st.caption("No learned merge applies to this text, so the loop of `encode_chunk` stops at once.")
        return
    left, right = st.columns(2)
    index = left.selectbox(
        "Chunk", range(len(merged)), key=widget_key("code", "chunk"),
        format_func=lambda i: f"{merged[i].text!r} ({len(merged[i].merges)} merge{'s' * (len(merged[i].merges) != 1)})",
    )
    walk = merged[min(index, len(merged) - 1)]
    merge = right.selectbox(
        "Merge applied", range(len(walk.merges)), key=widget_key("code", "merge"),
        format_func=lambda i: f"{i + 1}: {tokenizer.token_text(walk.merges[i].left)!r} + {tokenizer.token_text(walk.merges[i].right)!r}",
    )
    show_html(CODE_PANEL_CSS + code_panel_html(
        encode_merge_lines(walk, min(merge, len(walk.merges) - 1), tokenizer.token_text),
        label="bpe/reference.py, the lines that apply this merge",
    ))
    st.caption(ABOUT)
