"""What tokens cost on the Why page's card and in Compare's section (AppTest): one table builder, the
learner's window, chunk and price, the learner's own text, and the counts tiktoken gives."""

from __future__ import annotations

import re

from bpe.app import pages
from bpe.teaching.token_cost import ENGLISH, Rates
from bpe.views.token_cost import cost_table_html

from .apptest_support import open_page, plain
from .peers import tiktoken_by_title


def cost_tables(at) -> list[str]:
    return [element.value for element in at.html if "bpe-token-costs" in element.value]


def row_of(table: str, name: str) -> list[str]:
    found = re.search(rf'<th scope="row">{re.escape(name)}</th>(.*?)</tr>', table)
    assert found, f"no row for {name!r}"
    return [plain(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", found.group(1))]


def test_the_cost_card_prices_the_english_sentence_as_tiktoken_counts_it_and_follows_the_learners_window():
    at = open_page(pages.WHY.file, card="cost")
    assert not at.exception
    tokens = len(tiktoken_by_title()["GPT-2"].encode(ENGLISH.text))
    (table, *_) = cost_tables(at)
    assert row_of(table, "GPT-2")[:3] == [f"{tokens:,}", "1.00×", f"{100 * tokens / Rates().window:.1f} %"]
    at.number_input(key="w.cost_window.why").set_value(16).run()
    (table, *_) = cost_tables(at)
    assert "share of the 16-token window" in table and row_of(table, "GPT-2")[2].endswith("(does not fit)")


def test_the_learners_own_text_is_priced_too_with_no_ratio_to_english():
    at = open_page(pages.WHY.file, card="cost")
    at.text_input(key="w.why_try.cost").set_value("Mon texte à moi, pour voir.").run()
    own = cost_tables(at)[-1]
    assert row_of(own, "GPT-2")[1] == "–" and len(cost_tables(at)) == 2


def test_compare_prices_its_text_with_the_same_builder_and_the_rates_carry_over_from_the_why_page():
    at = open_page(pages.WHY.file, card="cost")
    at.number_input(key="w.cost_chunk.why").set_value(7).run()
    at.switch_page(pages.COMPARE.file).run()
    assert not at.exception
    (table,) = cost_tables(at)
    header = re.search(r"<thead>.*?</thead>", cost_table_html([], Rates(chunk=7))).group(0)
    assert header in table and "chunks of 7" in table
