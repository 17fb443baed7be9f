"""What tokens cost, on a page: the learner's window, chunk and price, and the table for a text.

Shared by the Why tokenization matters page's card and Compare's section: the three values live in
the session, so what the learner set on one page holds on the other. The rows are
:mod:`bpe.teaching.token_cost`'s, the table :mod:`bpe.views.token_cost`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.notation.markdown import escape_markdown
from bpe.teaching.token_cost import Rates, english_of, token_costs
from bpe.views.token_cost import TOKEN_COST_CSS, cost_table_html

from .render import show_html
from .state import SessionValue

DEFAULTS = Rates()
WINDOW = SessionValue("cost_window", DEFAULTS.window)
CHUNK = SessionValue("cost_chunk", DEFAULTS.chunk)
PRICE = SessionValue("cost_price", DEFAULTS.price_per_million)
MAX_WINDOW = 10_000_000
"""The largest window offered (the longest context windows today hold a few million tokens)."""


def rates_inputs(*, key: str) -> Rates:
    """The window, the chunk and the price, side by side; ``key`` tells two pages' widgets apart."""
    window, chunk, price = st.columns(3)
    window.number_input("Context window (tokens)", 1, MAX_WINDOW, step=1024, **WINDOW.widget(suffix=key))
    chunk.number_input("Chunk size (tokens)", 1, MAX_WINDOW, step=64, **CHUNK.widget(suffix=key))
    price.number_input("Price per million tokens ($)", 0.0, 1000.0, step=0.25, format="%.2f", **PRICE.widget(suffix=key))
    return current_rates()


def current_rates() -> Rates:
    """What the learner set last, on either page."""
    return Rates(WINDOW.get(), CHUNK.get(), float(PRICE.get()))


def cost_table(text: str, tokenizers: Mapping[str, Tokenizer], rates: Rates) -> None:
    """The table for ``text`` and a line on what its ratio to English means."""
    try:
        rows = token_costs(text, tokenizers, rates)
    except BpeError as error:
        st.error(f"**Cannot price this text:** {escape_markdown(error)}", icon="🛑")
        return
    show_html(TOKEN_COST_CSS + cost_table_html(rows, rates))
    ratio = (
        "× English: tokens over the same article's in English under the same tokenizer."
        if english_of(text) is not None else
        "× English needs the same meaning in English: it is given for the Declaration's sentences."
    )
    st.caption(ratio)


def cost_section(text: str, results: Sequence[tuple], *, key: str) -> None:
    """Compare's section: ``results`` (``(name, tokenizer, ids)`` of one text) priced at the learner's rates."""
    st.header("What these tokens cost")
    cost_table(text, {name: tokenizer for name, tokenizer, _ in results}, rates_inputs(key=key))
