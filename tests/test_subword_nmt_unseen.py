"""Characters a subword-nmt codes file never mentions pass through, as ``apply_bpe`` passes them.

The golden values are subword-nmt's own: ``apply_bpe.BPE.process_line`` on every line, against
``bpe.formats.subword_nmt.apply_bpe_line`` through BPE Lab's import of the same codes file.

subword-nmt's own test corpus (``subword_nmt/tests/data``: ``corpus.en``, ``bpe.ref``) is not in its
PyPI releases (the 0.3.8 sdist is 22 kB and has no ``data`` folder), and this machine and CI reach
no other source, so the suite builds an equivalent the same way subword-nmt's test built it:
``learn_bpe`` with 1,000 symbols on part of a corpus (Python's own documentation, which every
machine has), then ``apply_bpe`` on all of it, whose other part holds characters the codes never
saw; and lines made to be hard. ``scripts/check_subword_nmt_corpus.py`` runs the same comparison on
the real files, given a folder that holds them (docs/measurements.md, issue 46: 1,015 of 1,015 lines).
"""

from __future__ import annotations

import contextlib
import functools
import io

import pytest
from subword_nmt.apply_bpe import BPE
from subword_nmt.learn_bpe import learn_bpe

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import export_tokenizer, import_tokenizer
from bpe.formats.bounded_import import import_json_bounded
from bpe.formats.subword_nmt import apply_bpe_line
from bpe.training.presets import python_docs_text

LEARNED_LINES, APPLIED_LINES = 600, 1_500
HARD_LINES = [
    "ß", "ßß ß", "(a) (b)", "€100 costs €", "naïve café", "  leading and trailing  ", "a  b   c",
    "emoji 🙂🙂 and 𝔘𝔫𝔦 at the end 🙂", "tab\tinside\ta word", "combining e\u0301 marks", "\u00a0no-break\u00a0space\u00a0",
    "中文 日本語 한국어", "", "   ", "x", "@@ @@@ a@@b", "</w> </w>x x</w>",
]


def learned_codes(lines: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):  # learn_bpe reports progress on stderr
        learn_bpe(io.StringIO("\n".join(lines) + "\n"), out, 1000, min_frequency=2)
    return out.getvalue()


@functools.cache
def corpus() -> tuple[list[str], str]:
    """Python's documentation cut into lines: the codes are learned on the first 600, applied to 1,500."""
    lines = [line for line in python_docs_text().splitlines() if line.strip()][:APPLIED_LINES]
    return lines, learned_codes(lines[:LEARNED_LINES])


@pytest.mark.parametrize("lines", ["corpus", "hard"])
def test_every_line_is_segmented_as_apply_bpe_segments_it(lines):
    text_lines, codes = corpus()
    if lines == "hard":
        text_lines = HARD_LINES
    ours = import_tokenizer(format="subword-nmt", files={"bpe.codes": codes})
    theirs = BPE(io.StringIO(codes))
    differing = [(line, apply_bpe_line(ours, line), theirs.process_line(line)) for line in text_lines
                 if apply_bpe_line(ours, line) != theirs.process_line(line)]
    assert differing == []


def test_the_corpus_holds_characters_the_codes_never_mention_on_most_lines():
    lines, codes = corpus()
    ours = import_tokenizer(format="subword-nmt", files={"bpe.codes": codes})
    passing = [line for line in lines if any(ours.is_passed_through(token_id) for token_id in ours.encode(line))]
    assert len(passing) > len(lines) // 5  # so the test above checks passing through, not only merging


def test_a_passed_through_character_is_one_token_past_the_vocabulary_that_decodes_to_itself():
    codes = import_tokenizer(format="subword-nmt", files={"bpe.codes": "#version: 0.2\ns t</w>\ne st</w>\n"})
    ids = codes.encode("ß €est €")
    assert [codes.token_text(token_id) for token_id in ids] == ["ß</w>", " ", "€", "est</w>", " ", "€</w>"]
    assert [codes.is_passed_through(token_id) for token_id in ids] == [True, False, True, False, False, True]
    assert all(token_id >= codes.n_vocab for token_id in ids if codes.is_passed_through(token_id))
    assert codes.decode(ids) == "ß €est €" and codes.tokens[ids[0]].data == "ß".encode()


@pytest.mark.parametrize("version", ["0.1", "0.2"])
def test_both_codes_versions_pass_unseen_characters_through(version):
    # 0.1: the marker is a symbol of its own after each word; 0.2 glues it to the last character
    codes = {"0.1": "#version: 0.1\nl o\nlo w\nlow </w>\n", "0.2": "#version: 0.2\nl o\nlo w</w>\n"}[version]
    ours = import_tokenizer(format="subword-nmt", files={"bpe.codes": codes})
    theirs = BPE(io.StringIO(codes))
    for line in ["low ßlow lowß", "ß", "(low) low"]:
        assert apply_bpe_line(ours, line) == theirs.process_line(line), line


@pytest.mark.parametrize("format", ["ours", "subword-nmt"])
def test_the_tokenizer_still_passes_characters_through_after_a_round_trip(format):
    _, codes = corpus()
    imported = import_tokenizer(format="subword-nmt", files={"bpe.codes": codes})
    back = import_tokenizer(format=format, files=export_tokenizer(imported, format=format))
    assert apply_bpe_line(back, "ß (café) €") == BPE(io.StringIO(codes)).process_line("ß (café) €")


def test_the_apps_bounded_import_keeps_it_passing_characters_through():
    _, codes = corpus()
    text = import_json_bounded(format="subword-nmt", files={"bpe.codes": codes.encode()}, pretokenizer="gpt2", name="codes")
    assert Tokenizer.from_json(text).encode("ß€") == import_tokenizer(format="subword-nmt", files={"bpe.codes": codes}).encode("ß€")
