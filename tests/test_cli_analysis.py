"""``python -m bpe lineage`` and ``python -m bpe infer-mix``, run as a user runs them (a subprocess).

The facts they print are the engine's (``tests/test_lineage.py`` checks those against the owners'
files); here the commands must say the same as the engine called directly, and bad options must say
what to write instead.
"""

from __future__ import annotations

import json

import pytest

from bpe import Corpus, Tokenizer, TrainSettings, infer_mix, lineage, load_pretrained, train
from bpe.analysis.mixture import mix_error
from bpe.analysis.samples import sample_text

from .test_engine_cli import run_bpe, run_ok


def test_lineage_of_gpt4_and_llama3_is_the_engines():
    record = json.loads(run_ok("lineage", "--a", "gpt-4", "--b", "llama3", "--json"))
    facts = lineage(load_pretrained("gpt-4"), load_pretrained("llama3"))
    assert (record["relation"], record["common_prefix"], record["only_b"], record["only_a"]) == (
        facts.relation, facts.common_prefix, len(facts.only_b), 0)
    assert record["sizes"] == [100_256, 128_000] and record["only_b_kinds"][0][1] > 1_000


def test_lineage_reads_a_saved_run_and_says_it_in_words(tmp_path):
    start = Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest " * 5), TrainSettings(merges=10)))
    grown = Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest " * 5), TrainSettings(merges=14)))
    start.save(tmp_path / "start.json")
    grown.save(tmp_path / "grown.json")
    out = run_ok("lineage", "--a", str(tmp_path / "start.json"), "--b", str(tmp_path / "grown.json"))
    assert "extends" in out.splitlines()[0] and "only in" in out
    assert "common prefix: 266 ranks" in out


def test_infer_mix_of_a_known_mix_prints_each_share_beside_its_truth():
    record = json.loads(run_ok("infer-mix", "--known", "eng:60,code:40", "--categories", "eng,fra,code",
                               "--merges", "300", "--json"))
    last = record["estimates"][-1]
    assert last["merges"] == 300 and set(last["proportions"]) == {"eng", "fra", "code"}
    assert mix_error(last["proportions"], {"eng": 0.6, "code": 0.4}) <= 0.02
    out = run_ok("infer-mix", "--known", "eng:60,code:40", "--categories", "eng,fra,code", "--merges", "300")
    assert "(true  60.0%)" in out and "mean absolute error" in out


def test_infer_mix_of_a_saved_tokenizer_with_the_learners_own_text(tmp_path):
    mine = "Zorblat quibbles the frumious zorblat; zorblat quibbles again.\n" * 60
    (tmp_path / "mine.txt").write_text(mine, encoding="utf-8")
    text = sample_text("fra") + "\n" + mine * 3
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(text, pretokenizer="gpt4"),
                                           TrainSettings(unit="byte", pretokenizer="gpt4", merges=150)))
    tokenizer.save(tmp_path / "t.json")
    record = json.loads(run_ok("infer-mix", "--tokenizer", str(tmp_path / "t.json"), "--categories", "eng,fra",
                               "--own", f"mine={tmp_path / 'mine.txt'}", "--merges", "150", "--json"))
    direct = infer_mix(tokenizer, {"eng": sample_text("eng"), "fra": sample_text("fra"), "mine": mine}, merges=150)
    assert record["proportions"] == pytest.approx(direct.proportions, abs=1e-6)
    assert direct.proportions["mine"] > direct.proportions["eng"] and direct.proportions["fra"] > direct.proportions["eng"], direct.proportions


@pytest.mark.parametrize(("args", "says"), [
    (("lineage",), "give two tokenizers"),
    (("lineage", "--family", "--a", "gpt2"), "leave out --a and --b"),
    (("infer-mix", "--pretrained", "gpt2", "--categories", "eng,klingon"), "unknown categories klingon"),
    (("infer-mix", "--pretrained", "gpt2", "--merges", "0"), "--merges must be from 1"),
    (("infer-mix", "--pretrained", "gpt2", "--held-out"), "--held-out goes with --known"),
    (("infer-mix", "--known", "eng:60,klingon:40"), "cannot read --known item 'klingon:40'"),
    (("infer-mix", "--pretrained", "gpt2", "--own", "mine"), "write NAME=PATH"),
])
def test_bad_options_say_what_to_write(args, says):
    result = run_bpe(*args)
    assert result.returncode != 0 and says in result.stderr, result.stderr
