"""Parity with subword-nmt (Sennrich's reference code) and Hugging Face's ``end_of_word_suffix``.

The golden values are subword-nmt's own output: ``learn_bpe`` writes the codes file and
``apply_bpe.BPE.segment`` segments text; ours must be the same text, merge for merge and line for
line. Settings that reproduce ``learn-bpe``: char unit, marker ``</w>`` attached, pre-tokenizer
``space``, tie-break ``lexicographic-max``, minimum frequency 2.
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import replace
import io

import pytest

from subword_nmt.apply_bpe import BPE
from subword_nmt.learn_bpe import learn_bpe

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError, SettingsError, UnknownTokenError
from bpe.formats import export_problem, export_tokenizer, from_subword_nmt, import_tokenizer, to_subword_nmt
from bpe.text.corpus import Corpus
from bpe.training.presets import HF_COURSE_WORDS, python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

from .generated_text import article_text
from .peers import hf_merges

SENNRICH_TEXT = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3
CORPORA = {
    "sennrich": lambda: SENNRICH_TEXT,
    "hf-course": lambda: " ".join(word for word, count in HF_COURSE_WORDS.items() for _ in range(count)),
    "python-docs-100k": lambda: python_docs_text()[:100_000],
    "python-docs": python_docs_text,
    "generated-article": article_text,
    "tabs-and-accents": lambda: "café\tnoir café naïve\tcafé  naïve\n\n  straße straße\r\nstraße a b a\n" * 3,
}
MERGES = 1000
LEARN_BPE = TrainSettings(
    unit="char", pretokenizer="space", end_of_word="</w>", end_of_word_mode="attached",
    tie_break="lexicographic-max", min_frequency=2, merges=MERGES,
)


def subword_nmt_codes(text: str, merges: int = MERGES) -> str:
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):  # learn_bpe reports progress on stderr
        learn_bpe(io.StringIO(text), out, merges, min_frequency=2)
    return out.getvalue()


def our_trace(text: str, settings: TrainSettings = LEARN_BPE):
    return train(Corpus.from_text(text, pretokenizer=settings.pretokenizer), settings)


@functools.cache
def learned(name: str):
    """The corpus, subword-nmt's codes for it and our trace of it, once for the tests that compare them."""
    text = CORPORA[name]()
    return text, subword_nmt_codes(text), our_trace(text)


def segment(tokenizer: Tokenizer, line: str) -> str:
    """What ``apply_bpe.BPE.segment`` prints, from our ids: subwords of a word joined by '@@ ',
    a bare marker left unmerged at the end dropped (it prints nothing)."""
    words = [word for word in line.strip("\r\n ").split(" ") if word]
    segmented = []
    for word in words:
        ids = tokenizer.encode_ordinary(word)
        segmented.append("@@ ".join(tokenizer.decode([token_id]) for token_id in ids if tokenizer.decode([token_id])))
    return " ".join(segmented)


@pytest.mark.parametrize("name", CORPORA)
def test_learn_bpe_codes_are_reproduced_merge_for_merge(name):
    _, expected, trace = learned(name)
    ours = to_subword_nmt(Tokenizer.from_trace(trace))
    assert len(expected.splitlines()) > 5
    assert ours.splitlines() == expected.splitlines()


def probe_lines(text: str, limit: int = 2000) -> list[str]:
    """The corpus's lines, and each with its neighbouring words run together ("low lower" ->
    "lowlower"): new words, made of characters the tokenizer has seen in the places it saw them."""
    lines = text.splitlines()[:limit]
    return lines + ["".join(line.split(" ")[:2]) + " " + "".join(line.split(" ")[2:4]) for line in lines]


def known(tokenizer: Tokenizer, lines: list[str]) -> list[str]:
    """The lines a tokenizer read from a codes file has every character of (see from_subword_nmt)."""
    alphabet = {tokenizer.decode([token_id]) for token_id, token in tokenizer.tokens.items() if len(token.data)}
    return [line for line in lines if set(line.strip("\r\n ")) <= alphabet]


