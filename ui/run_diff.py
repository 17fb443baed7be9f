"""Compare's run diff: the same corpus trained under two tie-break rules, and the merge where their
merge lists first part ways, explained."""

from __future__ import annotations

import streamlit as st

from bpe.teaching.tie_lab import first_divergence
from bpe.training.tiebreak import TIE_BREAK_RULES, contrasting_rule
from bpe.views.compare import divergence_html, explain_divergence, highlight_merge, merges_side_by_side

from . import state
from .render import show_html
from .state import SessionValue
from .training import get_trained

DIFF_RULES = SessionValue("diff_rules", None)
"""The two tie-break rules of the run diff; ``None``: the run's rule and another."""


def _diff_rules() -> tuple[str, str]:
    rule = state.lab().tie_break
    return DIFF_RULES.get() or (rule, contrasting_rule(rule))


def run_diff_section() -> None:
    st.header("Run diff: the same corpus, two tie-break rules")
    st.caption("Both runs use this example's corpus and every other setting in the sidebar; only the tie-break rule differs.")
    rule_a, rule_b = _diff_rules()
    columns = st.columns(2)
    for index, (column, rule) in enumerate(zip(columns, (rule_a, rule_b))):
        column.selectbox(
            f"Run {'AB'[index]}: tie-break rule", list(TIE_BREAK_RULES),
            **DIFF_RULES.item_widget(index, f"diff_rule_{'ab'[index]}", shown=rule, current=_diff_rules),
        )
    lab = state.lab()
    run_a = get_trained(lab.replace(tie_break=rule_a))
    run_b = get_trained(lab.replace(tie_break=rule_b))
    if run_a is None or run_b is None:
        return
    a, b = run_a.trace, run_b.trace
    merge = first_divergence(a, b)
    names = (f"A · {rule_a}", f"B · {rule_b}")
    st.subheader(f"The merge lists first differ at merge {merge}" if merge else "The merge lists never differ")
    show_html(divergence_html(explain_divergence(a, b, names=(rule_a, rule_b))))
    longest = max(len(a.steps), len(b.steps))
    upto = min(longest, max(8, (merge or 0) + 3))
    first = max(1, upto - 8)  # the table opens on the merge that matters, with a few agreeing ones before it
    if upto:
        frame = merges_side_by_side(a, b, names=names, upto=upto)
        st.dataframe(highlight_merge(frame[frame["merge"] >= first], merge), hide_index=True, width="stretch")
        same = f"; merges 1 to {first - 1:,} are the same in both runs" if first > 1 else ""
        st.caption(
            f"Merges {first:,} to {upto:,} of {longest:,}{same}"
            + (f"; merge {merge:,} (tinted) is where they part ways." if merge else ".")
        )
