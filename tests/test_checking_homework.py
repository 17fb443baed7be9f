"""Check my BPE finds a bug in the code, not the settings: two homework trainers written as students
write them are diagnosed by name, and the check says "your settings match; your trainer goes wrong at
merge N" with the counts that differ there; with the settings given, guessed, and from the CLI.

* the Sennrich paper's code, typed in with a plain ``str.replace`` in ``merge_vocab``: it merges
  across symbol boundaries (``string-replace``);
* minbpe's loop, made faster with counts patched after each merge but never decremented
  (``stale-counts``).

Both live in ``tests/learners.py`` and share no code with the engine.
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from bpe.checking import CheckCorpus, check_merges, read_learner_merges
from bpe.cli.commands import main
from bpe.training.presets import python_docs_text
from bpe.training.settings import TrainSettings

from .learners import minbpe_patched_counts, paper_with_str_replace

TEXT_CHARS = 20_000
PAPER = TrainSettings(unit="char", pretokenizer="whitespace", end_of_word="</w>", tie_break="first-seen", min_frequency=1)
CS336 = TrainSettings(unit="byte", pretokenizer="gpt2", tie_break="lexicographic-max", min_frequency=1)
# trainer -> (its merges on the text, the settings it means, the code, how many leading merges match, the verdict)
HOMEWORK = {
    "paper": (lambda text: paper_with_str_replace(text, 60), PAPER, "string-replace", 28,
              "Your settings match: with them the reference makes your first 28 merges. Your trainer goes wrong at "
              "merge 29 (the replace): it merged e + x where the reference merges in + g. The counts that differ "
              "there: in + g 76 times in your training, 88 times in the reference's. Re-trained that way (merges "
              "replaced in the spaced word with str.replace), the reference reproduces all 60 of your merges."),
    "minbpe": (lambda text: minbpe_patched_counts(text, 100), CS336, "stale-counts", 3,
               "Your settings match: with them the reference makes your first 3 merges. Your trainer goes wrong at "
               "merge 4 (the count update): it merged t + h where the reference merges h + e. The counts that differ "
               "there: t + h 333 times in your training, 84 times in the reference's. Re-trained that way (pair "
               "counts patched after each merge, never decremented), the reference reproduces all 100 of your merges."),
}


@cache
def homework(trainer: str) -> tuple[str, list]:
    text = python_docs_text()[:TEXT_CHARS]
    return text, HOMEWORK[trainer][0](text)


@pytest.mark.parametrize("guess", [False, True], ids=["settings given", "settings guessed"])
@pytest.mark.parametrize("trainer", list(HOMEWORK))
def test_a_homework_trainers_bug_is_named_and_the_settings_are_said_to_match(trainer, guess):
    text, merges = homework(trainer)
    _, settings, code, matching, verdict = HOMEWORK[trainer]
    result = check_merges(merges, CheckCorpus(text=text), TrainSettings(min_frequency=1) if guess else settings, guess=guess)
    assert (result.matching, result.total) == (matching, len(merges))
    assert [cause.code for cause in result.diagnosis] == [code]
    assert result.best.matching == len(merges)  # the mistake reproduces every merge
    assert (result.verdict.kind, result.verdict.headline) == ("explained", verdict)
    if guess:
        assert result.guess.quality == "all" and "probably not yours" not in result.guess.sentence()


def test_a_tie_rule_difference_is_said_to_be_a_tie_never_that_the_settings_match():
    from .learners import LEARNERS

    text = python_docs_text()[:TEXT_CHARS]
    result = check_merges(LEARNERS["tie-break"](text, 60), CheckCorpus(text=text), CS336)
    assert [cause.code for cause in result.diagnosis] == ["tie-break"] and result.verdict.is_tie
    assert " is a tie: " in result.verdict.headline and "Your settings match" not in result.verdict.headline


def test_an_unexplained_difference_after_matching_merges_points_at_the_code_and_says_what_to_print():
    text, merges = homework("minbpe")
    result = check_merges(merges[:3] + [(b"z", b"q")], CheckCorpus(text=text), CS336)
    (cause,) = result.diagnosis
    assert (cause.code, result.verdict.kind, cause.message) == ("unexplained", "unknown", result.verdict.headline)
    assert cause.message.startswith("Not one of the mistakes I know: none of the ")
    assert cause.message.endswith(
        "Your settings make your first 3 merges, so the difference is in your code. At merge 4 yours merges z + q, the "
        "reference h + e. In the reference's training z + q does not occur at all (so your trainer saw other text or "
        "other symbols, or merged earlier pairs differently) and h + e 288 times: print your trainer's count of both "
        "just before that merge (e.g. `print(stats[(b'z', b'q')], stats[(b'h', b'e')])`) and "
        "look at the line that counts them.")


def test_a_learners_first_merge_of_two_hashes_is_a_merge_not_a_header():
    assert read_learner_merges("# #\n## #\n", name="merges.txt").pairs == ((b"#", b"#"), (b"##", b"#"))
    assert read_learner_merges("#version: 0.2\ne s\n", name="merges.txt").pairs == ((b"e", b"s"),)


@pytest.mark.parametrize("trainer", list(HOMEWORK))
def test_the_cli_names_the_homework_trainers_bug_and_says_the_settings_match(tmp_path, capsys, trainer):
    text, merges = homework(trainer)
    _, settings, code, _, verdict = HOMEWORK[trainer]
    (tmp_path / "corpus.txt").write_text(text, encoding="utf-8")
    (tmp_path / "merges.json").write_text(json.dumps([[list(a), list(b)] for a, b in merges]), encoding="utf-8")
    options = ["--unit", settings.unit, "--pretokenizer", settings.pretokenizer, "--tie-break", settings.tie_break]
    if settings.end_of_word:
        options += ["--end-of-word", settings.end_of_word]
    base = ["check", "--merges", str(tmp_path / "merges.json"), "--file", str(tmp_path / "corpus.txt")]
    assert main([*base, *options, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [cause["code"] for cause in report["diagnosis"]] == [code] and report["verdict"] == verdict
    if trainer == "minbpe":  # guessed, as printed (the paper's guess is checked above, without the CLI)
        assert main([*base, "--guess-settings"]) == 0
        printed = capsys.readouterr().out
        assert f"verdict (explained): {verdict}" in printed and f"[{code}] Your trainer counts the pairs once" in printed