@pytest.mark.parametrize("name", CORPORA)
def test_apply_bpe_segmentation_is_reproduced_line_for_line(name):
    text, codes, trace = learned(name)
    theirs = BPE(io.StringIO(codes))
    trained = Tokenizer.from_trace(trace)
    lines = probe_lines(text)
    expected = [theirs.segment(line) for line in lines]
    assert sum("@@" in line for line in expected) >= min(len(lines) // 10, 5)
    assert [segment(trained, line) for line in lines] == expected
    imported = from_subword_nmt(codes)
    readable = known(imported, lines)
    assert len(readable) >= len(lines) // 4
    assert [segment(imported, line) for line in readable] == [theirs.segment(line) for line in readable]


def test_a_repeated_codes_line_is_read_once_as_apply_bpe_reads_it():
    codes = "#version: 0.2\nl o\nlo w</w>\nl o\ne r</w>\nlo w</w>\nw e\n"  # "l o" and "lo w</w>" twice
    theirs, ours = BPE(io.StringIO(codes)), from_subword_nmt(codes)
    assert len(ours.merges) == 4
    for line in ["low lower", "lo er low", "lowe"]:
        assert segment(ours, line) == theirs.segment(line), line


def test_separate_marker_codes_are_version_0_1_and_apply_bpe_reads_them_alike():
    text = CORPORA["python-docs-100k"]()
    settings = TrainSettings(**{**LEARN_BPE.to_dict(), "end_of_word_mode": "separate", "merges": 300})
    codes = to_subword_nmt(Tokenizer.from_trace(our_trace(text, settings)))
    assert codes.startswith("#version: 0.1\n") and "e </w>" in codes.splitlines()
    theirs = BPE(io.StringIO(codes))
    imported = from_subword_nmt(codes)
    assert imported.end_of_word_mode == "separate"
    lines = known(imported, probe_lines(text, 500))
    assert len(lines) > 200
    assert [segment(imported, line) for line in lines] == [theirs.segment(line) for line in lines]


def test_attached_mode_counts_pairs_as_subword_nmt_does_on_the_sennrich_words():
    # subword-nmt counts (o, w</w>) 5 times (low) and (o, w) 2 times (lower); separate counts (o, w) 7.
    def counts(mode):
        settings = TrainSettings(**{**LEARN_BPE.to_dict(), "end_of_word_mode": mode, "merges": 1, "top_k": 100})
        trace = our_trace(SENNRICH_TEXT, settings)
        return {(trace.token_text(p.left), trace.token_text(p.right)): p.count for p in trace.steps[0].top_pairs}

    attached, separate = counts("attached"), counts("separate")
    assert (attached[("o", "w</w>")], attached[("o", "w")]) == (5, 2)
    assert separate[("o", "w")] == 7 and ("o", "w</w>") not in separate


def test_a_codes_file_reads_back_to_the_same_text():
    codes = subword_nmt_codes(CORPORA["python-docs-100k"](), 300)
    assert export_tokenizer(import_tokenizer(format="subword-nmt", files={"bpe.codes": codes}),
                            format="subword-nmt") == {"bpe.codes": codes}


@pytest.mark.parametrize("codes, message", [
    ("#version: 0.3\na b\n", "version '0.3'"),
    ("#version: 0.2\na b c\n", "line 2: expected two tokens"),
    ("#version: 0.2\nab c\n", "'ab', which no earlier line makes"),
    ("#version: 0.2\nb c\na bc\na b\nab c\n", "already makes"),
])
def test_bad_codes_files_are_refused_with_the_line_at_fault(codes, message):
    with pytest.raises(FormatError, match=message):
        from_subword_nmt(codes)


def test_exports_subword_nmt_cannot_run_are_refused_with_the_reason():
    byte_level = Tokenizer.from_trace(train(Corpus.from_text(SENNRICH_TEXT), TrainSettings(merges=5)))
    assert "char unit" in export_problem(byte_level, format="subword-nmt")
    whitespace = Tokenizer.from_trace(our_trace(SENNRICH_TEXT, TrainSettings(**{**LEARN_BPE.to_dict(), "pretokenizer": "whitespace"})))
    assert "pre-tokenizer 'space'" in export_problem(whitespace, format="subword-nmt")
    special = TrainSettings(**{**LEARN_BPE.to_dict(), "special_tokens": ("<s>",)})
    assert "no special tokens" in export_problem(Tokenizer.from_trace(our_trace(SENNRICH_TEXT, special)), format="subword-nmt")
    assert export_problem(Tokenizer.from_trace(our_trace(SENNRICH_TEXT)), format="subword-nmt") is None


# -- the attached mode itself ---------------------------------------------------------------------
LITERAL_MARKER_TEXT = "bab a< w /w> /w></w></w> </w>></w> /w></w>b> w ></w></w>> b < " * 2


def test_a_corpus_whose_words_hold_the_marker_text_is_refused_with_the_reason():
    tokenizer = Tokenizer.from_trace(our_trace(LITERAL_MARKER_TEXT, replace(LEARN_BPE, merges=5)))
    # Why: written anyway, the codes file cannot tell the text "</w>" from the marker, and apply_bpe
    # then segments those words otherwise.
    codes = "#version: 0.2\n" + "".join(
        f"{tokenizer.token_text(left)} {tokenizer.token_text(right)}\n" for left, right, _ in tokenizer.merges)
    line = LITERAL_MARKER_TEXT.strip()
    assert BPE(io.StringIO(codes)).segment(line) != segment(tokenizer, line)
    with pytest.raises(FormatError, match=r"merge \d+ makes '.*', holding the text </w>: a codes file cannot tell the "
                                          r"text </w> from the end-of-word marker, so apply_bpe would segment"):
        to_subword_nmt(tokenizer)


def test_attached_mode_needs_a_marker():
    with pytest.raises(SettingsError, match="there is none"):
        TrainSettings(end_of_word_mode="attached")


def test_a_char_tokenizer_refuses_a_word_ending_in_a_character_that_never_ended_one():
    tokenizer = Tokenizer.from_trace(our_trace(SENNRICH_TEXT))
    assert tokenizer.decode(tokenizer.encode("lowest")) == "lowest"
    with pytest.raises(UnknownTokenError, match="'e' never ended a word"):
        tokenizer.encode("owe")


def test_the_byte_unit_attaches_the_marker_to_any_last_byte():
    settings = TrainSettings(end_of_word="</w>", end_of_word_mode="attached", pretokenizer="space", merges=20)
    trace = our_trace(SENNRICH_TEXT, settings)
    assert len(trace.base) == 512
    tokenizer = Tokenizer.from_trace(trace)
    text = "naïve 東京 low"
    assert tokenizer.decode(tokenizer.encode(text)) == text
    assert tokenizer.token_text(tokenizer.encode("low")[-1]).endswith("</w>")


def test_the_space_split_keeps_tabs_inside_words():
    assert Corpus.from_text("a\tb c  c\n", pretokenizer="space").words == (("a\tb", 1), ("c", 2))


# -- Hugging Face's end_of_word_suffix ------------------------------------------------------------
def hf_suffix_merges(text: str, vocab_size: int) -> list[tuple[str, str]]:
    from tokenizers import Tokenizer as HfTokenizer
    from tokenizers import models, pre_tokenizers, trainers

    tokenizer = HfTokenizer(models.BPE(end_of_word_suffix="</w>"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=0, show_progress=False, end_of_word_suffix="</w>"
    )
    tokenizer.train_from_iterator([text], trainer)
    return hf_merges(tokenizer)


def hash_order_step(trace) -> int:
    """The first step whose winner HF picks by hash order, or the number of steps if none.

    HF numbers the characters carrying its suffix in the order it meets them in a hash map, so when
    the best pairs differ only in which such character is on the right, HF itself varies from run
    to run. Before that step every choice is determined, and must be ours.
    """
    n_plain = sum(not token.ends_word for token in trace.base)
    for index, step in enumerate(trace.steps):
        lefts = [pair for pair in step.tied if pair[0] == step.left]
        if sum(n_plain <= right < len(trace.base) for _, right in lefts) > 1:
            return index
    return len(trace.steps)


@pytest.mark.parametrize("name", ["sennrich", "hf-course", "python-docs-100k", "generated-article"])
def test_hf_rule_in_attached_mode_matches_hugging_face_end_of_word_suffix(name):
    text = CORPORA[name]()
    settings = TrainSettings(
        unit="char", pretokenizer="whitespace", end_of_word="</w>", end_of_word_mode="attached",
        tie_break="hf", min_frequency=1, merges=500, max_ties=1000,
    )
    trace = our_trace(text, settings)
    determined = hash_order_step(trace)
    assert determined >= min(len(trace.steps), 100)
    ours = [(trace.token_text(s.left), trace.token_text(s.right)) for s in trace.steps]
    assert hf_suffix_merges(text, len(trace.base) + len(trace.steps))[:determined] == ours[:determined]


def test_an_attached_tokenizer_and_its_trace_round_trip_through_our_json():
    from bpe.training.trace import Trace

    trace = our_trace(SENNRICH_TEXT)
    tok = Tokenizer.from_trace(trace)
    back = Tokenizer.from_json(tok.to_json())
    assert back.end_of_word_mode == "attached"
    assert back.encode("lowest newer") == tok.encode("lowest newer")
    assert Trace.from_json(trace.to_json()).settings == trace.settings
