"""The Vocabulary page for a pretrained tokenizer: how it began, every token searchable, merge trees.

Work per request stays bounded for 200,000 tokens: the token table and the ``id -> merge`` index
are built once per server process (``st.cache_resource``, shared read-only, like the tokenizers),
a search result is cached on its plain inputs (tokenizer name, query) and cut to
``SEARCH_ROWS`` rows, the merges are shown a page of ``MERGES_PAGE`` at a time, and a merge tree
is at most ``merge_tree.MAX_NODES`` nodes.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.views.charts import length_histogram
from bpe.views.merge_tree import tokenizer_merge_tree_dot, tree_font_pt
from bpe.views.pretrained_vocab import MERGES_PAGE, SEARCH_ROWS, first_merges, made_by, vocab_table
from bpe.views.tables import search_vocab

from . import tokenizers
from .clicker import Walk, walk_buttons
from .render import presenter, show_chart
from .state import SessionValue
from .widgets import VOCAB_QUERY, vocab_search

PAGE = SessionValue("merges_page", 1)
"""Which page of a pretrained tokenizer's merges is shown."""
TREE_TOKEN = SessionValue("pretrained_tree", None)
"""The token whose merge tree is drawn."""
TREE_FIRST = SessionValue("pretrained_tree_first", False)
"""A link opened the page on one token's tree (the Why page's " strawberry"): its tree comes first,
across the page, until the learner picks another vocabulary (beside the search, below how the
tokenizer began, it opened 990 px down, scaled to 8 px labels)."""


@st.cache_resource(show_spinner="Indexing the vocabulary (once per server)…")
def _tables(name: str) -> tuple[dict[int, tuple[int, int, int]], pd.DataFrame, dict]:
    tokenizer = tokenizers.pretrained(name)
    made = made_by(tokenizer)
    frame = vocab_table(tokenizer, made)
    counted = frame[frame["kind"] != "special"]
    return made, frame, length_histogram(counted["length"].tolist(), counted["kind"].tolist()).to_dict()


@st.cache_data(max_entries=64, show_spinner=False)
def _search(name: str, query: str) -> tuple[pd.DataFrame, int]:
    found = search_vocab(_tables(name)[1], query)
    return found.head(SEARCH_ROWS), len(found)


def show(name: str, *, tree_first: bool = False) -> None:
    """Everything the page shows for the pretrained tokenizer ``name``. ``tree_first`` (presenter
    mode): the merge tree of the chosen token across the screen first, then what chooses it."""
    tokenizer = tokenizers.pretrained(name)
    if tokenizer is None:
        return
    made, _, histogram = _tables(name)
    if tree_first:
        found, _ = _search(name, VOCAB_QUERY.get())
        if not presenter():  # on a projector the walk's label names the tree: its rows go to the tree
            st.header("Merge tree")
        options = tree_options(found, made)
        token_walk(tokenizer, options, dict(zip(found["id"], found["token"])))
        tree(tokenizer, made, TREE_TOKEN.among(options))
        with st.container(key="bpe-below"):
            how_it_began(name, tokenizer, made)
            search_and_tree(name, tokenizer, made, draw_tree=False)
    else:
        how_it_began(name, tokenizer, made)
        search_and_tree(name, tokenizer, made, draw_tree=True)
    st.header("Token lengths")
    show_chart(histogram)
    st.caption(f"How many of {escape_markdown(PRETRAINED[name].title)}'s tokens have each length in bytes.")


def how_it_began(name: str, tokenizer, made) -> None:
    title = escape_markdown(PRETRAINED[name].title)
    st.header(f"How {title} began")
    st.caption(
        f"{title} learned its {len(made):,} merges in this order: merge 1 joined the pair its training text "
        "repeated most, and every later token is built from two earlier ones. Its ids are its ranks."
    )
    pages = math.ceil(len(made) / MERGES_PAGE)
    page = st.number_input(
        f"Page (of {pages:,}; {MERGES_PAGE} merges each)", min_value=1, max_value=pages, step=1,
        **PAGE.widget(show=lambda page: min(page, pages)),
    )
    st.dataframe(first_merges(tokenizer, start=(int(page) - 1) * MERGES_PAGE), hide_index=True, width="stretch")


def tree_options(found: pd.DataFrame, made) -> list[int]:
    """The tokens a tree can be drawn for: the merged ones among the search results."""
    return [int(token_id) for token_id in found["id"] if int(token_id) in made] or sorted(made)[:SEARCH_ROWS]


def token_label(tokenizer, token_id: int, labels) -> str:
    return f"{token_id} · {labels.get(token_id, tokenizer.token_text(token_id))}"


def token_walk(tokenizer, options: list[int], labels) -> None:
    """The clicker's lesson: the merged tokens among the search results, each with its tree."""
    walk_buttons(Walk(
        "token", tuple(options), lambda: TREE_TOKEN.among(options), TREE_TOKEN.set,
        title=lambda token_id: f"{labels.get(token_id, tokenizer.token_text(token_id))} (id {token_id})",
    ))


def tree(tokenizer, made, token_id: int) -> None:
    st.graphviz_chart(tokenizer_merge_tree_dot(tokenizer, token_id, made, font_size=tree_font_pt(presenting=presenter())))
    st.caption("Orange: merged tokens, with the merge that made them; green: single bytes.")


def search_and_tree(name: str, tokenizer, made, *, draw_tree: bool) -> None:
    left, right = st.columns([1, 1.2], gap="medium")  # the tree the wider: a scaled-down tree is unreadable
    with left:
        st.header(f"{tokenizer.n_vocab:,} tokens")
        found, total = _search(name, vocab_search(example="token, 20 74 68, 9642"))
        st.dataframe(found, hide_index=True, width="stretch", height=420)
        shown = f"the first {len(found):,} shown" if total > len(found) else "all shown"
        st.caption(f"{total:,} found, {shown}. · is a space, ↵ a newline, ‹e2› a byte that is only part of a character.")
    with right:
        st.header("Merge tree")
        options = tree_options(found, made)
        labels = dict(zip(found["id"], found["token"]))
        if draw_tree:
            token_walk(tokenizer, options, labels)
        chosen = st.selectbox(
            "Token (from the search results)", options, **TREE_TOKEN.widget(options=options),
            format_func=lambda token_id: token_label(tokenizer, token_id, labels),
        )
        if draw_tree:
            tree(tokenizer, made, chosen)
