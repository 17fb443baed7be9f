"""Tie-break lab: one corpus trained under every tie-break rule, side by side.

When several pairs share the top count, each library picks its own way, so the same corpus can
teach different merges. On Wikipedia's "aaabdaaabac" minbpe (first-seen) learns aa, aaa, aaab
while Wikipedia's walk-through (lexicographic-min) learns aa, ab, aaab = aa + ab; yet both end
with the same segmentation. The page trains once per rule (cached per example) and shows where
the rules part ways and what difference it makes.
"""

from dataclasses import replace

import streamlit as st

from bpe.app import pages
from bpe.encoding.tokenizer import Tokenizer
from bpe.limits import MAX_TIE_LAB_MERGES, TIE_LAB_SEGMENTED_CHARS, TIE_LAB_TABLE_ROWS
from bpe.notation.markdown import escape_markdown, inline_code
from bpe.teaching.tie_lab import TieLab, run_rules
from bpe.training.presets import PRESETS
from bpe.training.tiebreak import TIE_BREAK_RULES
from bpe.views.labs import tie_table_html
from bpe.views.token_html import chips_html, pieces_for
from ui import links, url
from ui.clicker import Walk, walk_buttons
from ui.render import page_setup, page_title, show_html
from ui.state import SessionValue

EXAMPLE = SessionValue("tie_preset", "wikipedia")
"""The preset the lab trains under every rule (``preset=`` in its link)."""


@st.cache_resource(show_spinner="Training once under every tie-break rule…", max_entries=16)
def tie_lab(name: str) -> TieLab:
    """The lab for a preset (cached per preset: presets never change within a process)."""
    preset = PRESETS[name]
    settings = preset.settings
    if settings.merges is None or settings.merges > MAX_TIE_LAB_MERGES:
        settings = replace(settings, merges=MAX_TIE_LAB_MERGES, vocab_size=None)
    return run_rules(preset.corpus(), settings, text=preset.corpus_text[:TIE_LAB_SEGMENTED_CHARS])


def short_user(rule: str) -> str:
    """The first user of a rule: ``minbpe``, ``Wikipedia's walk-through``."""
    return TIE_BREAK_RULES[rule].used_by.split(",")[0].split(" (")[0]


def learned_lines(lab: TieLab) -> str:
    """One Markdown line per group of rules that learn the same merges: the tokens, in order."""
    lines = []
    for rules in lab.groups():
        run = lab.runs[rules[0]]
        shown = run.tokens[:8]
        tokens = ", ".join(
            f"{inline_code(token)} ({escape_markdown(merge)})" for token, merge in zip(shown, run.merges)
        ) + (", …" if len(run.tokens) > len(shown) else "")
        who = ", ".join(f"**{rule}** ({escape_markdown(short_user(rule))})" for rule in rules)
        lines.append(f"- {who} learn{'s' if len(rules) == 1 else ''}: {tokens}")
    return "\n".join(lines)


def segmentations(lab: TieLab) -> None:
    """The corpus encoded with each run's merges, one row per distinct segmentation."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for rule, run in lab.runs.items():
        groups.setdefault(run.segmentation, []).append(rule)
    for segmentation, rules in groups.items():
        tokenizer = Tokenizer.from_trace(lab.runs[rules[0]].trace)
        ids = tokenizer.encode(lab.text, allowed_special="all")
        st.markdown(f"**{', '.join(rules)}** · {len(segmentation):,} tokens")
        show_html(chips_html(pieces_for(ids, tokenizer.tokens), end_of_word=tokenizer.end_of_word))


def main() -> None:
    page_setup(pages.TIE_LAB)
    page_title(pages.TIE_LAB)
    st.caption(
        "When two pairs share the top count, the tie-break rule decides which one is merged; each library "
        "has its own. Here one corpus is trained under every rule, side by side."
    )
    url.read(links.TIE_EXAMPLE, EXAMPLE)
    names = [EXAMPLE.default, *(name for name in PRESETS if name != EXAMPLE.default)]  # the lab opens at its first place
    st.selectbox("Example", names, format_func=lambda name: PRESETS[name].title, **EXAMPLE.widget())
    walk_buttons(Walk("example", tuple(names), EXAMPLE.get, EXAMPLE.set, title=lambda name: PRESETS[name].title))
    name = EXAMPLE.get()
    preset = PRESETS[name]
    lab = tie_lab(name)
    some_run = next(iter(lab.runs.values()))
    cut = " (cut to the first {:,} merges)".format(MAX_TIE_LAB_MERGES) if len(some_run.trace.steps) >= MAX_TIE_LAB_MERGES else ""
    st.caption(
        f"{escape_markdown(preset.description)} Settings: {preset.settings.unit} · pre-tokenizer "
        f"{escape_markdown(preset.settings.pretokenizer)} · {len(some_run.trace.steps):,} merges{cut}."
    )

    first = lab.first_disagreement
    metrics = st.columns(3)
    metrics[0].metric("First disagreement", f"merge {first}" if first else "never")
    metrics[1].metric("Different merge lists", len(lab.groups()), help="Rules that learn exactly the same merges count once.")
    metrics[2].metric("Final segmentation", "the same" if lab.same_segmentation else "differs")
    st.info(escape_markdown(lab.explanation()), icon=":material/lightbulb:")
    st.markdown(learned_lines(lab))

    st.header("Merge by merge")
    show_html(tie_table_html(lab, limit=TIE_LAB_TABLE_ROWS, rules_used_by={rule: short_user(rule) for rule in lab.runs}))
    st.caption(
        "Each cell: the token the rule made, and the pair it merged. Highlighted rows: the rules disagree; "
        "the marked cells differ from the most common choice. Once two runs part ways they count different "
        "pairs, so later rows can differ even without a tie."
    )
    with st.expander("The rules, and who uses them"):
        for rule in TIE_BREAK_RULES.values():
            st.markdown(f"**{rule.name}**: prefers {rule.summary}. *Used by {escape_markdown(rule.used_by)}.*")

    st.header("The corpus at the end, under each rule")
    if len(preset.corpus_text) > len(lab.text):
        st.caption(f"The first {len(lab.text):,} characters of the corpus.")
    segmentations(lab)
    url.write_url({links.TIE_EXAMPLE: name}, lab=False)


main()
