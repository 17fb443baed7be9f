"""Golden tests: the built-in presets reproduce their sources' merges, and the trace says why.

Each expected list below is copied from the source the preset names (the Sennrich paper and its
code, Stanford CS336, Wikipedia's walk-through, minbpe, the Hugging Face course), not from a run
of this engine.
"""

from __future__ import annotations

import pytest

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError, SettingsError, SpecialTokenError, UnknownTokenError
from bpe.text.corpus import Corpus
from bpe.training.presets import PRESETS
from bpe.training.settings import TrainSettings
from bpe.training.trace import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_TIME_LIMIT
from bpe.training.trainer import train

SENNRICH_TOKENS = ["st", "est", "ow", "low", " low", "west", "ne", "newest", " newest", "wi"]
CS336_PAIRS = [
    ("s", "t"), ("e", "st"), ("o", "w"), ("l", "ow"), ("w", "est"), ("n", "e"),
    ("ne", "west"), ("w", "i"), ("wi", "d"), ("wid", "est"), ("low", "e"), ("lowe", "r"),
]
SENNRICH_PAPER_TOKENS = ["es", "est", "est</w>", "lo", "low", "ne", "new", "newest</w>", "low</w>", "wi"]
WIKIPEDIA_TEXT = "aaabdaaabac"
HF_COURSE_FIRST_MERGES = [("u", "g", 20), ("u", "n", 16), ("h", "ug", 15)]

EOT = "<|endoftext|>"
SPECIAL_TEXT = EOT.join(["low lower lowest"] * 4)


def train_preset(name: str):
    preset = PRESETS[name]
    return train(preset.corpus(), preset.settings)


def train_text(text: str, **settings):
    settings = TrainSettings(**settings)
    corpus = Corpus.from_text(text, pretokenizer=settings.pretokenizer, special_tokens=settings.special_tokens)
    return train(corpus, settings)


def learned_tokens(trace) -> list[str]:
    return [trace.token_text(step.new_id) for step in trace.steps]


def learned_pairs(trace) -> list[tuple[str, str]]:
    return [(trace.token_text(step.left), trace.token_text(step.right)) for step in trace.steps]


# -- the presets ------------------------------------------------------------------------------
def test_sennrich_preset_learns_the_papers_tokens_with_gpt2_spaces():
    assert learned_tokens(train_preset("sennrich")) == SENNRICH_TOKENS


def test_cs336_preset_learns_the_course_merges_breaking_ties_to_the_greater_pair():
    assert learned_pairs(train_preset("cs336")) == CS336_PAIRS


def test_sennrich_paper_preset_learns_the_papers_code_output_with_end_of_word_marker():
    assert learned_tokens(train_preset("sennrich-paper")) == SENNRICH_PAPER_TOKENS


def test_wikipedia_preset_learns_aa_then_ab_then_aaab():
    trace = train_preset("wikipedia")
    assert learned_pairs(trace) == [("a", "a"), ("a", "b"), ("aa", "ab")]


def test_wikipedia_preset_stops_when_no_pair_occurs_twice():
    trace = train_preset("wikipedia")
    assert len(trace.steps) == 3
    assert trace.stop_reason == STOP_MIN_FREQUENCY


def test_wikipedia_preset_records_the_tie_between_ab_and_aa_a_at_step_two():
    step = train_preset("wikipedia").steps[1]
    a, b, aa = ord("a"), ord("b"), 256
    assert step.tie_count == 2
    assert step.tied[0] == (a, b)
    assert set(step.tied) == {(a, b), (aa, a)}


def test_wikipedia_tokenizer_segments_its_text_as_aaab_d_aaab_a_c():
    tokenizer = Tokenizer.from_trace(train_preset("wikipedia"))
    ids = tokenizer.encode(WIKIPEDIA_TEXT)
    assert [tokenizer.decode([token_id]) for token_id in ids] == ["aaab", "d", "aaab", "a", "c"]


def test_decode_replaces_half_a_character_by_default_and_raises_only_when_asked_to_be_strict():
    # tiktoken's decode(tokens, errors="replace"): a model's output may stop inside a character.
    tokenizer = Tokenizer.from_trace(train_preset("wikipedia"))  # byte unit: ids 0-255 are the bytes
    half_euro = list("€".encode("utf-8")[:2])  # e2 82, two of the three bytes
    assert tokenizer.decode(half_euro) == "\ufffd"
    assert tokenizer.decode([*half_euro, ord("a")]) == "\ufffda"
    with pytest.raises(BpeError, match="not valid UTF-8 .*decode with errors='replace'"):
        tokenizer.decode(half_euro, errors="strict")


