"""What tokens cost, as one table: the Why page's card and Compare's section both draw it with this builder.

Pure HTML over :func:`bpe.teaching.token_cost.token_costs`' rows, tested without Streamlit; every
name and message is escaped here. A text that overflows the window says so in words, not only in
a number, and the costliest tokenizer's row is marked the same way.

    >>> from bpe.teaching.token_cost import TokenCostRow, Rates
    >>> out = cost_table_html([TokenCostRow("<ours>", 9000, 1.1, 18, 0.0225, 2.0)], Rates())
    >>> "&lt;ours&gt;" in out, "does not fit" in out, "$0.0225" in out, "2.00×" in out
    (True, True, True, True)
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from ..teaching.token_cost import TokenCostRow, Rates
from .plain_tables import scroll_box


def dollars(amount: float) -> str:
    """A price with the digits that matter: cents from a dollar up, three significant digits below.

    >>> dollars(12.345), dollars(0.0225), dollars(0.000475), dollars(0), dollars(3e-8)
    ('$12.35', '$0.0225', '$0.000475', '$0', '$0.0000000300')
    """
    if amount == 0:
        return "$0"
    if amount >= 1:
        return f"${amount:,.2f}"
    decimals = 2 - math.floor(math.log10(amount))
    return f"${amount:.{decimals}f}"


def cost_table_html(rows: Sequence[TokenCostRow], rates: Rates) -> str:
    """Per tokenizer: tokens, the ratio to English, the share of the window, chunks and the price (the
    ratio beside the tokens: on a phone the columns past the screen's edge scroll, and the ratio is the lesson)."""
    head = (
        '<tr><th scope="col">tokenizer</th><th scope="col">tokens</th><th scope="col">× English</th>'
        f'<th scope="col">share of the {rates.window:,}-token window</th><th scope="col">chunks of {rates.chunk:,}</th>'
        f'<th scope="col">price at {html.escape(dollars(rates.price_per_million))} per million</th></tr>'
    )
    priced = [row for row in rows if row.error is None]
    costliest = max((row.tokens for row in priced), default=None)
    body = []
    for row in rows:
        name = html.escape(row.tokenizer)
        if row.error is not None:
            body.append(f'<tr><th scope="row">{name}</th><td colspan="5" class="bpe-cost-error">cannot encode this text: '
                        f"{html.escape(row.error)}</td></tr>")
            continue
        share = f"{100 * row.window_share:.1f} %" + (" <b>(does not fit)</b>" if row.window_share > 1 else "")
        ratio = "–" if row.ratio_to_english is None else f"{row.ratio_to_english:.2f}×"
        mark = " <b>(the most)</b>" if row.tokens == costliest and len(priced) > 1 else ""
        body.append(
            f'<tr><th scope="row">{name}</th><td>{row.tokens:,}{mark}</td><td>{ratio}</td><td>{share}</td>'
            f"<td>{row.chunks:,}</td><td>{html.escape(dollars(row.price))}</td></tr>"
        )
    table = f'<table class="bpe-costs bpe-token-costs"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'
    return scroll_box(table, "What the text costs under each tokenizer")


TOKEN_COST_CSS = """
<style>
.bpe-token-costs { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .95rem; }
.bpe-token-costs th, .bpe-token-costs td { padding: .15em .6em; border-bottom: 1px solid #ddd; text-align: right; }
.bpe-token-costs th[scope="row"], .bpe-token-costs th[scope="col"]:first-child, .bpe-token-costs .bpe-cost-error { text-align: left; }
.bpe-token-costs .bpe-cost-error { color: #333; font-size: .85rem; }
@media (max-width: 640px) {
  .bpe-token-costs { font-size: .8rem; }
  .bpe-token-costs th, .bpe-token-costs td { padding: .15em .3em; }
}
</style>
"""
