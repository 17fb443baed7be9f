"""Compare's lessons under the chips, drawn: the counts side by side, where the chosen tokenizers cut the text differently,
and what a number costs each of them (with digit grouping from the left and from the right).

The work is :mod:`bpe.teaching.cuts` and the pictures :mod:`bpe.views.compare_lessons`; the number
costs are a function of the tokenizer alone, so each is built once for the server
(``ui.shared_views``) and shared by every session that compares with it.
"""

from __future__ import annotations

import streamlit as st

from bpe.errors import BpeError
from bpe.notation.markdown import escape_markdown
from bpe.teaching.cuts import digit_groups, disagreements, number_costs, right_to_left_groups, text_pieces, token_ends
from bpe.teaching.operations import NORMALIZED
from bpe.views.compare import compare_frame
from bpe.views.compare_lessons import (
    CUTS_CSS, disagreement_frame, disagreement_html, number_cost_frame, number_heatmap,
)
from bpe.views.plain_tables import table_html

from .render import show_chart, show_html
from .shared_views import shared_view
from .state import SessionValue

MAX_MARKED_CHARS = 3_000
"""The marked text shows this many characters (the table lists disagreements from the whole text)."""
MAX_LISTED = 30
DIGITS = SessionValue("compare_digits", "1234567")


def counts_table(text: str, results: list[tuple], *, projected: bool) -> None:
    """Tokens, vocabulary and characters and bytes per token of each ``(name, tokenizer, ids)``."""
    frame = compare_frame(text, [(name, ids, tokenizer.n_vocab) for name, tokenizer, ids in results])
    if projected:  # Streamlit's grid keeps its own 14 px type on a projector; a table grows with the page's
        show_html(table_html(list(frame.columns), frame.itertuples(index=False), numeric=[False, True, True, True, True]))
        return
    st.dataframe(
        frame, hide_index=True, width="stretch",
        column_config={
            "vocabulary": st.column_config.NumberColumn(format="localized", help="Tokens in the vocabulary"),
            "characters per token": st.column_config.NumberColumn(format="%.2f", help="Higher: each token carries more text"),
            "bytes per token": st.column_config.NumberColumn(format="%.2f", help="UTF-8 bytes of the text / tokens"),
        },
    )


def disagreement_section(text: str, results: list[tuple]) -> None:
    """``results``: ``(name, tokenizer, ids)`` of the same ``text``."""
    st.header("Where they cut differently")
    cuts, left_out = {}, []
    for name, tokenizer, ids in results:
        pieces = text_pieces(tokenizer, text, ids)
        if pieces is None:
            left_out.append(name)
        else:
            cuts[name] = token_ends(pieces)
    note = f" Left out: {', '.join(left_out)}: {NORMALIZED}." if left_out else ""
    if len(cuts) < 2:
        st.caption(f"Two tokenizers that spell this text as written are needed.{escape_markdown(note)}")
        return
    found = disagreements(text, cuts)
    st.caption(escape_markdown(
        f"Marked: the {len(found):,} stretches that the tokenizers cut differently (a token boundary one has and "
        "another lacks); between them every tokenizer has the very same tokens. Point at a mark, or read the table: "
        f"each tokenizer's tokens there, and the spread (most tokens minus fewest).{note}"
    ))
    show_html(CUTS_CSS + disagreement_html(text, found, limit=MAX_MARKED_CHARS))
    if len(text) > MAX_MARKED_CHARS:
        st.caption(f"The first {MAX_MARKED_CHARS:,} of {len(text):,} characters are shown; the table covers them all.")
    if found:
        st.dataframe(disagreement_frame(found, top=MAX_LISTED), hide_index=True, width="stretch")


def _costs(results: list[tuple]) -> tuple[dict[str, list[int]], list[str]]:
    costs, left_out = {}, []
    for name, tokenizer, _ in results:
        try:
            costs[name] = shared_view(tokenizer, "number costs", build=lambda tokenizer=tokenizer: number_costs(tokenizer))
        except BpeError:  # a char-level run that never saw a digit
            left_out.append(name)
    return costs, left_out


def numbers_section(results: list[tuple]) -> None:
    st.header("What a number costs")
    costs, left_out = _costs(results)
    if not costs:
        st.caption("None of these tokenizers can write every digit.")
        return
    st.caption(escape_markdown(
        "Each number from 0 to 999, written alone: one cell per number (its tens down, its last digit "
        "across), coloured by the tokens it costs. A vocabulary that learned common numbers whole (GPT-2) has "
        "a patchwork; one that splits digits by rule has bands: groups of up to three (GPT-4, Llama 3) or every "
        "digit alone (Qwen, Mistral, Tekken; SentencePiece's ▁ in front is not counted)."
        + (f" Left out: {', '.join(left_out)}, which cannot write every digit." if left_out else "")
    ))
    show_chart(number_heatmap(costs).to_dict())
    st.dataframe(number_cost_frame(costs), hide_index=True, width="stretch")
    digit_grouping(results)


def digit_grouping(results: list[tuple]) -> None:
    st.text_input("A long number", max_chars=40, **DIGITS.widget())
    digits = "".join(char for char in DIGITS.get() if char.isdigit()) or "1234567"
    rows = [{"tokenizer": "by place value (right to left)", "tokens": " | ".join(right_to_left_groups(digits))}]
    for name, tokenizer, _ in results:
        try:
            rows.append({"tokenizer": name, "tokens": " | ".join(digit_groups(tokenizer, digits))})
        except BpeError:
            continue
    st.dataframe(rows, hide_index=True, width="stretch")
    st.caption(escape_markdown(
        f"GPT-4's and Llama 3's split cuts a run of digits into threes from the left: {'|'.join(_left_groups(digits))}. "
        f"Place value groups them from the right, as commas do: {'|'.join(right_to_left_groups(digits))}. Counted from "
        "the left, the same digit lands in a different token as the number grows, so a model must learn each length "
        "apart; writing numbers with commas forces right-to-left groups, which Singh & Strouse (2024) found made "
        "GPT-4's arithmetic more accurate."
    ))


def _left_groups(digits: str) -> list[str]:
    return [digits[i:i + 3] for i in range(0, len(digits), 3)]
