"""Vocabulary health: the tokens a vocabulary never uses on a text, those no text can reach, those
holding part of a character, and the special ones, for ours at any step, a pretrained or an
imported tokenizer.

The lesson walks the four groups (``part`` in the link; PageDown / PageUp): each explained, its
tokens listed with what explains each (the merges that used it up, what its own text encodes to, a
text that reaches it anyway) and any one's merge tree. A card ties it to glitch tokens.
"""

import streamlit as st

from bpe.app import pages
from bpe.notation.markdown import escape_markdown
from bpe.teaching.health import GLITCH_LESSON, GROUPS
from bpe.views.merge_tree import tokenizer_merge_tree_dot, tree_font_pt
from bpe.views.pretrained_vocab import made_by
from bpe.views.vocab_health import group_frame, groups
from ui import health, tokenizers, url
from ui.lesson import lesson_stepper
from ui.preamble import open_trained
from ui.render import page_setup, page_title, presenter
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view
from ui.state import SessionValue

GROUP_NAMES = list(GROUPS)
TREE = SessionValue("health_tree", None)
"""The token whose merge tree is drawn."""


def choices() -> None:
    options = [choice for choice in tokenizers.choices() if choice != tokenizers.OURS]
    options = [tokenizers.OURS, *options]
    left, right = st.columns(2)
    left.selectbox(
        "Vocabulary of", options, **health.OF.widget(options=options),
        format_func=lambda choice: "Ours (the sidebar's run, at its step)" if choice == tokenizers.OURS else tokenizers.label(choice, 0),
    )
    if health.OF.get() != tokenizers.OURS:
        right.selectbox("encoding", list(health.SAMPLES), format_func=health.SAMPLES.get, **health.SAMPLE.widget(options=list(health.SAMPLES)))
        if health.SAMPLE.get() == "own":
            st.text_area("Your text (Ctrl+Enter to apply)", height=100, **health.OWN_SAMPLE.widget())


def summary(checked) -> None:
    sizes = groups(checked.health)
    columns = st.columns(len(sizes))
    for column, (group, size) in zip(columns, sizes.items()):
        column.metric(group, f"{size:,}", help=GROUPS[group])
    witnessless = len(checked.health.no_witness)
    st.caption(
        f"{checked.health.ordinary:,} tokens besides the special ones, measured against {escape_markdown(checked.against)}. "
        f"{witnessless:,} unreachable or part-of-a-character tokens have no text found that reaches them."
    )


def group_view(checked) -> None:
    part = lesson_stepper(
        health.PART, len(GROUP_NAMES) - 1, key="health", name="Group shown",
        label=lambda index: f"{index + 1} of {len(GROUP_NAMES)}: {GROUP_NAMES[index]}",
    )
    group = GROUP_NAMES[part]
    st.header(f"{group.capitalize()}: {groups(checked.health)[group]:,} tokens")
    st.caption(GROUPS[group][:1].upper() + GROUPS[group][1:] + ".")
    frame = shared_view(checked.anchor, "health group", *checked.key, group, build=lambda: group_frame(checked.tokenizer, checked.health, group))
    left, right = st.columns([1.3, 1], gap="medium")
    with left:
        st.dataframe(frame, hide_index=True, width="stretch", height=360)
        if len(frame) < groups(checked.health)[group]:
            st.caption(f"The first {len(frame):,} shown.")
    made = shared_view(checked.anchor, "made by", *checked.key, build=lambda: made_by(checked.tokenizer))
    trees = [int(token_id) for token_id in frame["id"][:300] if int(token_id) in made] if len(frame) else []
    with right:
        if not trees:
            st.caption("No token of this group is made by a merge, so there is no merge tree to draw.")
            return
        labels = dict(zip(frame["id"], frame["token"]))
        chosen = st.selectbox("Merge tree of", trees, **TREE.widget(options=trees), format_func=lambda i: f"{i} · {labels[i]}")
        st.graphviz_chart(tokenizer_merge_tree_dot(checked.tokenizer, chosen, made, font_size=tree_font_pt(presenting=presenter())))


def main() -> None:
    page_setup(pages.HEALTH)
    open_trained()  # opened bare: the example trained, not its step 0
    settings_sidebar()
    page_title(pages.HEALTH)
    st.caption(
        "What a vocabulary holds that its encoder never uses: tokens later merges used up, tokens no text "
        "can produce, tokens of part of a character, and special tokens."
    )
    url.read_links(health.LINKED)
    if health.OF.get() != tokenizers.OURS:  # ours: the run's own top says them (ui.preamble.current_run)
        url.show_url_warnings()
    presenting = presenter()
    if not presenting:
        choices()
    checked = health.checked()
    if checked is not None:
        summary(checked)
        group_view(checked)
    if presenting:
        with st.container(key="bpe-below"):
            choices()
    st.info(GLITCH_LESSON, icon=":material/psychology_alt:")
    st.page_link(pages.WHY.file, label="The glitch-token card on Why tokenization matters", icon=pages.WHY.icon)
    url.write_url(health.link_params(), lab=health.OF.get() == tokenizers.OURS)


main()
