"""BPE-dropout replays its owners: Hugging Face's ``BPE(dropout=p)`` and SentencePiece's sampling.

At ``p = 0`` and ``p = 1`` the owners are deterministic, so the ids must be theirs exactly. In
between their generators cannot be matched draw for draw (and Hugging Face's cannot be seeded), so
each owner's samples of a word (a fixed number, :data:`SAMPLES`) must fit the distribution BPE Lab
computes exactly for that rule: Pearson's chi-square test (``tests/goodness_of_fit.py``) at the
significance level :data:`ALPHA`, far below any real mismatch (the rules' own distributions differ by
chi-square statistics in the thousands at this sample size; ``test_the_two_rules_part_ways_enough_to_be_told_apart``).
The readable reference's dropout loop is the oracle for the fast one, draw for draw.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HfTokenizer

from bpe import Corpus, Tokenizer, TrainSettings, reference, train
from bpe.encoding.dropout import DROPOUT_RULES, Dropout, exact_distribution, sample_segmentations
from bpe.errors import SettingsError
from bpe.formats import to_hf
from bpe.formats.sentencepiece_model import from_sentencepiece
from bpe.training.presets import python_docs_text

from .examples import examples
from .goodness_of_fit import goodness_of_fit
from .strategies import TEXT
from .test_engine_cli import run_bpe, run_ok

SAMPLES = 5_000
ALPHA = 1e-4
"""A test of an owner's unseeded samples fails by chance once in 10,000 runs."""
P = 0.3
HF_WORDS = [" function", " string", " lowest"]
SP_WORDS = ["function", "lowest", "the"]
TEXTS = ["the lowest newest function()", "  two  spaces\tand 12345 digits", "naïve 東京 😀"]


@cache
def byte_tokenizer() -> Tokenizer:
    """GPT-2's split and bytes, 400 merges of Python's documentation."""
    return Tokenizer.from_trace(train(Corpus.from_text(python_docs_text()[:100_000]), TrainSettings(merges=400)))


def hugging_face(tokenizer: Tokenizer, p: float) -> HfTokenizer:
    """``tokenizers`` loading BPE Lab's export of ``tokenizer``, with ``"dropout": p`` in its model."""
    data = json.loads(to_hf(tokenizer))
    data["model"]["dropout"] = p
    return HfTokenizer.from_str(json.dumps(data))


@cache
def sentencepiece_model(folder: Path) -> bytes:
    """A BPE model ``sentencepiece`` trains on Python's documentation (800 pieces)."""
    path = folder / "corpus.txt"
    path.write_text(python_docs_text()[:100_000], encoding="utf-8")
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        input=str(path), model_writer=model, model_type="bpe", vocab_size=800, character_coverage=1.0,
        normalization_rule_name="identity", minloglevel=2, num_threads=1,
    )
    return model.getvalue()


@pytest.fixture(scope="module")
def sentencepiece(tmp_path_factory) -> tuple[spm.SentencePieceProcessor, Tokenizer]:
    model = sentencepiece_model(tmp_path_factory.mktemp("dropout"))
    return spm.SentencePieceProcessor(model_proto=model), from_sentencepiece(model)


def exact(tokenizer: Tokenizer, word: str, rule: str, p: float = P) -> dict[tuple[int, ...], float]:
    dropout = Dropout(tokenizer, p=p, rule=rule)
    found = exact_distribution(dropout, dropout.chunks(word), work=2_000_000)  # more than a page may spend
    assert found is not None and abs(sum(found.values()) - 1) < 1e-9
    return found


# -- p = 0 and p = 1: exactly the owners' ids ------------------------------------------------------
@pytest.mark.parametrize("text", TEXTS)
def test_at_p_zero_the_hugging_face_rule_is_the_encoder_and_hugging_faces_own(text):
    tokenizer = byte_tokenizer()
    expected = tokenizer.encode(text)
    assert Dropout(tokenizer, p=0.0, seed=1).encode(text) == expected
    assert hugging_face(tokenizer, 0.0).encode(text).ids == expected


