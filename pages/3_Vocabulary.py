"""Vocabulary: every token with its id, bytes, length, the step that made it, and its merge tree.

Ours at step k, or a pretrained tokenizer's (GPT-2, GPT-4, GPT-4o): how it began, in ``ui.pretrained_vocab``.
In presenter mode the merge tree comes first, across the whole width (its labels at least 24 px
on a 1280-pixel projector), and the inputs and the table follow it.
"""

import pandas as pd
import streamlit as st

from bpe.app import pages
from bpe.pretrained.registry import PRETRAINED
from bpe.views.charts import length_histogram
from bpe.views.merge_tree import biggest_tree, merge_tree_dot, merge_tree_text, tree_font_pt
from bpe.views.tables import search_vocab, shown_counts, vocab_at, vocab_frame
from ui import links, pretrained_vocab, state, tokenizers, url
from ui.render import names_for, page_setup, page_title, presenter, show_chart
from ui.clicker import Walk, walk_buttons
from ui.preamble import current_run, run_summary
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view
from ui.state import SessionValue
from ui.stepper import step_slider
from ui.widgets import VOCAB_QUERY, vocab_search

VOCAB_OF = SessionValue("vocab_of", tokenizers.OURS)
"""Whose vocabulary the page shows: ``ours`` or a pretrained name such as ``o200k_base``."""
TREE_TOKEN = SessionValue("tree_token", None)
"""The token whose merge tree is drawn."""


def open_linked_tree() -> None:
    """A link may open a pretrained vocabulary on one token: ``?vocab=gpt2&token=43453`` searches for
    the token's id and draws its merge tree (the "Why tokenization matters" cards link here)."""
    name = url.read(links.VOCAB, VOCAB_OF)
    token = url.read(links.TOKEN)
    if token is None:
        return
    if name is not None:
        VOCAB_QUERY.set(str(token))
        pretrained_vocab.TREE_TOKEN.set(token)
        pretrained_vocab.TREE_FIRST.set(True)
    else:  # ours: the page shows the token if the run has learned it by then (tree_token)
        VOCAB_OF.set(tokenizers.OURS)
        TREE_TOKEN.set(token)


def tree_token(trace, step: int) -> int | None:
    """The token whose tree is drawn: the one chosen, if learned by ``step``; else the biggest tree."""
    chosen = TREE_TOKEN.get()
    created = trace.created_at(chosen) if chosen is not None else None
    return chosen if created is not None and created.step <= step else biggest_tree(trace, step)


def _show_token(trace, token_id: int) -> None:
    """The clicker's next token: a token not learned yet moves the step to the merge that made it."""
    TREE_TOKEN.set(token_id)
    if (made := trace.created_at(token_id).step) > state.lab().step:
        state.update_lab(step=made)


def choose_vocabulary() -> None:
    """``ours`` or a pretrained name; the pretrained ones need no run."""
    options = [tokenizers.OURS, *PRETRAINED]
    st.selectbox(
        "Vocabulary of", options, **VOCAB_OF.widget(then=lambda: pretrained_vocab.TREE_FIRST.set(False)),
        format_func=lambda choice: "Ours (the run in the sidebar)" if choice == tokenizers.OURS else tokenizers.label(choice, 0),
    )


def tree(trace, token_id: int, names) -> None:
    dot = merge_tree_dot(trace, token_id, names, font_size=tree_font_pt(presenting=presenter()))
    st.graphviz_chart(dot, alt=merge_tree_text(trace, token_id))
    st.caption("Orange: merged tokens (with the step that made them); green: base bytes or characters.")


def token_select(options: list[int], shown: int, labels, names) -> int:
    return st.selectbox(
        "Token", options, **TREE_TOKEN.widget(options=options, show=lambda _: shown),
        format_func=lambda token_id: token_label(token_id, labels, names),
    )


def token_label(token_id: int, labels, names) -> str:
    return f"{token_id} · {names.get(token_id, '') + ' = ' if token_id in names else ''}{labels[token_id]}"


def token_walk(trace, shown: int, labels, names) -> None:
    """The clicker's lesson: every token the run learns, in the order it learned them, with its tree."""
    made = tuple(merge.new_id for merge in trace.steps)
    walk_buttons(Walk("token", made, lambda: tree_token(trace, state.lab().step), lambda token_id: _show_token(trace, token_id),
                      title=lambda token_id: f"{names.get(token_id, labels[token_id])} (id {token_id})"))


def table(trace, present: pd.DataFrame, step: int) -> None:
    st.header(f"{len(present):,} tokens after {step:,} merges")
    query = vocab_search(example="est, 65 73, 258")
    # Learned and special tokens first (newest first): they are what the run taught.
    learned = present["kind"].isin(["merge", "special"])
    found = search_vocab(pd.concat([present[learned].iloc[::-1], present[~learned]]), query)
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


def lengths(present: pd.DataFrame) -> None:
    st.header("Token lengths")
    counted = present[present["kind"] != "marker"]
    show_chart(length_histogram(counted["length"].tolist(), counted["kind"].tolist()).to_dict())
    per_length = counted["length"].value_counts().sort_index()
    st.caption(  # the chart's counts as text, for screen readers and for exact numbers
        "How many tokens of each length (in bytes) the vocabulary has at this step: "
        + "; ".join(f"{length} byte{'s' if length != 1 else ''}: {n:,}" for length, n in per_length.items()) + "."
    )


def main() -> None:
    page_setup(pages.VOCABULARY)
    settings_sidebar()
    page_title(pages.VOCABULARY)
    open_linked_tree()
    presenting = presenter()
    if not presenting:
        choose_vocabulary()
    if (chosen := VOCAB_OF.get()) != tokenizers.OURS:
        pretrained_vocab.show(chosen, tree_first=presenting or pretrained_vocab.TREE_FIRST.get())
        if presenting:
            with st.container(key="bpe-below-choice"):
                choose_vocabulary()
        token = pretrained_vocab.TREE_TOKEN.get()
        url.write_url({links.VOCAB: chosen, links.TOKEN: token})
        return
    trained = current_run()
    if trained is None:
        return
    trace, step, names = trained.trace, state.lab().step, names_for(trained)
    everything = shared_view(trained, "vocab", build=lambda: vocab_frame(trace))
    present = vocab_at(trace, everything, step)
    merged = [token_id for token_id in trace.vocab_ids(step) if trace.created_at(token_id)][::-1]
    labels = dict(zip(everything["id"], everything["token"]))
    shown = tree_token(trace, step)
    if presenting:  # the tree first, across the screen (its walk names it: no heading); what chooses it after
        if trace.steps:
            token_walk(trace, shown, labels, names)
        if merged:
            tree(trace, shown, names)
        else:
            st.info("No merged token yet: move the step forward.")
        with st.container(key="bpe-below"):
            if merged:
                token_select(merged, shown, labels, names)
            step_slider(len(trace.steps), key="vocab")
            choose_vocabulary()
            table(trace, present, step)
            lengths(present)
    else:
        run_summary(trace)
        step_slider(len(trace.steps), key="vocab")
        left, right = st.columns([1, 1.2], gap="medium")  # the tree the wider: a scaled-down tree is unreadable
        with left:
            table(trace, present, step)
        with right:
            st.header("Merge tree")
            if trace.steps:
                token_walk(trace, shown, labels, names)
            if not merged:
                st.info("No merged token yet: move the step forward.")
            else:
                tree(trace, token_select(merged, shown, labels, names), names)
        lengths(present)
    url.write_url({links.TOKEN: TREE_TOKEN.get()} if TREE_TOKEN.get() in merged else {})


main()
