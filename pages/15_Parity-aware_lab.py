"""Parity-aware lab: one sentence in 16 languages, classic BPE beside parity-aware BPE, merge by merge.

The Universal Declaration's first article means the same in every language, so each language's
tokens are its cost. Classic BPE merges the most frequent pair of all sixteen texts, which helps
the languages with the most text in common scripts; parity-aware BPE (Foroutan et al., 2025) lets
the language that is the most tokens now choose each merge. The bars are each language's cost
after the merge on screen (the one that chose it in vermilion), the curve the Gini coefficient of
the costs for both runs. PageDown / PageUp step, as a clicker sends; the step and the unit are in
the link (``merge``, ``unit``).
"""

import streamlit as st

from bpe.app import pages
from bpe.notation.markdown import escape_markdown
from bpe.teaching.parity_lab import parity_lab
from bpe.teaching.reference_code import parity_lines
from bpe.views.code_panel import CODE_PANEL_CSS, code_panel_html
from bpe.views.parity import cost_chart, gini_chart
from ui import clicker, links, url
from ui.render import page_setup, page_title, show_chart, show_html
from ui.state import SessionValue, widget_key

STEP = SessionValue("parity_step", 0)
UNIT = SessionValue("parity_unit", "byte")
UNIT_LABELS = {"byte": "bytes (as GPT-2 and GPT-4o start)", "char": "characters"}


def stepper(steps: int) -> None:
    """Previous / Next (PageUp / PageDown) and the slider; each writes :data:`STEP`."""
    at = STEP.get()
    row = st.container(horizontal=True, vertical_alignment="bottom", key="bpe-parity-steps")
    row.button("Previous merge", icon=":material/chevron_left:", shortcut="PageUp", key=widget_key("parity", "prev"),
               on_click=STEP.set, args=(max(at - 1, 0),), disabled=at == 0)
    row.button("Next merge", icon=":material/chevron_right:", shortcut="PageDown", type="primary", key=widget_key("parity", "next"),
               on_click=STEP.set, args=(min(at + 1, steps),), disabled=at >= steps)
    with row:
        st.slider("Merges learned", 0, steps, **STEP.widget())
        # PageDown / PageUp reach the buttons whatever was clicked last (the slider takes the keys)
        clicker.keys(
            next_key=widget_key("parity", "next"), previous_key=widget_key("parity", "prev"), at=at, count=steps + 1,
            at_end=f"That was merge {steps}, the last: PageUp goes back.", at_start="No merge yet: PageDown learns the first.",
            seek=STEP.set,
        )


def main() -> None:
    page_setup(pages.PARITY_LAB)
    page_title(pages.PARITY_LAB)
    st.caption(
        "The Universal Declaration's first article in 16 languages: the same meaning, so each language's tokens are "
        "its cost. Classic BPE merges the most frequent pair of all the texts; parity-aware BPE (Foroutan et al., 2025) "
        "lets the language that is the most tokens now choose the next merge, from its own pairs."
    )
    url.show_url_warnings()
    url.read(links.PARITY_UNIT, UNIT)
    lab = parity_lab(unit=UNIT.get())
    url.read(links.PARITY_MERGE, STEP, high=lab.steps)
    STEP.set(min(STEP.get(), lab.steps))
    stepper(lab.steps)
    step = STEP.get()
    widest = max(max(lab.costs(objective, 0)) for objective in lab.runs)
    for column, objective in zip(st.columns(2, gap="medium"), lab.runs):
        with column:
            st.markdown(escape_markdown(lab.pick(objective, step)))
            # SVG: the bars are elements (the projector test finds each on the first screen)
            show_chart(cost_chart(lab, objective, step, widest=widest).to_dict(), renderer="svg")
    show_chart(gini_chart(lab, step).to_dict())
    st.radio("Count the costs in", list(UNIT_LABELS), format_func=UNIT_LABELS.get, horizontal=True, **UNIT.widget())
    trace = lab.runs["parity-aware"]
    with st.expander("The code: the lines of bpe/reference.py that choose a parity-aware merge"):
        if 0 < step <= len(trace.steps):
            show_html(CODE_PANEL_CSS + code_panel_html(parity_lines(trace, step)))
            st.caption(
                "`worst_language_stats` is the one step parity-aware BPE changes; the fast trainer makes the reference's "
                "merges, and those of Hugging Face's own ParityBpeTrainer (tests/test_variants.py)."
            )
        else:
            st.caption("No merge yet: press Next to see the lines that choose merge 1.")
    url.write_url({links.PARITY_MERGE: step, links.PARITY_UNIT: UNIT.get()}, lab=False)


main()
