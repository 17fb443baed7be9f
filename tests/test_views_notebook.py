"""Notebook displays: a trace, a tokenizer and a text drawn by the app's builders, and registered
with IPython by ``import bpe.notebook``.

Expected merges and segmentations come from the sources the presets name (the Sennrich paper's
code, Wikipedia's walk-through), not from a run of this engine.
"""

from __future__ import annotations

import html
import re
import sys
from types import SimpleNamespace

import pytest
from IPython.core.formatters import HTMLFormatter

import bpe.notebook as bpe_notebook
from bpe import PRESETS, Corpus, SpecialTokenError, Tokenizer, Trace, TrainSettings, train
from bpe.views import notebook
from bpe.views.charts import pair_rows

from .shared_tokenizers import shared_pretrained

# Sennrich et al. (2016), the paper's code on {low: 5, lower: 2, newest: 6, widest: 3}, 10 merges.
SENNRICH_PAPER_MERGES = [
    ("e", "s", "es"), ("es", "t", "est"), ("est", "</w>", "est</w>"), ("l", "o", "lo"), ("lo", "w", "low"),
    ("n", "e", "ne"), ("ne", "w", "new"), ("new", "est</w>", "newest</w>"), ("low", "</w>", "low</w>"),
    ("w", "i", "wi"),
]
# Wikipedia's "aaabdaaabac": Z = aa, Y = ab, X = ZY, and the text reads X d X a c.
WIKIPEDIA_SEGMENTS = ["aaab", "d", "aaab", "a", "c"]


def train_preset(name: str) -> Trace:
    return train(PRESETS[name].corpus(), PRESETS[name].settings)


def cells(row: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row)


def table_rows(view: str, heading: str) -> list[str]:
    """The rows (``<tr>…</tr>`` strings) of the first table after ``<h4>heading</h4>``."""
    table = view.split(f"<h4>{heading}</h4>", 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr>(.*?)</tr>", table)[1:]  # [0] is the header


def chip_texts(fragment: str) -> list[str]:
    """Each chip's drawn text (glyph spans and the </w> marker included), in order."""
    chips = re.findall(r'<span class="bpe-tok[^"]*"[^>]*>(.*?)</span>(?=<span class="bpe-tok|</div>|</td>|<br>)', fragment)
    return [html.unescape(re.sub(r"<[^>]+>", "", chip)) for chip in chips]


def test_a_trace_lists_its_merges_in_order_as_the_paper_learned_them():
    view = notebook.trace_html(train_preset("sennrich-paper"))
    merges = [tuple(html.unescape(cell) for cell in cells(row)[1:4]) for row in table_rows(view, "Merges")]
    assert merges == SENNRICH_PAPER_MERGES


def test_a_trace_shows_its_corpus_segmented_by_all_its_merges():
    view = notebook.trace_html(train_preset("wikipedia"))
    corpus = view.split("<h4>The corpus after merge 3</h4>", 1)[1]
    assert chip_texts(corpus) == WIKIPEDIA_SEGMENTS
    # The last merge's token is marked as new, as on the Train page.
    assert corpus.count("bpe-new") == WIKIPEDIA_SEGMENTS.count("aaab")


def test_a_trace_shows_its_settings_stop_reason_and_headline_numbers():
    trace = train_preset("wikipedia")
    view = notebook.trace_html(trace)
    assert "byte · pre-tokenizer none · ties: lexicographic-min" in view
    assert f"stopped: {trace.stop_detail}" in view
    # Wikipedia: 11 characters end as 5 tokens, X d X a c.
    assert '<div class="bpe-stat-label">Tokens in corpus</div><div class="bpe-stat-value">5</div>' in view


def test_a_trace_read_from_json_says_its_corpus_is_not_stored():
    trace = Trace.from_json(train_preset("wikipedia").to_json())
    assert trace.corpus is None
    assert "keeps the merges, not the corpus" in notebook.trace_html(trace)


def test_a_long_trace_draws_only_the_first_merges_and_words_and_says_how_many_more():
    text = " ".join(f"w{n}x{n}" for n in range(300)) * 2
    trace = train(Corpus.from_text(text), TrainSettings(merges=60))
    view = notebook.trace_html(trace, merges=10, words=7)
    assert len(table_rows(view, "Merges")) == 10
    assert f"… and {len(trace.steps) - 10:,} more merges" in view
    assert f"… and {trace.word_count - 7:,} more words" in view
    assert view.count('<td class="bpe-count">') == 7


def test_a_tokenizer_shows_its_size_rules_and_first_merges():
    tokenizer = Tokenizer.from_trace(train_preset("sennrich-paper"), name="paper")
    view = notebook.tokenizer_html(tokenizer)
    assert "<h4>BPE tokenizer: paper</h4>" in view
    assert "char · pre-tokenizer whitespace · end of word &lt;/w&gt;" in view
    assert f'<div class="bpe-stat-value">{tokenizer.n_vocab}</div>' in view
    first = [cells(row) for row in table_rows(view, "First merges")]
    assert [row[1:4] for row in first[:2]] == [["e", "s", "es"], ["es", "t", "est"]]


def test_a_tokenizer_display_is_bounded_and_names_its_special_tokens():
    trace = train(Corpus.from_text("ab ab ab cd cd " * 20, special_tokens=("<|end|>",)),
                  TrainSettings(merges=40, special_tokens=("<|end|>",)))
    view = notebook.tokenizer_html(Tokenizer.from_trace(trace), merges=2)
    assert len(table_rows(view, "First merges")) == 2
    assert f"… and {len(trace.steps) - 2} more merges" in view
    assert "special: &lt;|end|&gt;" in view


def test_show_draws_one_chip_per_token_of_encode():
    tokenizer = Tokenizer.from_trace(train_preset("wikipedia"))
    view = notebook.tokens_html(tokenizer, "aaabdaaabac")
    assert chip_texts(view) == WIKIPEDIA_SEGMENTS
    assert [int(i) for i in re.findall(r'data-id="(\d+)"', view)] == tokenizer.encode("aaabdaaabac")
    assert "5 tokens for 11 characters." in view
    assert view._repr_html_() == str(view)


def test_show_draws_special_tokens_as_special_and_cuts_long_texts(monkeypatch):
    settings = TrainSettings(merges=2, special_tokens=("<|end|>",))
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text("ab ab", special_tokens=("<|end|>",)), settings))
    assert re.findall(r'class="bpe-tok bpe-special"[^>]*>([^<]*)<', notebook.tokens_html(tokenizer, "a<|end|>b")) == ["&lt;|end|&gt;"]
    with pytest.raises(SpecialTokenError):
        notebook.tokens_html(tokenizer, "a<|end|>b", allowed_special=set())
    monkeypatch.setattr(notebook, "TEXT_SHOWN", 4)
    assert "4 tokens for 4 characters (the first 4 of 11)." in notebook.tokens_html(tokenizer, "cdefghijklm")


