"""The Train page's step, as pure view models: the merge seen in the corpus, and honest numbers.

Golden values come from the sources: Sennrich et al.'s corpus " low low low low low lower lower
widest widest widest newest newest newest newest newest newest" holds "st" 9 times (6 newest +
3 widest), and so does "es"; "aaaa" holds the pair a + a at 3 positions, of which a left-to-right
merge replaces 2; Wikipedia's "aaabdaaabac" ends as "XdXac", where no pair repeats.
"""

import re
from dataclasses import replace
from functools import cache

import pytest

from bpe.encoding.tokenizer import Tokenizer
from bpe.text.corpus import Corpus
from bpe.training.presets import PRESETS
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train
from bpe.views.charts import STATUS_COLORS, compression_chart, pair_chart, pair_legend_html, pair_rows
from bpe.views.narration import narrate_step, retrain_notice
from bpe.views.occurrences import chunks_of, merged, pairs_after_training, training_corpus
from bpe.views.stats import drawn_tokens_note, step_stats
from bpe.views.train_step import corpus_block, stop_html

SENNRICH = PRESETS["sennrich"]
BADGE = re.compile(r'class="bpe-join bpe-join-(replaced|overlap)" title="occurrence')


@cache
def trained(name, **changes):
    preset = PRESETS[name]
    return train(preset.corpus(), replace(preset.settings, **changes))


def own(text, **settings):
    settings = TrainSettings(**settings)
    return train(Corpus.from_text(text, pretokenizer=settings.pretokenizer, special_tokens=settings.special_tokens), settings)


def chip_text(span: str) -> str:
    return re.sub(r"<[^>]+>", "", span)


# -- before the merge: where the pair occurs ------------------------------------------------------
def test_step_zero_on_sennrich_numbers_exactly_the_nine_places_of_s_t():
    block = corpus_block(trained("sennrich"), text=SENNRICH.corpus_text, step=0)
    assert BADGE.findall(block) == ["replaced"] * 9
    # each badge sits between an "s" chip and a "t" chip
    around = re.findall(r'>([^<>]+)</span><span class="bpe-join bpe-join-replaced"[^>]*></span><span[^>]*>([^<>]+)<', block)
    assert around == [("s", "t")] * 9
    assert "bpe-after" not in block  # nothing is merged yet


def test_aaaa_with_no_pre_tokenizer_shows_three_counted_of_which_two_replaced():
    trace = own("aaaa", pretokenizer="none", merges=1)
    block = corpus_block(trace, text="aaaa", step=1)
    before = block.split('class="bpe-layer bpe-after"')[0]
    assert BADGE.findall(before) == ["replaced", "overlap", "replaced"]
    assert "3 counted in all" in before and "the 2 places merge 1 replaces" in before


def test_after_the_merge_the_new_tokens_are_outlined():
    block = corpus_block(trained("sennrich"), text=SENNRICH.corpus_text, step=3)
    before, after = block.split('class="bpe-layer bpe-after"')
    assert "bpe-new" not in before
    assert len(re.findall(r'class="bpe-tok[^"]* bpe-new"', after)) == 7  # " low" x5 and " lower" x2 hold "ow"
    assert 'title="id 258 · bytes 6f 77 · ow · new at this step · made by merge 3: o + w"' in after


def test_every_bar_of_the_chart_links_to_its_places_in_the_corpus():
    trace = trained("sennrich")
    block = corpus_block(trace, text=SENNRICH.corpus_text, step=0)
    keys = list(pair_rows(trace, 0)["key"])
    assert keys[:2] == ["bpe-pair-1", "bpe-pair-2"]
    # bar 2 is e + s (9 times): its left halves are the 9 "e" chips before an "s"
    lefts = re.findall(r'data-l="2"[^>]*>([^<]*)<', block)
    assert lefts == ["e"] * 9
    assert pair_chart(trace, 0).to_dict()["layer"][0]["encoding"]["description"] == {"field": "key", "type": "nominal"}


def test_the_corpus_breaks_only_between_words():
    block = corpus_block(trained("sennrich"), text=" low lower", step=0)
    words = re.findall(r'<span class="bpe-word">(.*?)</span>(?=<span class="bpe-word">|</div>)', block)
    assert [chip_text(word) for word in words] == ["·low", "·lower"]


