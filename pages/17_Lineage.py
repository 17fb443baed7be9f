"""Lineage: two tokenizers' merge lists aligned rank by rank, and the pretrained tokenizers' family tree.

The lesson walks six places (``view=`` in the link; PageDown / PageUp): the common prefix of ranks,
where the lists part, the tokens only the second has (by kind, each a chip with its merge tree), those
only the first has, the shared tokens in another order, and the family tree of the fourteen pretrained
tokenizers, computed from their files in a worker (``ui.analysis_jobs``). The facts are
:mod:`bpe.analysis.lineage`'s; the pictures :mod:`bpe.views.lineage`'s; the words :mod:`bpe.teaching.lineage`'s.
"""

import altair as alt
import pandas as pd
import streamlit as st

from bpe.analysis.token_kinds import kinds_of
from bpe.app import pages
from bpe.notation.markdown import escape_markdown
from bpe.notation.spelling import visible_text
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.lineage import LINEAGE_PLACES
from bpe.views.lineage import LINEAGE_CSS, family_tree_html, kind_chart, kind_chips_html, rank_bars_html
from bpe.views.merge_tree import tokenizer_merge_tree_dot, tree_font_pt
from ui import analysis_jobs, lineage, links, tokenizers, url
from ui.clicker import pills_walk
from ui.render import page_setup, page_title, presenter, show_chart, show_html
from ui.state import SessionValue

PLACES = {place.key: place for place in LINEAGE_PLACES}
VIEW = SessionValue("lineage_view", LINEAGE_PLACES[0].key)
KIND = SessionValue("lineage_kind", None)
TOKEN = SessionValue("lineage_token", None)
MAX_KINDS = 8
"""Kinds offered as pills; the rest are in the chart and the chips."""
MAX_TREE_CHOICES = 40


LINKED = {links.LINEAGE_A: lineage.A, links.LINEAGE_B: lineage.B, links.LINEAGE_VIEW: VIEW}
"""Each of the page's link parameters (declared in ``ui/links.py``) and the value it sets."""


def choose() -> None:
    left, right = st.columns(2)
    options = lineage.choices()
    left.selectbox("First tokenizer", options, format_func=lineage.label, **lineage.A.widget(options=options))
    right.selectbox("Second tokenizer", options, format_func=lineage.label, **lineage.B.widget(options=options))


def walk() -> str:
    return pills_walk("Part of the lesson", "part", tuple(PLACES), VIEW, lambda key: PLACES[key].title)


def tokens_of(pair: lineage.Pair, side: str, ranks: list[int], what: str) -> None:
    """The tokens at ``ranks`` of one side, by kind: a chart, the chips of a chosen kind, a chip's merge tree."""
    vocabulary = pair.a if side == "a" else pair.b
    title = pair.titles[0 if side == "a" else 1]
    if not ranks:
        st.success(f"None: every token of {escape_markdown(title)} is in the other.", icon="✅")
        return
    groups = kinds_of(vocabulary.tokens, ranks)
    kinds = [kind for kind, _ in groups]
    show_chart(kind_chart(groups[:16], title=f"{what} ({len(ranks):,})").to_dict())
    shown = st.pills("Kind", kinds[:MAX_KINDS], **KIND.widget(options=kinds[:MAX_KINDS], convert=lambda k: k or kinds[0])) or kinds[0]
    index = kinds.index(shown)
    chosen = dict(groups)[shown]
    show_html(kind_chips_html(vocabulary, shown, chosen, color=index if index < 6 else None))
    tokenizer = pair.tokenizers[0 if side == "a" else 1]
    if tokenizer is None or not vocabulary.ids:
        return
    offered = chosen[:MAX_TREE_CHOICES]
    pick = st.selectbox("Merge tree of", offered, format_func=lambda rank: f"{visible_text(vocabulary.tokens[rank])}  (rank {rank:,})",
                        **TOKEN.widget(options=offered))
    token_id = vocabulary.ids[pick]
    st.graphviz_chart(tokenizer_merge_tree_dot(tokenizer, token_id, lineage.made(pair, side), font_size=tree_font_pt(presenting=presenter())))


def order_chart(pair: lineage.Pair) -> None:
    facts = pair.facts
    st.markdown(f"**{facts.shared:,} shared tokens; {facts.reordered:,} would have to move** for both to rank them alike "
                f"({facts.same_rank:,} sit at the very same rank).")
    ranks_b = {token: rank for rank, token in enumerate(pair.b.tokens)}
    points = [(rank, ranks_b[token]) for rank, token in enumerate(pair.a.tokens) if token in ranks_b]
    step = max(1, len(points) // 1500)
    data = pd.DataFrame(points[::step], columns=[f"rank in {pair.titles[0]}", f"rank in {pair.titles[1]}"])
    chart = alt.Chart(data).mark_circle(size=14, opacity=0.6).encode(
        x=alt.X(f"{data.columns[0]}:Q"), y=alt.Y(f"{data.columns[1]}:Q"),
    ).properties(height=320, description="Each shared token's rank in both: a rising line means the same order")
    show_chart(chart.to_dict())


def family() -> None:
    view = analysis_jobs.job("family", {})
    result = analysis_jobs.result(view)
    if view.error:
        st.error(escape_markdown(view.error), icon="🛑")
    elif result is None:
        analysis_jobs.progress("family", {}, what="Reading the fourteen tokenizers' files (once per server, for everyone)")
    else:
        show_html(family_tree_html(result["members"], {name: entry.title for name, entry in PRETRAINED.items()}))


def main() -> None:
    page_setup(pages.LINEAGE)
    show_html(LINEAGE_CSS)
    page_title(pages.LINEAGE)
    url.read_links(LINKED)
    url.show_url_warnings()
    if not presenter():
        choose()
    view = walk()
    st.markdown(PLACES[view].explanation)
    pair = lineage.chosen_pair() if view != "family" else None
    if view == "family":
        family()
    elif pair is not None:
        facts = pair.facts
        if view == "ranks":
            st.markdown(f"**{escape_markdown(facts.sentence(*pair.titles))}**")
            show_html(rank_bars_html(facts, *pair.titles))
        elif view == "parting":
            lineage.parting(pair)
        elif view == "new":
            tokens_of(pair, "b", list(facts.only_b), f"tokens of {pair.titles[1]} that {pair.titles[0]} lacks")
        elif view == "gone":
            tokens_of(pair, "a", list(facts.only_a), f"tokens of {pair.titles[0]} that {pair.titles[1]} lacks")
        else:
            order_chart(pair)
    if presenter():
        with st.container(key="bpe-below"):
            choose()
    linkable = (*PRETRAINED, tokenizers.OURS)  # an import is the session's own: the link keeps the default
    url.write_url({param: value.get() for param, value in LINKED.items() if param is links.LINEAGE_VIEW or value.get() in linkable},
                  lab=lineage.uses_ours())


main()
