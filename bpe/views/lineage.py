"""The Lineage page's pictures: two vocabularies' ranks side by side, their new tokens by kind, the family tree.

Pure HTML and Altair, escaped: a token, an imported tokenizer's name and a kind are all text from
outside. Colour is never the only cue: each chip of a kind also sits under the kind's name, and the
rank bars say in words what each stretch is.

    >>> from bpe.analysis.lineage import RankedVocabulary, lineage
    >>> a = RankedVocabulary("a", (b"a", b"b", b"ab"))
    >>> b = RankedVocabulary("b", (b"a", b"b", b"ab", b" \\xd8\\xa7"))
    >>> "ranks 0–2" in rank_bars_html(lineage(a, b), "GPT-4", "Llama 3")
    True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from ..analysis.lineage import Lineage, RankedVocabulary
from .palette import TINTS
from .token_html import Piece, chip_html

OTHER_TINT = "#E4E4E4"
"""Kinds past the palette's six share a grey (their name says which they are)."""
LINEAGE_CSS = """
<style>
.bpe-ranks { margin: .4em 0 1em; font-size: .95rem; }
.bpe-ranks .bpe-rank-row { display: flex; align-items: center; gap: .6em; margin: .3em 0; }
.bpe-ranks .bpe-rank-name { width: 8.5em; flex: none; font-weight: 600; overflow-wrap: anywhere; }
.bpe-ranks .bpe-rank-bar { display: flex; flex: 1; height: 1.4em; border: 1px solid #555; border-radius: 4px; overflow: hidden; }
.bpe-ranks .bpe-rank-bar > span { min-width: 0; }
/* The parts are named under the bar, not inside it: a part of a fifth of a phone's bar cut its label to "its o" */
.bpe-ranks .bpe-rank-parts { margin: .1em 0 .5em calc(9.1 * .95rem); font-size: .85rem; color: #222; }
.bpe-ranks .bpe-rank-parts > span { display: inline-block; margin-right: 1em; }
.bpe-ranks .bpe-rank-parts i { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -.1em;
  border: 1px solid #555; }
@media (max-width: 640px) { .bpe-ranks .bpe-rank-parts { margin-left: 0; } }
.bpe-shared { background: #ADE0D2; }
.bpe-own { background: #F7E0AD; background-image: repeating-linear-gradient(45deg, transparent 0 6px, rgba(0,0,0,.08) 6px 8px); }
.bpe-kind { margin: .2em 0 .8em; }
.bpe-kind h4 { margin: .2em 0; font-size: 1rem; }
.bpe-kind.bpe-grey .bpe-tok { background: {other}; }
.bpe-family ul { list-style: none; margin: 0; padding-left: 1.6em; border-left: 2px solid #888; }
.bpe-family > ul { border-left: none; padding-left: 0; }
.bpe-family li { margin: .45em 0; position: relative; }
.bpe-family ul ul > li::before { content: ""; position: absolute; left: -1.6em; top: 1.05em; width: 1.3em; border-top: 2px solid #888; }
.bpe-family .bpe-node { display: inline-block; border: 1px solid #555; border-radius: 6px; padding: .25em .6em; background: #C9E7F8; }
.bpe-family .bpe-node.bpe-root { background: #FAF6C3; }
.bpe-family .bpe-edge { color: #333; font-size: .9rem; margin-left: .5em; }
</style>
""".replace("{other}", OTHER_TINT)


def rank_bars_html(facts: Lineage, title_a: str, title_b: str) -> str:
    """Each vocabulary as a bar of its ranks: the common prefix, then the ranks past it (widths to scale)."""
    longest = max(facts.sizes) or 1
    rows = []
    for title, size in ((title_a, facts.sizes[0]), (title_b, facts.sizes[1])):
        prefix, rest = facts.common_prefix, size - facts.common_prefix
        parts = []
        if prefix:
            parts.append(("bpe-shared", prefix, f"ranks 0–{prefix - 1:,}: the same in both"))
        if rest:
            parts.append(("bpe-own", rest, f"ranks {prefix:,}–{size - 1:,}: its own order"))
        spans = "".join(f'<span class="{css}" style="width:{100 * count / longest:.2f}%" title="{html.escape(text)}"></span>'
                        for css, count, text in parts)
        named = "".join(f'<span><i class="{css}"></i>{html.escape(text)}</span>' for css, _, text in parts)
        rows.append(f'<div class="bpe-rank-row"><span class="bpe-rank-name">{html.escape(title)}</span>'
                    f'<div class="bpe-rank-bar" style="max-width:{100 * size / longest:.2f}%">{spans}</div></div>'
                    f'<div class="bpe-rank-parts">{named}</div>')
    return f'<div class="bpe-ranks" role="img" aria-label="{html.escape(facts.sentence(title_a, title_b))}">{"".join(rows)}</div>'


