"""Check my encoder diagnoses each classic encoder mistake by name, with its fix, and passes a correct
encoder: from the engine and the command line (``check-encode``, ids from a file and from running the
learner's own program).

The learners live in ``tests/learner_encoders.py`` and share no code with the engine. They encode
the probe texts with the suite's tokenizer, whose token ids are not in the order of its merges (as
in a vocabulary file sorted by token), so every mistake, the merged token's rank among them, shows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bpe.checking.encode_cases import EncodeCase, probe_texts, read_cases
from bpe.checking.encode_check import UNEXPLAINED, check_encoder
from bpe.checking.encode_rules import ENCODER_MISTAKES
from bpe.cli.commands import main
from bpe.errors import FormatError

from .learner_encoders import LEARNER_ENCODERS, suite_tokenizer

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = [code for code in LEARNER_ENCODERS if code is not None]
CODE = {"left-to-right-everywhere": "left-to-right"}
"""A learner's name for a second way to make a mistake -> the mistake's code."""
LABEL = {"left-to-right-everywhere": "merged everywhere", "left-to-right": "then again"}
"""A piece of the label the verdict's re-encoding must have, where a mistake has several ways."""


def learner_cases(code: str | None, first: tuple[str, ...] = ()) -> list[EncodeCase]:
    """The learner's ids for the probe texts (``first``: these texts before them)."""
    tokenizer, merges, specials = suite_tokenizer()
    texts = dict.fromkeys([*first, *probe_texts(tokenizer)])
    return [EncodeCase(text, tuple(LEARNER_ENCODERS[code](text, merges, specials))) for text in texts]


def test_every_named_mistake_has_a_learner_in_the_suite():
    assert {CODE.get(code, code) for code in MISTAKES} == set(ENCODER_MISTAKES) and len(MISTAKES) >= 8


@pytest.mark.parametrize("learner", MISTAKES)
def test_a_learner_encoder_with_one_mistake_is_diagnosed_with_its_name_and_fix(learner):
    code = CODE.get(learner, learner)
    tokenizer, _, _ = suite_tokenizer()
    result = check_encoder(tokenizer, learner_cases(learner))
    assert result.matching < result.total  # the probe texts make this mistake show
    assert (result.verdict_kind, [cause.code for cause in result.diagnosis]) == ("explained", [code])
    (cause,) = result.diagnosis
    assert cause.title == ENCODER_MISTAKES[code].title
    assert f"reproduces every id of your {result.total} texts. Fix ({ENCODER_MISTAKES[code].line}): " in cause.message
    assert result.alternatives == ()  # the probes tell every other mistake from this one
    assert LABEL.get(learner, "") in result.best.label


def test_a_correct_learner_encoder_passes_every_probe_text():
    tokenizer, _, _ = suite_tokenizer()
    result = check_encoder(tokenizer, learner_cases(None))
    assert (result.matching, result.diagnosis, result.difference, result.verdict_kind) == (result.total, (), None, "correct")
    assert result.alternatives == ()  # no registered mistake passes every probe


def test_a_merge_order_mistake_is_shown_in_the_learners_notation_with_the_ranks_that_decide():
    tokenizer, _, _ = suite_tokenizer()
    result = check_encoder(tokenizer, learner_cases("left-to-right", first=(" lowest newest widest",)))
    d = result.difference
    assert d.text == " lowest newest widest" and d.token == 0
    assert d.yours_shown[:4] == ("·l", "ow", "es", "t") and d.reference_shown[:4] == ("·lo", "w", "e", "st")
    assert "At the first difference your encoder made ow (merge 651) where BPE makes ·lo (merge 213)" in result.diagnosis[0].message


def test_ids_that_no_mistake_explains_are_said_so_with_whether_they_spell_the_text_and_what_to_print():
    tokenizer, _, _ = suite_tokenizer()
    cases = [EncodeCase(case.text, tuple(reversed(case.ids))) for case in learner_cases(None)]
    result = check_encoder(tokenizer, cases)
    (cause,) = result.diagnosis
    assert (cause.code, result.verdict_kind) == (UNEXPLAINED, "unknown") and not result.spells_text
    assert cause.message.startswith("Not one of the mistakes I know: none of the ")
    assert "Your ids do not even decode to your texts" in cause.message
    assert "print the chunks your encoder cuts that text into, then each pair your loop merges" in cause.message


def test_cases_that_are_no_texts_with_ids_are_refused_with_the_shape_to_write():
    with pytest.raises(FormatError, match=r'ids.json item 1 is 5, not a text with its ids\. Write a JSON list .*"text": " embraced"'):
        read_cases("[5]", name="ids.json")
    assert [case.ids for case in read_cases('{"text": "a", "ids": [1]}\n{"text": "b", "ids": [2]}\n', name="a.jsonl")] == [(1,), (2,)]