def test_pairs_are_never_marked_across_a_gap_the_pre_tokenizer_leaves_out():
    trace = own("ab-ab-ab", pretokenizer=r"regex:ab", merges=1)
    chunks = chunks_of(Tokenizer.from_trace(trace, step=0), "ab-ab-ab")
    assert [chunk.trained for chunk in chunks] == [True, False, True, False, True]
    block = corpus_block(trace, text="ab-ab-ab", step=0)
    assert BADGE.findall(block) == ["replaced"] * 3  # a + b three times; b + - and - + a never


# -- honest numbers and words ---------------------------------------------------------------------
def test_one_definition_of_tokens_in_the_corpus_special_tokens_said_apart():
    trace = own("ab<|e|>ab", special_tokens=("<|e|>",), merges=1, pretokenizer="none")
    (_, _, tokens, _) = step_stats(trace, 0)
    assert (tokens.label, tokens.value) == ("Tokens in corpus", "4")
    block = corpus_block(trace, text="ab<|e|>ab", step=0)
    assert '5 tokens drawn: 4 in the training words (the &quot;Tokens in corpus&quot; figure) + 1 special token.' in block


def test_a_custom_regex_gap_is_counted_apart_from_the_training_words():
    note = drawn_tokens_note(drawn=95, trained=16, special=0, tokens_in_corpus=16, whole=True, word_table=False)
    assert note.startswith("95 tokens drawn: 16 in the training words") and "79 in text the pre-tokenizer leaves out" in note


def test_a_char_run_with_a_marker_counts_characters_per_token_and_says_what_the_marker_counts_as():
    # "low lower": 8 characters and 2 markers, 10 starting tokens; bytes over tokens said 0.80
    trace = own("low lower", unit="char", end_of_word="</w>", pretokenizer="whitespace", merges=2)
    per_token = step_stats(trace, 0)[3]
    assert (per_token.label, per_token.value) == ("Characters per token", "1.00")
    assert per_token.change == "each </w> counts as one character"
    assert step_stats(trace, 2)[3].value == "1.67"  # l+o, lo+w: "low </w>" and "low e r </w>", 6 tokens
    assert "1.67 characters per token" in narrate_step(trace, 2).to_text()


def test_step_zero_says_next_not_merged_and_later_steps_say_merged():
    assert pair_rows(trained("sennrich"), 0)["label"][0] == "9 ◀ next"
    assert pair_rows(trained("sennrich"), 1)["label"][0] == "9 ◀ merged"
    assert "the pair merged next" in pair_legend_html(0) and "the pair merged at this step" in pair_legend_html(1)


def test_the_legend_uses_the_charts_own_names_and_colours():
    spec = pair_chart(trained("sennrich"), 1).to_dict()
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    legend = pair_legend_html(1)
    shown = re.findall(r'background:(#[0-9A-F]{6})"></span> <b>(\w+)</b>', legend)
    assert shown == list(zip(scale["range"], scale["domain"])) == [(c, s) for s, c in STATUS_COLORS.items()]
    assert spec["layer"][0]["encoding"]["color"]["legend"] is None  # one legend, not two


def test_step_zero_narration_names_the_tie_and_the_rules_reason():
    text = narrate_step(trained("sennrich"), 0).to_text()
    assert "Merge 1 will join 's' + 't', the most frequent pair (9 times)." in text
    assert "Tied at 9: 's' + 't', 'e' + 's'" in text
    assert "The lexicographic-max rule prefers the greatest pair of byte strings, so it picks 's' + 't'." in text


def test_the_last_step_shows_the_pair_counts_that_stopped_training():
    trace = trained("wikipedia")
    pairs = pairs_after_training(trace, training_corpus(trace, text=PRESETS["wikipedia"].corpus_text, table=None))
    assert [(trace.token_text(p.left), trace.token_text(p.right), p.count) for p in pairs] == [
        ("aaab", "d", 1), ("d", "aaab", 1), ("aaab", "a", 1), ("a", "c", 1),
    ]
    shown = stop_html(trace, pairs)
    assert "After the last merge</b> the best pairs are aaab + d (once)" in shown
    assert trace.stop_detail in shown