def test_first_seen_rule_reproduces_minbpe_on_wikipedias_text():
    trace = train_text(WIKIPEDIA_TEXT, pretokenizer="none", tie_break="first-seen", merges=3)
    assert learned_pairs(trace) == [("a", "a"), ("aa", "a"), ("aaa", "b")]
    assert Tokenizer.from_trace(trace).encode(WIKIPEDIA_TEXT) == [258, 100, 258, 97, 99]


def test_hf_course_preset_learns_ug_un_hug_with_the_courses_counts():
    trace = train_preset("hf-course")
    first = [(trace.token_text(s.left), trace.token_text(s.right), s.count) for s in trace.steps[:3]]
    assert first == HF_COURSE_FIRST_MERGES


# -- counting with overlap, merging without ---------------------------------------------------
@pytest.mark.parametrize(
    ("text", "count", "replacements"),
    [("aaa", 2, 1), ("aaaa", 3, 2)],
    ids=["aaa", "aaaa"],
)
def test_pairs_are_counted_with_overlap_but_replaced_without(text, count, replacements):
    step = train_text(text, pretokenizer="none", merges=1, min_frequency=1).steps[0]
    assert (step.left, step.right) == (ord("a"), ord("a"))
    assert (step.count, step.replacements) == (count, replacements)


# -- edge cases -------------------------------------------------------------------------------
EDGE_TEXTS = {
    "empty": ("", "gpt2", 0),
    "one-character": ("a", "gpt2", 0),
    "whitespace-only-under-whitespace-split": (" \n\t ", "whitespace", 0),
    "two-letters": ("ab", "gpt2", 1),
}


@pytest.mark.parametrize(("text", "pretokenizer", "merges"), EDGE_TEXTS.values(), ids=EDGE_TEXTS.keys())
@pytest.mark.parametrize("unit", ["byte", "char"])
def test_tiny_corpora_stop_with_no_pairs_instead_of_raising(text, pretokenizer, merges, unit):
    trace = train_text(text, unit=unit, pretokenizer=pretokenizer, merges=10, min_frequency=1)
    assert len(trace.steps) == merges
    assert trace.stop_reason == STOP_NO_PAIRS
    assert trace.stop_detail


def test_whitespace_only_text_under_gpt2_merges_its_spaces_then_stops():
    trace = train_text("    ", merges=10, min_frequency=1)
    assert learned_tokens(trace)[0] == "  "
    assert trace.stop_reason == STOP_NO_PAIRS


def test_fewer_distinct_pairs_than_merges_requested_stops_with_no_pairs():
    trace = train_text("abc abd", merges=100, min_frequency=1)
    assert 0 < len(trace.steps) < 100
    assert trace.stop_reason == STOP_NO_PAIRS


def test_pairs_seen_once_are_not_merged_under_the_default_min_frequency():
    trace = train_text("ab", merges=10)
    assert trace.steps == ()
    assert trace.stop_reason == STOP_MIN_FREQUENCY


@pytest.mark.parametrize(
    ("special_tokens", "minimum"), [((), 256), ((EOT,), 257)], ids=["bytes-only", "bytes-and-one-special"]
)
def test_vocab_size_below_the_base_raises_a_settings_error_naming_the_minimum(special_tokens, minimum):
    with pytest.raises(SettingsError, match=f"at least {minimum}"):
        train_text("low lower", vocab_size=100, special_tokens=special_tokens)


def test_vocab_size_counts_base_merges_and_special_tokens():
    trace = train_text("low low lower lower", vocab_size=259, min_frequency=1, special_tokens=(EOT,))
    assert len(trace.steps) == 2
    assert trace.vocab_size() == 259


def test_a_spent_time_limit_stops_training_and_says_so(slow_clock):
    preset = PRESETS["sennrich"]
    trace = train(preset.corpus(), preset.settings, time_limit_s=1)
    assert trace.steps == ()
    assert trace.stop_reason == STOP_TIME_LIMIT
    assert "time limit of 1 s" in trace.stop_detail


def test_progress_is_reported_every_hundred_merges():
    calls = []
    text = " ".join(f"w{n}x{n * 7}" for n in range(400))
    trace = train_text(text, merges=250, min_frequency=1)
    assert len(trace.steps) == 250
    train(Corpus.from_text(text), trace.settings, progress=lambda done, wanted: calls.append((done, wanted)))
    assert calls == [(100, 250), (200, 250)]


def test_char_level_tokenizer_names_characters_outside_its_alphabet():
    tokenizer = Tokenizer.from_trace(train_preset("hf-course"))
    assert tokenizer.decode(tokenizer.encode("hug pun")) == "hug pun"
    with pytest.raises(UnknownTokenError, match="U\\+0078"):
        tokenizer.encode("hux")


# -- special tokens ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def special_trace():
    return train_text(SPECIAL_TEXT, merges=50, min_frequency=1, special_tokens=(EOT,))


