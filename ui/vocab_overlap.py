"""Compare's "your vocabulary against GPT-4's": the run's learned tokens looked up in a pretrained
vocabulary (GPT-4's by default), built once per run and vocabulary for the server."""

from __future__ import annotations

import streamlit as st

from bpe.encoding.vocab_compare import compare_vocabularies
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.views.vocab_overlap import overlap_frame, overlap_sentence

from . import tokenizers
from .render import tokenizer_at
from .shared_views import shared_view
from .state import SessionValue
from .training import Trained

AGAINST = SessionValue("overlap_with", "cl100k_base")
"""The pretrained vocabulary the run's tokens are looked up in."""


def vocabulary_overlap_section(trained: Trained) -> None:
    """How many of the run's learned tokens (all its merges) a pretrained vocabulary also has, and which."""
    st.header("Your vocabulary against a pretrained one")
    names = list(PRETRAINED)
    name = st.selectbox("Look this run's tokens up in", names, format_func=tokenizers.pretrained_label, **AGAINST.widget(options=names))
    other = tokenizers.pretrained(name)
    if other is None:
        return
    title = PRETRAINED[name].title
    total = len(trained.trace.steps)
    ours = shared_view(trained, "overlap tokenizer", build=lambda: tokenizer_at(trained, total))
    comparison = shared_view(trained, "overlap", name, build=lambda: compare_vocabularies(ours, other))
    st.markdown(escape_markdown(overlap_sentence(comparison, theirs=title)))
    st.dataframe(
        shared_view(trained, "overlap table", name, build=lambda: overlap_frame(ours, comparison, theirs=title)),
        hide_index=True, width="stretch", height=min(36 * (total + 1) + 3, 360),
    )
    st.caption(
        f"Tokens are the same when they are the same bytes, whatever their ids. {title}'s vocabulary was learned "
        "on far more text; a token of this run it lacks is one your corpus repeats more than that text did."
    )