@pytest.mark.parametrize("text", TEXTS)
def test_at_p_one_hugging_face_and_bpe_lab_make_no_merge(text):
    tokenizer = byte_tokenizer()
    ids = Dropout(tokenizer, p=1.0).encode(text)
    assert ids == list(text.encode("utf-8"))  # the byte ids of this tokenizer are the bytes
    assert hugging_face(tokenizer, 1.0).encode(text).ids == ids


@pytest.mark.parametrize("text", TEXTS)
def test_at_p_zero_and_one_the_sentencepiece_rule_is_sentencepieces_sampling(sentencepiece, text):
    processor, ours = sentencepiece
    for p in (0.0, 1.0):
        theirs = processor.encode(text, enable_sampling=True, alpha=p, nbest_size=-1)
        assert Dropout(ours, p=p, rule="sentencepiece").encode(text) == theirs
    assert Dropout(ours, p=0.0, rule="sentencepiece").encode(text) == processor.encode(text) == ours.encode(text)


@settings(max_examples=examples(60), deadline=None)
@given(training=TEXT, text=TEXT)
def test_at_p_zero_the_hugging_face_rule_encodes_any_text_as_the_encoder(training, text):
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(training), TrainSettings(merges=30, min_frequency=1)))
    assert Dropout(tokenizer, p=0.0).encode(text) == tokenizer.encode(text)
    assert Dropout(tokenizer, p=1.0).encode(text) == list(text.encode("utf-8"))


# -- in between: the owners' distributions -----------------------------------------------------------
@pytest.mark.parametrize("word", HF_WORDS)
def test_hugging_faces_samples_follow_the_hf_rules_exact_distribution(word):
    tokenizer = byte_tokenizer()
    library = hugging_face(tokenizer, P)
    counts = Counter(tuple(library.encode(word).ids) for _ in range(SAMPLES))
    fit = goodness_of_fit(counts, exact(tokenizer, word, "hf"))
    assert fit.df >= 3 and fit.p_value > ALPHA, fit


@pytest.mark.parametrize("word", SP_WORDS)
def test_sentencepieces_samples_follow_the_sentencepiece_rules_exact_distribution(sentencepiece, word):
    processor, ours = sentencepiece
    spm.set_random_generator_seed(2024)
    counts = Counter(tuple(processor.encode(word, enable_sampling=True, alpha=P, nbest_size=-1)) for _ in range(SAMPLES))
    fit = goodness_of_fit(counts, exact(ours, word, "sentencepiece"))
    assert fit.df >= 3 and fit.p_value > ALPHA, fit


@pytest.mark.parametrize("rule, word", [("hf", " function"), ("sentencepiece", "lowest")])
def test_bpe_labs_seeded_samples_follow_the_exact_distribution(sentencepiece, rule, word):
    tokenizer = byte_tokenizer() if rule == "hf" else sentencepiece[1]
    sample = sample_segmentations(tokenizer, word, p=P, samples=SAMPLES, seed=7, rule=rule)
    assert sum(seg.count for seg in sample.segmentations) == SAMPLES
    counts = {seg.ids: seg.count for seg in sample.segmentations}
    fit = goodness_of_fit(counts, exact(tokenizer, word, rule))
    assert fit.p_value > ALPHA, fit
    assert sample.segmentations[0].count >= sample.segmentations[-1].count  # most frequent first


def test_the_two_rules_part_ways_enough_to_be_told_apart(sentencepiece):
    """The same model, word and p: Hugging Face's rule keeps a skipped merge for later, so "lowest"
    stays its plain segmentation twice as often as under SentencePiece's, where a skip is for good."""
    ours = sentencepiece[1]
    hf, sp = exact(ours, "lowest", "hf"), exact(ours, "lowest", "sentencepiece")
    plain = tuple(ours.encode("lowest"))
    assert hf[plain] > 0.6 > 0.4 > sp[plain]
    expected_counts = {ids: round(SAMPLES * chance) for ids, chance in hf.items()}
    assert goodness_of_fit(expected_counts, sp).statistic > 1_000  # what one rule's samples score under the other's


