"""Compare and export view builders: the numbers table, the run diff, and the files offered."""

import io
import json
import zipfile
from dataclasses import replace

import pytest

from bpe import PRESETS, Corpus, Tokenizer, TrainSettings, train
from bpe.formats import FORMATS, export_problem, import_tokenizer
from bpe.views.compare import (
    DIVERGENCE_TINT, clean_name, compare_frame, divergence_html, explain_divergence, highlight_merge,
    merges_side_by_side, unique_name,
)
from bpe.views.exports import export_offers, mime_type, zip_files

WIKI = PRESETS["wikipedia"]
SENNRICH = PRESETS["sennrich"]
SAMPLE = " lowest newer wider, and the € sign"


def run(preset, **changes):
    return train(preset.corpus(), replace(preset.settings, **changes))


def zip_contents(data: bytes) -> dict[str, bytes]:
    """The files inside a zip archive, as a learner's unzip gives them."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


# -- the numbers table ------------------------------------------------------------------------------
def test_compare_frame_counts_tokens_and_divides_characters_and_bytes_by_them():
    frame = compare_frame("héllo", [("a", [1, 2], 300), ("b", [1, 2, 3, 4, 5], 256)])
    assert frame.to_dict("records") == [
        {"tokenizer": "a", "vocabulary": 300, "tokens": 2, "characters per token": 2.5, "bytes per token": 3.0},
        {"tokenizer": "b", "vocabulary": 256, "tokens": 5, "characters per token": 1.0, "bytes per token": 1.2},
    ]


def test_compare_frame_leaves_the_ratios_empty_for_empty_text():
    row = compare_frame("", [("a", [], 256)]).iloc[0]
    assert row["tokens"] == 0 and row.isna()["characters per token"] and row.isna()["bytes per token"]


# -- the run diff -----------------------------------------------------------------------------------
def test_wikipedia_under_lexicographic_min_and_first_seen_parts_at_merge_2_on_a_tie():
    a, b = run(WIKI, tie_break="lexicographic-min"), run(WIKI, tie_break="first-seen")
    said = explain_divergence(a, b, names=("lexicographic-min", "first-seen"))
    assert said[0] == "Both runs make merge 1 alike; they part ways at merge 2."
    assert "'a' + 'b' (making 'ab', count 2)" in said[1] and "'aa' + 'a' (making 'aaa', count 2)" in said[1]
    assert said[2].startswith("It is a tie: both pairs occur 2 times")
    assert said[3].startswith("lexicographic-min picks 'a' + 'b' because its byte strings are the smallest")
    assert said[4].startswith("first-seen picks 'aa' + 'a' because it occurs first in the text")


def test_identical_runs_never_diverge():
    a = run(WIKI, tie_break="first-seen")
    said = explain_divergence(a, run(WIKI, tie_break="lexicographic-max"))
    assert said[0] == "Both runs learn the same 3 merges."


def test_a_run_that_stops_earlier_is_named_as_the_divergence():
    long, short = run(SENNRICH, merges=10), run(SENNRICH, merges=4)
    said = explain_divergence(long, short, names=("ten", "four"))
    assert said[0] == "Both runs make merges 1 to 4 alike; they part ways at merge 5."
    assert said[1].startswith("four stops after merge 4") and "ten goes on with" in said[1]


def test_runs_with_another_pretokenizer_count_different_pairs_rather_than_tie():
    text = "ab ab ab cd cd"
    a, b = (
        train(Corpus.from_text(text, pretokenizer=split), TrainSettings(pretokenizer=split, merges=3))
        for split in ("whitespace", "none")
    )
    said = explain_divergence(a, b, names=("whitespace", "none"))
    assert said[1] == "whitespace merges 'c' + 'd' (making 'cd', count 2); none merges 'ab' + '·' (making 'ab·', count 3)."
    assert said[2].startswith("Not a tie between the same pairs")


def test_the_side_by_side_table_lines_up_merges_and_marks_a_stopped_run():
    frame = merges_side_by_side(run(SENNRICH, merges=3), run(SENNRICH, merges=2), names=("A", "B"))
    assert frame["merge"].tolist() == [1, 2, 3]
    assert frame["B"].tolist()[-1] == "(stopped)" and frame["B count"].isna().tolist() == [False, False, True]
    assert frame["A"].tolist()[0] == frame["B"].tolist()[0]


def test_highlight_tints_only_the_divergent_merge():
    frame = merges_side_by_side(run(WIKI), run(WIKI, tie_break="first-seen"))
    styles = highlight_merge(frame, 2)._compute().ctx
    tinted = {row for (row, _column), css in styles.items() if css and DIVERGENCE_TINT.split(";")[0] in "; ".join(map(": ".join, css))}
    assert tinted == {1}


def test_the_explanation_html_escapes_tokens():
    markup = divergence_html(["<b>merge</b>", "'<script>' + 'x'"])
    assert "<script>" not in markup and "&lt;script&gt;" in markup and markup.startswith('<div class="bpe-diff">')


# -- names ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("raw", "expected"), [
    ("  a\nb\tc ", "a b c"), ("", "fallback"), ("x" * 100, "x" * 60), ("<script>", "<script>"),
])
def test_names_are_one_tidy_line(raw, expected):
    assert clean_name(raw, "fallback") == expected


def test_a_taken_name_gets_a_number():
    assert unique_name("gpt2", []) == "gpt2" and unique_name("gpt2", ["gpt2"]) == "gpt2 (2)"


# -- exports ----------------------------------------------------------------------------------------
def test_a_byte_level_tokenizer_is_offered_in_every_byte_level_format_and_each_file_reads_back():
    tokenizer = Tokenizer.from_trace(run(SENNRICH), step=7)
    offers = export_offers(tokenizer, stem="sennrich-step7")
    assert [offer.format for offer in offers] == list(FORMATS)
    for offer in offers:
        entry = FORMATS[offer.format]
        if offer.problem is not None:  # only a format for characters may refuse it (subword-nmt, SentencePiece), saying why
            assert not entry.byte_level_only and "char unit" in offer.problem and not offer.files
            continue
        assert offer.files
        pretokenizer = {} if entry.stores_pattern else {"pretokenizer": "gpt2"}
        back = import_tokenizer(format=offer.format, files=dict(offer.files), **pretokenizer)
        assert back.encode(SAMPLE) == tokenizer.encode(SAMPLE), offer.format


def test_multi_file_formats_come_with_a_zip_that_holds_the_same_bytes():
    offers = {offer.format: offer for offer in export_offers(Tokenizer.from_trace(run(WIKI)), stem="wiki")}
    several = [name for name, entry in FORMATS.items() if len(entry.file_names) > 1 and offers[name].files]
    assert several  # minbpe's .model and .vocab, GPT-2's encoder.json and vocab.bpe
    for format in several:
        assert zip_contents(offers[format].zip_bytes()) == dict(offers[format].files)
        assert offers[format].zip_name == f"wiki-{format}.zip"
    assert all(offers[name].zip_name is None for name, entry in FORMATS.items() if len(entry.file_names) == 1)
    assert all(offers[name].zip_bytes() == offers[name].zip_bytes() for name in several)  # fixed timestamps


def test_a_char_level_tokenizer_is_offered_as_ours_only_with_the_reason_elsewhere():
    tokenizer = Tokenizer.from_trace(run(PRESETS["hf-course"]))
    offers = {offer.format: offer for offer in export_offers(tokenizer, stem="hf")}
    assert offers["ours"].problem is None and list(offers["ours"].files) == ["tokenizer.bpe-lab.json"]
    for format in (name for name, entry in FORMATS.items() if entry.byte_level_only):
        assert offers[format].problem == export_problem(tokenizer, format=format) and not offers[format].files
    json.loads(offers["ours"].files["tokenizer.bpe-lab.json"])


def test_mime_types_and_zip_helpers():
    assert mime_type("tokenizer.json") == "application/json" and mime_type("vocab.bpe") == "text/plain"
    assert mime_type("README") == "text/plain"
    assert zip_contents(zip_files({"a.txt": b"1", "b.txt": b"2"})) == {"a.txt": b"1", "b.txt": b"2"}