def test_the_pair_chart_is_the_apps_chart_for_that_step():
    trace = train_preset("sennrich")
    chart = notebook.pair_chart(trace, 3).to_dict()
    (rows,) = chart["datasets"].values()
    assert rows == pair_rows(trace, 3).to_dict("records")
    with pytest.raises(ValueError, match="step must be a whole number from 0 to 10"):
        notebook.pair_chart(trace, 11)


def test_the_pair_chart_without_altair_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "altair", None)  # makes `import altair` fail
    monkeypatch.delitem(sys.modules, "bpe.views.charts")
    with pytest.raises(ImportError, match=r"altair is missing\): pip install 'bpe-lab\[app\]'"):
        notebook.pair_chart(train_preset("wikipedia"), 1)


# -- registration with IPython (import bpe.notebook) ------------------------------------------------
def ipython_with_html_formatter() -> tuple[SimpleNamespace, HTMLFormatter]:
    """What :func:`bpe.notebook.register` reads of a running IPython: its real HTML formatter."""
    html_formatter = HTMLFormatter()
    return SimpleNamespace(display_formatter=SimpleNamespace(formatters={"text/html": html_formatter})), html_formatter


def test_registering_makes_ipython_draw_traces_and_tokenizers_subclasses_included():
    shell, html_formatter = ipython_with_html_formatter()
    trace = train_preset("wikipedia")
    assert html_formatter(trace) is None  # the engine's classes do not draw themselves
    assert bpe_notebook.register(shell) is True
    assert html_formatter(trace) == notebook.trace_html(trace)
    tokenizer = shared_pretrained("gpt2")  # a PretrainedTokenizer, a subclass
    assert html_formatter(tokenizer) == notebook.tokenizer_html(tokenizer)
    assert bpe_notebook.load_ipython_extension is bpe_notebook.register  # %load_ext bpe.notebook


def test_outside_ipython_registering_does_nothing_and_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "IPython", None)  # no IPython has been imported: a plain script
    assert bpe_notebook.register() is False
    assert "5 tokens" in bpe_notebook.show(Tokenizer.from_trace(train_preset("wikipedia")), "aaabdaaabac")