# -- the reference is the oracle, draw for draw --------------------------------------------------------
@settings(max_examples=examples(80), deadline=None)
@given(training=TEXT, text=TEXT, seed=st.integers(0, 2**32), p=st.floats(0.05, 0.95))
def test_the_fast_hugging_face_loop_draws_as_the_references_draw_for_draw(training, text, seed, p):
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(training), TrainSettings(merges=40, min_frequency=1)))
    ranks = {(left, right): new_id for left, right, new_id in tokenizer.merges}
    dropout = Dropout(tokenizer, p=p, seed=seed)
    for chunk in dropout.chunks(text):
        fast = Dropout(tokenizer, p=p, seed=seed).merge([chunk])
        assert fast == reference.encode_chunk_dropout(list(chunk), ranks, p, random.Random(seed))


# -- seeds, and refusals that teach ------------------------------------------------------------------
def test_a_seed_reproduces_a_sequence_of_samples_and_another_seed_differs():
    tokenizer = byte_tokenizer()

    def sequence(seed: int) -> list[list[int]]:
        dropout = Dropout(tokenizer, p=0.5, seed=seed)
        return [dropout.encode(" function string lowest") for _ in range(5)]

    assert sequence(3) == sequence(3) != sequence(4)
    assert len({tuple(ids) for ids in sequence(3)}) > 1  # one generator's successive samples differ
    first, again = (sample_segmentations(tokenizer, " function", p=0.5, samples=50, seed=3) for _ in range(2))
    assert first == again


@pytest.mark.parametrize("p", [-0.1, 1.5, "0.1", True, float("nan")])
def test_a_probability_outside_zero_to_one_is_refused(p):
    with pytest.raises(SettingsError, match="dropout must be a probability from 0 to 1"):
        Dropout(byte_tokenizer(), p=p)


def test_an_unknown_rule_and_sentencepieces_rule_on_a_byte_tokenizer_are_refused_saying_what_to_use():
    with pytest.raises(SettingsError, match="unknown dropout rule 'paper': use one of hf, sentencepiece"):
        Dropout(byte_tokenizer(), p=0.1, rule="paper")
    with pytest.raises(SettingsError, match="train with the sentencepiece split .* or use the hf rule"):
        Dropout(byte_tokenizer(), p=0.1, rule="sentencepiece")
    assert list(DROPOUT_RULES) == ["hf", "sentencepiece"]


def test_a_long_word_has_no_exact_distribution_but_is_still_sampled():
    word = " function" * 12  # one chunk under no split would do; here twelve chunks multiply past the limit
    sample = sample_segmentations(byte_tokenizer(), word, p=P, samples=20, seed=0)
    assert not sample.exact and all(seg.probability is None for seg in sample.segmentations)
    assert sum(seg.count for seg in sample.segmentations) == 20


# -- the command line ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def wikipedia(tmp_path_factory) -> Path:
    """Wikipedia's aa=256, ab=257, aaab=258, saved by the command line."""
    path = tmp_path_factory.mktemp("dropout-cli") / "wikipedia.json"
    run_ok("train", "--text", "aaabdaaabac", "--pretokenizer", "none", "--tie-break", "lexicographic-min", "--save", str(path))
    return path


def test_the_command_line_samples_with_a_seed_and_counts_segmentations(wikipedia):
    once, again = (run_ok("encode", "--tokenizer", str(wikipedia), "--text", "aaabdaaabac", "--dropout", "0.5", "--seed", "4")
                   for _ in range(2))
    assert once == again
    assert run_ok("encode", "--tokenizer", str(wikipedia), "--text", "aaab", "--dropout", "1") == "97 97 97 98\n"
    counted = json.loads(run_ok(
        "encode", "--tokenizer", str(wikipedia), "--text", "aaab", "--dropout", "0.5", "--seed", "1", "--samples", "400", "--json",
    ))
    assert counted["plain"] == [258] and sum(row["count"] for row in counted["segmentations"]) == 400
    chances = {tuple(row["ids"]): row["probability"] for row in counted["segmentations"]}
    assert chances[(97, 97, 97, 98)] == 0.125 and chances[(258,)] == 0.1640625  # as worked out in bpe/encoding/dropout.py


def test_the_command_line_says_what_seed_and_samples_need(wikipedia):
    result = run_bpe("encode", "--tokenizer", str(wikipedia), "--text", "aaab", "--samples", "5")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--seed and --samples go with --dropout P" in result.stderr