def kind_colors(kinds: Sequence[str]) -> dict[str, str]:
    """A tint per kind, in the order given (the biggest group first): the palette's six, then grey."""
    return {kind: TINTS[index] if index < len(TINTS) else OTHER_TINT for index, kind in enumerate(kinds)}


def kind_chart(groups: Sequence[tuple[str, Sequence[int]]], *, title: str) -> alt.Chart:
    """How many new tokens of each kind (a horizontal bar per kind, biggest first)."""
    kinds = [kind for kind, _ in groups]
    colors = kind_colors(kinds)
    data = pd.DataFrame({"kind": kinds, "tokens": [len(ranks) for _, ranks in groups]})
    return alt.Chart(data).mark_bar(stroke="#222", strokeWidth=0.5).encode(
        y=alt.Y("kind:N", sort=kinds, title=None, axis=alt.Axis(labelFontSize=13, labelLimit=180)),
        x=alt.X("tokens:Q", title=title),
        color=alt.Color("kind:N", scale=alt.Scale(domain=kinds, range=[colors[kind] for kind in kinds]), legend=None),
        tooltip=[alt.Tooltip("kind:N"), alt.Tooltip("tokens:Q", format=",")],
    ).properties(height=alt.Step(18), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
                 description=f"{title}, by kind")


def kind_chips_html(vocabulary: RankedVocabulary, kind: str, ranks: Sequence[int], *, color: int | None, limit: int = 60) -> str:
    """The first ``limit`` tokens of one kind as chips in the kind's tint (``color``: its palette index,
    ``None`` for grey), each titled with its rank."""
    shown = ranks[:limit]
    chips = "".join(
        chip_html(Piece(vocabulary.ids[rank] if vocabulary.ids else rank, vocabulary.tokens[rank]), color or 0,
                  title=f" · rank {rank:,}", data_id=False)
        for rank in shown
    )
    more = f", the first {len(shown):,} shown" if len(ranks) > len(shown) else ""
    grey = " bpe-grey" if color is None else ""
    return (f'<div class="bpe-kind{grey}"><h4>{html.escape(kind)}: {len(ranks):,} token{"s" * (len(ranks) != 1)}{more}</h4>'
            f'<div class="bpe-tokens">{chips}</div></div>')


def family_tree_html(members: Sequence[Mapping], titles: Mapping[str, str]) -> str:
    """The family (``bpe.analysis.tasks.family``'s members) as nested lists: roots, and under each node the
    ones made from it, with how (``titles``: registry name -> what a learner calls it)."""
    by_parent: dict[str | None, list[Mapping]] = {}
    for member in members:
        by_parent.setdefault(member["parent"], []).append(member)

    def node(member: Mapping) -> str:
        names = " = ".join(html.escape(titles.get(name, name)) for name in member["names"])
        same = " (the same ranks)" if len(member["names"]) > 1 else ""
        root = " bpe-root" if member["parent"] is None else ""
        edge = ""
        if member["parent"] is not None:
            parent = html.escape(titles.get(member["parent"], member["parent"]))
            how = (f"extends {parent}: +{member['added']:,} ranks" if member["relation"] == "extends" else
                   f"builds on {parent}: keeps {member['kept']:,} of its tokens in its order, adds {member['added']:,}")
            edge = f'<span class="bpe-edge">{how}</span>'
        children = by_parent.get(member["names"][0], [])
        below = f"<ul>{''.join(node(child) for child in children)}</ul>" if children else ""
        return f'<li><span class="bpe-node{root}"><b>{names}</b>{same} · {member["size"]:,} ranks</span>{edge}{below}</li>'

    return f'<div class="bpe-family"><ul>{"".join(node(member) for member in by_parent.get(None, []))}</ul></div>'