def test_a_word_table_run_counts_its_final_pairs_by_the_tables_counts():
    table = {"low": 5, "lower": 2}
    trace = train(Corpus.from_word_counts(table), TrainSettings(merges=1, tie_break="first-seen"))
    pairs = pairs_after_training(trace, training_corpus(trace, text=None, table=table.items()))
    # after l + o: lo + w stands in every word (5 + 2), w + e and e + r only in "lower"
    assert [(trace.token_text(p.left), trace.token_text(p.right), p.count) for p in pairs] == [
        ("lo", "w", 7), ("w", "e", 2), ("e", "r", 2),
    ]


def test_a_changed_setting_says_from_which_merge_the_merges_differ():
    # lexicographic-max picks s + t at the 9-way... 2-way tie; first-seen picks e + s (" widest" comes first)
    notice = retrain_notice(trained("sennrich"), trained("sennrich", tie_break="first-seen"))
    assert notice == "Retrained with tie-break first-seen: merges now differ from merge 1 on (was s + t, now e + s)."
    same_start = retrain_notice(trained("sennrich"), trained("sennrich", merges=4))
    assert same_start == "Retrained with merges 4: the same merges, 10 of them before and 4 now."


def test_an_early_stop_is_said_from_step_zero():
    trace = trained("sennrich", merges=30)
    done = len(trace.steps)
    assert done < 30
    assert f"Training stopped after {done} of the 30 merges asked for" in narrate_step(trace, 0).to_text()
    assert step_stats(trace, 0)[0].change == "stopped early: 30 merges were asked for"
    assert step_stats(trained("sennrich"), 0)[0].change is None


@pytest.mark.parametrize("text", ["<script>alert(1)</script>", '" onmouseover="x'])
def test_hostile_corpus_text_is_escaped_in_both_moments(text):
    trace = own(text + text, pretokenizer="none", merges=1)
    block = corpus_block(trace, text=text + text, step=1)
    assert "<script" not in block and ' onmouseover="x' not in block


RUNS = {
    "sennrich (gpt2 split)": (lambda: trained("sennrich"), SENNRICH.corpus_text),
    "python-docs sample": (lambda: trained("python-docs"), PRESETS["python-docs"].corpus_text[:1500]),
    "char run with </w>": (lambda: own("low lower newest widest", unit="char", end_of_word="</w>", pretokenizer="whitespace", merges=12), "low lower newest widest"),
    "custom regex gaps + special": (lambda: own("aa-aa<|e|>aaa-a", pretokenizer="regex:a+", special_tokens=("<|e|>",), merges=3), "aa-aa<|e|>aaa-a"),
}


@pytest.mark.parametrize("name", list(RUNS))
def test_one_more_merge_applied_to_the_chunks_equals_encoding_again(name):
    build, text = RUNS[name]
    trace = build()
    for step in range(1, min(len(trace.steps), 60) + 1):
        before = chunks_of(Tokenizer.from_trace(trace, step=step - 1), text)
        merge = trace.steps[step - 1]
        assert merged(before, (merge.left, merge.right), merge.new_id) == chunks_of(Tokenizer.from_trace(trace, step=step), text)


def test_holding_before_checks_the_before_switch_and_stops_the_swap():
    trace = trained("sennrich")
    moving = corpus_block(trace, text=SENNRICH.corpus_text, step=3)
    held = corpus_block(trace, text=SENNRICH.corpus_text, step=3, hold_before=True)
    assert "bpe-animate" in moving and 'id="bpe-moment-after" checked' in moving
    assert "bpe-animate" not in held and 'id="bpe-moment-before" checked' in held


def test_without_a_pre_tokenizer_a_merge_is_said_to_replace_in_the_text_not_in_one_distinct_word():
    text = narrate_step(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings), 1).to_text()
    assert "It replaced the pair 2 times in the text (fewer" in text and "distinct word" not in text
    assert "in 2 distinct words." in narrate_step(trained("sennrich"), 1).to_text()  # " newest" and " widest"


def test_the_step_says_in_words_that_training_stopped_early():
    trace = train(PRESETS["wikipedia"].corpus(), replace(PRESETS["wikipedia"].settings, merges=10))
    step = step_stats(trace, 1)[0]
    assert (step.value, step.change) == ("1 of 3", "stopped early: 10 merges were asked for")


def test_the_compression_charts_count_merges_in_whole_numbers():
    axis = compression_chart(trained("sennrich"), 3).to_dict()["layer"][0]["encoding"]["x"]["axis"]
    assert axis["format"] == "d" and axis["tickMinStep"] == 1
