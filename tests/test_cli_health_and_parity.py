"""The command line offers what the app offers on a tokenizer: vocabulary health and parity-aware training.

``python -m bpe health`` prints the Vocabulary health page's groups and rows (the same builder,
``bpe.notation.health_rows``, so the page's table and the command say the same about each token);
``python -m bpe train --language NAME=PATH ... --objective parity-aware`` makes the Parity-aware lab's
run. Each is run as a user runs it, a subprocess, and compared with the engine called directly.
"""

from __future__ import annotations

import json

import pytest

from bpe import PRESETS, Corpus, Tokenizer, TrainSettings, load_pretrained, train, vocabulary_health
from bpe.teaching.udhr import ARTICLE_1
from bpe.views.vocab_health import group_frame, groups

from .test_engine_cli import run_bpe, run_ok

TEXT = "hello world, the tokenizer's tokens: 東京 😀 <|endoftext|>"


def test_health_of_a_pretrained_tokenizer_is_the_pages_table_row_for_row():
    report = json.loads(run_ok("health", "--pretrained", "gpt2", "--text", TEXT, "--show", "5", "--json"))
    gpt2 = load_pretrained("gpt2")
    health = vocabulary_health(gpt2, text=TEXT)
    assert {group: found["count"] for group, found in report["groups"].items()} == groups(health)
    for group, found in report["groups"].items():
        assert found["tokens"] == group_frame(gpt2, health, group).head(5).to_dict("records")  # the page's table
    assert report["groups"]["special"]["tokens"] == [{"id": 50256, "token": "<|endoftext|>", "bytes": 13}]
    assert (report["tokenizer"], report["n_vocab"], report["against"]) == ("gpt2", 50_257, "the text given")


def test_health_of_a_run_is_measured_against_its_own_training_words_at_a_step():
    report = json.loads(run_ok("health", "--preset", "sennrich", "--step", "5", "--json"))
    trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    health = vocabulary_health(Tokenizer.from_trace(trace, step=5), words=[word for word, _ in trace.corpus.words])
    assert {group: found["count"] for group, found in report["groups"].items()} == groups(health)
    assert [row["token"] for row in report["groups"]["never emitted"]["tokens"]] == ["st", "ow", "low"]
    assert report["against"] == "its own training words, at step 5"


def test_health_prints_the_counts_then_each_groups_first_tokens_explained():
    lines = run_ok("health", "--preset", "wikipedia", "--show", "2").splitlines()
    assert lines[0] == "the wikipedia run: 259 tokens, measured against its own training words, at step 3"
    assert lines[1].split() == ["never", "emitted", "2"] and lines[3].split()[-1] == "128"
    assert lines[5] == "never emitted (the first 2 of 2):"
    assert lines[6].split() == ["256", "aa", "(used", "up", "by", "258", "aaab", "=", "aa", "+", "ab)"]


@pytest.fixture(scope="module")
def parallel_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parallel")
    chosen = [sentence for sentence in ARTICLE_1 if sentence.code in ("eng", "hin", "tam")]
    for sentence in chosen:
        (folder / f"{sentence.code}.txt").write_text(sentence.text, encoding="utf-8")
    return folder, {sentence.code: sentence.text for sentence in chosen}


def _languages(folder) -> list[str]:
    return [option for code in ("eng", "hin", "tam") for option in ("--language", f"{code}={folder / f'{code}.txt'}")]


@pytest.mark.parametrize("objective", ["parity-aware", "classic"])
def test_train_on_a_parallel_corpus_makes_the_engines_run_and_records_each_languages_tokens(parallel_files, objective):
    folder, texts = parallel_files
    output = json.loads(run_ok("train", *_languages(folder), "--objective", objective, "--merges", "60", "--json"))
    trace = train(Corpus.from_languages(texts, pretokenizer="gpt2"), TrainSettings(objective=objective, merges=60))
    assert [merge["token"] for merge in output["merges"]] == [trace.token_text(step.new_id) for step in trace.steps]
    assert list(output["languages"]) == ["eng", "hin", "tam"]
    assert [cost["after"] for cost in output["languages"].values()] == list(trace.language_costs(len(trace.steps)))
    assert output["settings"].get("objective", "classic") == objective  # the default is left out of the settings


def test_parity_aware_training_evens_the_languages_costs_out_where_classic_does_not(parallel_files):
    folder, _ = parallel_files
    runs = {objective: json.loads(run_ok("train", *_languages(folder), "--objective", objective, "--merges", "60", "--json"))
            for objective in ("classic", "parity-aware")}
    assert runs["classic"]["merges"] != runs["parity-aware"]["merges"]
    assert runs["parity-aware"]["gini"]["after"] < runs["classic"]["gini"]["after"]
    last = run_ok("train", *_languages(folder), "--objective", "parity-aware", "--merges", "60").splitlines()[-1]
    assert last.startswith("tokens per language, before -> after 60 merges: eng ") and " -> " in last and "; Gini 0." in last


BAD = {
    "no equals sign": (["train", "--language", "eng", "--language", "x=y"], "--language takes NAME=PATH"),
    "one language": (["train", "--language", "eng={eng}", "--objective", "parity-aware"], "two languages or more"),
    "a language twice": (["train", "--language", "eng={eng}", "--language", "eng={eng}"], "--language eng is given twice"),
    "parity-aware on one text": (["train", "--text", "abc", "--objective", "parity-aware"], "needs a corpus of texts by language"),
    "languages and a text": (["train", "--language", "eng={eng}", "--text", "x"], "give exactly one of"),
    "an unknown objective": (["train", "--text", "abc", "--objective", "fairest"], "invalid choice: 'fairest'"),
    "a step past the run": (["health", "--preset", "sennrich", "--step", "50"], "--step must be from 0 to 10"),
    "a step of no run": (["health", "--pretrained", "gpt2", "--step", "3"], "--step picks a step of a --preset's run"),
    "a run and a text": (["health", "--preset", "sennrich", "--text", "x"], "its own training words: leave out --text"),
    "no tokenizer": (["health"], "one of the arguments --tokenizer --pretrained --model --preset is required"),
    "a negative show": (["health", "--preset", "sennrich", "--show", "-1"], "--show must be 0 or more"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_bad_input_exits_2_with_one_line_that_says_what_to_do(case, parallel_files):
    folder, _ = parallel_files
    args, expected = BAD[case]
    result = run_bpe(*(arg.format(eng=folder / "eng.txt") for arg in args))
    assert (result.returncode, len(result.stderr.splitlines())) == (2, 1), result.stderr
    assert expected in result.stderr
