"""Vocabulary: every token with its id, bytes, length, the step that made it, and its merge tree.

Ours at step k, or a pretrained tokenizer's (GPT-2, GPT-4, GPT-4o): how it began, in ``ui.pretrained_vocab``.
"""

import pandas as pd
import streamlit as st

from bpe.app import pages
from bpe.pretrained import PRETRAINED
from bpe.views.charts import length_histogram
from bpe.views.merge_tree import merge_tree_dot, merge_tree_text, tree_font_px
from bpe.views.tables import search_vocab, shown_counts, vocab_at, vocab_frame
from ui import pretrained_vocab, state, tokenizers, url
from ui.render import names_for, page_setup, presenter, show_chart
from ui.preamble import run_at_step
from ui.settings_sidebar import settings_sidebar
from ui.widgets import vocab_search


def choose_vocabulary() -> str:
    """``ours`` or a pretrained name; the pretrained ones need no run."""
    options = [tokenizers.OURS, *PRETRAINED]
    state.seed("w.vocab_of", st.session_state[state.VOCAB_OF])
    st.selectbox(
        "Vocabulary of", options, key="w.vocab_of", on_change=state.write_through("w.vocab_of", state.VOCAB_OF),
        format_func=lambda choice: "Ours (the run in the sidebar)" if choice == tokenizers.OURS else tokenizers.label(choice, 0),
    )
    return st.session_state[state.VOCAB_OF]


def main() -> None:
    page_setup(pages.VOCABULARY)
    settings_sidebar()
    st.title(":material/menu_book: Vocabulary")
    if (chosen := choose_vocabulary()) != tokenizers.OURS:
        pretrained_vocab.show(chosen)
        url.write_url()
        return
    run = run_at_step(slider_key="vocab")
    if run is None:
        return
    trained, step = run
    trace = trained.trace
    names = names_for(trained)
    everything = trained.view("vocab", lambda: vocab_frame(trace))
    present = vocab_at(trace, everything, step)

    left, right = st.columns([1.4, 1], gap="large")
    with left:
        st.header(f"{len(present):,} tokens after {step:,} merges")
        query = vocab_search(example="est, 65 73, 258")
        # Learned and special tokens first (newest first): they are what the run taught.
        learned = present["kind"].isin(["merge", "special"])
        ordered = pd.concat([present[learned].iloc[::-1], present[~learned]])
        found = search_vocab(ordered, query)
        st.dataframe(
            shown_counts(found), hide_index=True, width="stretch", height=420,
            column_config={
                # Short titles: with the long ones the table ran past its column and cut "2000" to "200".
                "created at step": st.column_config.NumberColumn(
                    "step", help="The merge that created it (0: there from the start, a base or special token)",
                ),
                "count then": st.column_config.TextColumn("count", help="How often its pair occurred then (–: made by no pair)"),
                "length": st.column_config.NumberColumn("length", help="Bytes"),
            },
        )
        st.caption(f"{len(found):,} shown, learned tokens first. · is a space, ↵ a newline, ‹e2› a byte that is only part of a character.")
    with right:
        st.header("Merge tree")
        merged = [token_id for token_id in trace.vocab_ids(step) if trace.created_at(token_id)]
        if not merged:
            st.info("No merged token yet: move the step forward.")
        else:
            options = list(reversed(merged))
            state.seed_choice("w.tree_token", state.TREE_TOKEN, options)
            labels = dict(zip(everything["id"], everything["token"]))
            st.selectbox(
                "Token", options, key="w.tree_token",
                format_func=lambda token_id: f"{token_id} · {names.get(token_id, '') + ' = ' if token_id in names else ''}{labels[token_id]}",
                on_change=state.write_through("w.tree_token", state.TREE_TOKEN),
            )
            chosen = st.session_state["w.tree_token"]
            dot = merge_tree_dot(trace, chosen, names, font_size=tree_font_px(presenting=presenter()))
            st.graphviz_chart(dot, alt=merge_tree_text(trace, chosen))
            st.caption("Orange: merged tokens (with the step that made them); green: base bytes or characters.")
    st.header("Token lengths")
    counted = present[present["kind"] != "marker"]
    show_chart(length_histogram(counted["length"].tolist(), counted["kind"].tolist()).to_dict())
    per_length = counted["length"].value_counts().sort_index()
    st.caption(  # the chart's counts as text, for screen readers and for exact numbers
        "How many tokens of each length (in bytes) the vocabulary has at this step: "
        + "; ".join(f"{length} byte{'s' if length != 1 else ''}: {n:,}" for length, n in per_length.items()) + "."
    )
    url.write_url()


main()
