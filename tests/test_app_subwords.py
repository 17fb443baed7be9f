"""The Why subwords page (AppTest): opened bare it measures python-docs against its last tenth; its
numbers are the engine's; a link opens a place of its lesson; Next walks the four tokenizers; each
[UNK] is drawn; WordPiece's section works the course's merges and cuts, linking Train and Encode."""

from __future__ import annotations

import json
import re

from bpe import PRESETS, Corpus, train
from bpe.app import pages
from bpe.teaching.subwords import SubwordLab, split_off

from .apptest_support import chart_rows, html_with, open_page, plain

PAGE = pages.SUBWORDS.file
NEXT = "w.clicker.next"


def table_rows(at) -> dict[str, list[str]]:
    """The numbers table: first cell (the tokenizer) -> the other cells."""
    table = html_with(at, 'class="bpe-subwords"')
    rows = re.findall(r"<tr[^>]*><th scope=\"row\">(.*?)</th>(.*?)</tr>", table)
    return {plain(name): re.findall(r"<td>(.*?)</td>", cells) for name, cells in rows}


def test_opened_bare_it_measures_python_docs_against_its_last_tenth_with_the_engines_numbers():
    at = open_page(PAGE)
    assert not at.exception and not at.error
    preset = PRESETS["python-docs"]
    training, held_out = split_off(preset.corpus_text)
    lab = SubwordLab(train(Corpus.from_text(training, pretokenizer="gpt2"), preset.settings), training, held_out[:40_000])
    bpe = lab.bpe_at(len(lab.trace.steps))
    words = lab.words_at(bpe.vocabulary)  # N starts at BPE's vocabulary size: one size for both
    rows = table_rows(at)
    assert rows[f"words (top {words.size:,}) ◀ drawn below"] == [
        f"{words.vocabulary:,}", f"{words.tokens:,}", "1.00", f"{100 * words.unknown_rate:.1f} %",
    ]
    assert rows["BPE (2,000 merges)"] == [f"{bpe.vocabulary:,}", f"{bpe.tokens:,}", f"{bpe.tokens_per_word:.2f}", "0.0 %"]
    assert words.unknown > 0 and bpe.unknown == 0  # the lesson: words run out, bytes and merges never do
    assert dict(at.query_params) == {"corpus": "python-docs", "cut": "words", "heldout": "split"}


def test_a_link_opens_characters_on_french_held_out_from_the_course_words_and_draws_each_unknown():
    at = open_page(PAGE, corpus="hf-course", heldout="udhr:fra", cut="characters", k="2")
    assert not at.exception
    rows = table_rows(at)
    assert "characters ◀ drawn below" in rows and "BPE (2 merges)" in rows
    drawn = html_with(at, "bpe-held-out")
    unknown = re.findall(r'title="([^"]*)" data-unknown="1"', drawn)
    assert unknown and all(title.endswith("is not in the vocabulary: [UNK]") for title in unknown)
    assert drawn.count("[UNK]") == 2 * len(unknown)  # its text and its title: no tint alone
    assert "&#x27;T&#x27; is not in the vocabulary" in drawn


def test_next_walks_from_words_to_characters_and_the_link_keeps_the_place():
    at = open_page(PAGE, corpus="sennrich")
    at.button(key=NEXT).click().run()
    assert at.query_params["cut"] == "characters"
    assert "characters ◀ drawn below" in table_rows(at)
    again = open_page(PAGE, corpus="sennrich", cut="characters")
    assert "characters ◀ drawn below" in table_rows(again)


def test_the_curves_mark_this_runs_n_and_k():
    at = open_page(PAGE, corpus="sennrich", n="3", k="4")
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    fields = [json.loads(chart.proto.spec)["layer"][0]["encoding"]["y"]["field"] for chart in charts]
    assert fields == ["tokens_per_word", "unknown_percent"]
    marked = {(row["kind"], row["size"]) for row in chart_rows(charts[0]) if row["here"]}
    assert marked == {("words", 3), ("bpe", 4)}
    kinds = {row["kind"] for row in chart_rows(charts[0])}
    assert kinds == {"words", "characters", "bytes", "bpe"}


def test_a_bad_link_parameter_is_said_and_the_page_still_draws():
    at = open_page(PAGE, corpus="sennrich", cut="syllables", heldout="klingon", n="many")
    warnings = " ".join(w.value for w in at.warning)
    assert "cut must be one of words, characters, bytes, bpe" in warnings and "heldout must be" in warnings
    assert "n must be a whole number" in warnings and not at.exception
    assert "words (top" in " ".join(table_rows(at))


def test_python_docs_is_held_out_from_another_example_but_not_from_itself():
    at = open_page(PAGE, corpus="sennrich", heldout="python-docs")
    assert not at.warning and at.query_params["heldout"] == "python-docs"
    itself = open_page(PAGE, corpus="python-docs", heldout="python-docs")
    assert "heldout must be" in " ".join(w.value for w in itself.warning) and itself.query_params["heldout"] == "split"


def test_wordpieces_section_works_the_courses_merges_and_cuts_and_links_train_and_encode():
    at = open_page(PAGE, corpus="sennrich")
    steps = plain(html_with(at, "bpe-wordpiece"))
    assert "##g + ##s → ##gs5 / (20 × 5) = 1/20##u + ##g (20 times)20 / (36 × 20) = 1/36" in steps
    assert "hu + ##gs → hugs5 / (15 × 5) = 1/15" in steps
    cuts = plain(html_with(at, "bpe-cuts"))
    assert "pugspu ##gspug ##s (they differ)" in cuts
    links = {link.proto.label: (link.proto.page, link.proto.query_string) for link in at.get("page_link")}
    train_page, train_query = links["Step WordPiece's merges on Train"]
    assert train_page == pages.TRAIN.url_name and train_query == "preset=hf-course&objective=wordpiece&step=1"
    encode_page, encode_query = links["Encode & decode: the three cuts (BPE's, fewest, longest match)"]
    assert encode_page == pages.ENCODE.url_name and "objective=wordpiece" in encode_query and "text=pugs" in encode_query