def test_special_tokens_are_split_out_of_the_training_text(special_trace):
    corpus = Corpus.from_text(SPECIAL_TEXT, special_tokens=(EOT,))
    assert corpus.special_count == 3
    assert all("<" not in word and "|" not in word for word, _ in corpus.words)


def test_special_tokens_are_never_merged(special_trace):
    assert special_trace.steps  # there was something to learn
    assert all(b"<" not in special_trace.tokens[s.new_id].data for s in special_trace.steps)


def test_special_token_ids_come_after_the_last_merge(special_trace):
    assert special_trace.special_ids == {EOT: 256 + len(special_trace.steps)}
    assert special_trace.token_text(256 + len(special_trace.steps)) == EOT


def test_special_token_ids_are_the_same_at_every_step(special_trace):
    early = Tokenizer.from_trace(special_trace, step=1)
    assert early.special_tokens == special_trace.special_ids
    assert early.encode(EOT, allowed_special="all") == [256 + len(special_trace.steps)]


def test_encoding_special_token_text_raises_by_default(special_trace):
    with pytest.raises(SpecialTokenError, match="allowed_special"):
        Tokenizer.from_trace(special_trace).encode(f"low{EOT}low")


def test_allowed_special_all_encodes_special_text_as_its_id(special_trace):
    tokenizer = Tokenizer.from_trace(special_trace)
    low = tokenizer.encode("low")
    eot = special_trace.special_ids[EOT]
    assert tokenizer.encode(f"low{EOT}low", allowed_special="all") == [*low, eot, *low]


def test_disallowed_special_empty_encodes_special_text_as_plain_text(special_trace):
    tokenizer = Tokenizer.from_trace(special_trace)
    text = f"low{EOT}low"
    ids = tokenizer.encode(text, disallowed_special=())
    assert special_trace.special_ids[EOT] not in ids
    assert ids == tokenizer.encode_ordinary(text)
    assert tokenizer.decode(ids) == text


# -- what each step records -------------------------------------------------------------------
@pytest.fixture(scope="module")
def sennrich_trace():
    return train_preset("sennrich")


def test_tokens_after_each_step_drop_by_that_steps_replacements(sennrich_trace):
    before = sennrich_trace.initial_tokens
    for step in sennrich_trace.steps:
        assert step.replacements > 0
        assert step.tokens_after == before - step.replacements
        before = step.tokens_after


def test_initial_tokens_are_the_corpus_bytes_for_the_byte_unit(sennrich_trace):
    assert sennrich_trace.initial_tokens == sennrich_trace.corpus_bytes == len(PRESETS["sennrich"].corpus_text)


def test_compression_curve_starts_at_one_byte_per_token_and_follows_the_steps(sennrich_trace):
    curve = sennrich_trace.compression_curve()
    assert curve[0] == (0, sennrich_trace.initial_tokens, 1.0)
    assert [tokens for _, tokens, _ in curve[1:]] == [s.tokens_after for s in sennrich_trace.steps]
    ratios = [ratio for _, _, ratio in curve]
    assert ratios == sorted(ratios) and ratios[-1] > 1.0


def test_vocab_size_at_a_step_is_base_plus_merges_so_far(sennrich_trace):
    assert [sennrich_trace.vocab_size(k) for k in (0, 3, 10)] == [256, 259, 266]
    assert sennrich_trace.vocab_size() == 266


def test_tokenizer_cut_at_step_k_encodes_with_the_first_k_merges_only(sennrich_trace):
    def pieces(step: int) -> list[str]:
        tokenizer = Tokenizer.from_trace(sennrich_trace, step=step)
        return [tokenizer.decode([token_id]) for token_id in tokenizer.encode(" newest")]

    assert pieces(0) == [" ", "n", "e", "w", "e", "s", "t"]
    assert pieces(2) == [" ", "n", "e", "w", "est"]
    assert pieces(8) == [" ", "newest"]
    assert pieces(9) == [" newest"]


def test_tokenizer_cut_at_a_step_outside_the_trace_raises(sennrich_trace):
    with pytest.raises(ValueError, match="from 0 to 10"):
        Tokenizer.from_trace(sennrich_trace, step=11)


def test_every_step_names_its_winner_first_among_the_tied_and_top_pairs(sennrich_trace):
    for step in sennrich_trace.steps:
        assert step.tied[0] == (step.left, step.right)
        assert len(step.tied) == min(step.tie_count, sennrich_trace.settings.max_ties)
        assert (step.top_pairs[0].left, step.top_pairs[0].right, step.top_pairs[0].count) == (
            step.left, step.right, step.count,
        )
        counts = [pair.count for pair in step.top_pairs]
        assert counts == sorted(counts, reverse=True)