# -- the command line ----------------------------------------------------------------------------------
def _files(tmp_path: Path, code: str | None) -> tuple[str, str]:
    tokenizer, _, _ = suite_tokenizer()
    tokenizer.save(tmp_path / "suite.json")
    (tmp_path / "ids.json").write_text(json.dumps([{"text": case.text, "ids": list(case.ids)} for case in learner_cases(code)]),
                                       encoding="utf-8")
    return str(tmp_path / "suite.json"), str(tmp_path / "ids.json")


def test_the_cli_diagnoses_ids_from_a_file_as_json(tmp_path, capsys):
    tokenizer_path, ids_path = _files(tmp_path, "pretokenization")
    assert main(["check-encode", "--tokenizer", tokenizer_path, "--ids", ids_path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [cause["code"] for cause in report["diagnosis"]] == ["pretokenization"] and report["verdict_kind"] == "explained"
    assert report["matching"] < report["total"] == len(probe_texts(suite_tokenizer()[0]))
    difference = report["first_difference"]
    assert (difference["text"], difference["yours_shown"][:2]) == ("one\n\ntwo", ["↵↵", "t"])  # one ↵ ↵ two in the tokenizer's chunks


def test_the_cli_runs_the_learners_encoder_on_the_probe_texts_and_prints_the_fix(tmp_path, capsys):
    tokenizer_path, _ = _files(tmp_path, None)
    _, merges, specials = suite_tokenizer()
    (tmp_path / "model.json").write_text(json.dumps({"merges": merges, "specials": specials}), encoding="utf-8")
    script = tmp_path / "my_bpe.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.learner_encoders import LEARNER_ENCODERS\n"
        f"model = json.load(open({str(tmp_path / 'model.json')!r}))\n"
        "merges = [tuple(m) for m in model['merges']]\n"
        "print(LEARNER_ENCODERS['off-by-one'](sys.stdin.read(), merges, model['specials']))\n", encoding="utf-8")
    assert main(["check-encode", "--tokenizer", tokenizer_path, "--command", f"{sys.executable} {script}"]) == 0
    out = capsys.readouterr().out
    texts = len(probe_texts(suite_tokenizer()[0]))
    assert out.startswith(f"0 of {texts} texts encode as the tokenizer does (the suite's tokenizer; special-token text read as special tokens)")
    assert "[off-by-one] Your ids are the right tokens, numbered one off" in out and "Fix (the numbering): " in out


def test_an_encoder_command_that_fails_ends_with_one_line_and_exit_code_2(tmp_path, capsys):
    tokenizer_path, _ = _files(tmp_path, None)
    assert main(["check-encode", "--tokenizer", tokenizer_path, "--command", f"{sys.executable} -c 'import sys; sys.exit(3)'"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "exited with code 3" in err and err.count("\n") == 1


def test_a_learners_merges_file_is_a_tokenizer_numbered_as_minbpe_numbers_it(tmp_path, capsys):
    pairs = [(b"a", b"a"), (b"aa", b"b")]
    (tmp_path / "merges.txt").write_text("a a\naa b\n", encoding="utf-8")
    ids = {"aab": [257], "aaa b": [256, 97, 32, 98]}
    (tmp_path / "ids.json").write_text(json.dumps(ids), encoding="utf-8")
    assert main(["check-encode", "--merges", str(tmp_path / "merges.txt"), "--ids", str(tmp_path / "ids.json"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["matching"], report["total"], report["diagnosis"]) == (2, 2, [])
    assert len(pairs) == 2


def test_a_chunk_too_long_for_a_loop_that_starts_again_is_not_re_encoded_by_it_and_the_check_still_answers():
    from bpe import PRESETS, train
    from bpe.errors import BpeError
    from bpe.encoding.tokenizer import Tokenizer

    wikipedia = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))  # split: none
    text = "aaabdaaabac" * 100  # one chunk of 1,100 symbols: such a loop would cost the square of it
    with pytest.raises(BpeError, match="a chunk of 1,100 symbols is over the 1,000 this loop is re-run on"):
        ENCODER_MISTAKES["left-to-right"].variants(wikipedia, "allowed")[0].encode(wikipedia, text, "allowed")
    result = check_encoder(wikipedia, [EncodeCase(text, (97,) * len(text))])
    assert [cause.code for cause in result.diagnosis] == [UNEXPLAINED] and result.skipped == 0
