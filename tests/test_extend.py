"""Extending a tokenizer: a run that continues a vocabulary is the original run's own continuation,
keeps every old merge, rank and id, and leaves text its new merges never touch as it was.

* Property: training a corpus, cutting the tokenizer at step k and continuing it on the same corpus
  gives exactly merges k+1... of the whole run (pairs, counts, ties, the corpus after each), under
  every tie rule a start can continue and every unit, split and marker.
* GPT-2 extended on the Declaration in Hindi: new ids from 50,257 on, old merges first with their
  ranks, and English encoded exactly as GPT-2 does.
* Errors that teach: settings a start cannot continue.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bpe.cli import commands as cli
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import SettingsError
from bpe.teaching.udhr import ARTICLE_1
from bpe.text.corpus import Corpus
from bpe.training.extend import extend, extension_corpus
from bpe.training.presets import python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.start_state import StartState
from bpe.training.tiebreak import TIE_BREAK_RULES, tie_break_rule
from bpe.training.trace import Trace
from bpe.training.trainer import train

from .examples import examples
from .multilingual import MULTILINGUAL
from .shared_tokenizers import shared_pretrained
from .strategies import TEXT, WORD_TABLE
from .test_formats_gpt2 import SAMPLES

CONTINUABLE_RULES = [name for name in TIE_BREAK_RULES if tie_break_rule(name).candidates is None]
HINDI = next(sentence.text for sentence in ARTICLE_1 if sentence.language == "Hindi")


def spelled_steps(trace: Trace) -> list[tuple]:
    """Each step with its tokens spelled, not numbered: a continued run numbers its tokens after the
    old vocabulary, special tokens included, so only a run without them keeps the very same ids."""
    spell = trace.token_text
    return [
        (
            spell(step.left), spell(step.right), step.count, step.replacements, step.tie_count,
            [(spell(a), spell(b)) for a, b in step.tied], [(spell(a), spell(b)) for a, b in step.top], step.top_counts,
            step.tokens_after, step.words_changed,
        )
        for step in trace.steps
    ]


@settings(max_examples=examples(200), deadline=None)
@given(
    source=st.one_of(TEXT.map(lambda text: ("text", text)), WORD_TABLE.map(lambda table: ("table", table))),
    pretokenizer=st.sampled_from(["none", "whitespace", "gpt2"]),
    tie_break=st.sampled_from(CONTINUABLE_RULES),
    unit=st.sampled_from(["byte", "char"]),
    marker=st.sampled_from([None, ("</w>", "separate"), ("</w>", "attached")]),
    special=st.sampled_from([(), ("<|end|>",)]),
    min_frequency=st.sampled_from([1, 2]),
    data=st.data(),
)
def test_continuing_a_run_from_its_own_step_k_gives_exactly_its_later_merges(
    source, pretokenizer, tie_break, unit, marker, special, min_frequency, data
):
    kind, value = source
    end_of_word, mode = marker or (None, "separate")
    run_settings = TrainSettings(
        unit=unit, pretokenizer=pretokenizer, end_of_word=end_of_word, end_of_word_mode=mode, tie_break=tie_break,
        merges=40, min_frequency=min_frequency, special_tokens=special,
    )
    corpus = Corpus.from_word_counts(value) if kind == "table" else Corpus.from_text(value, pretokenizer=pretokenizer)
    assume(corpus.words)  # (no words, no symbol to carry an attached marker: no tokenizer to continue)
    whole = train(corpus, run_settings)
    k = data.draw(st.integers(0, len(whole.steps)), label="k")

    start = StartState.of(Tokenizer.from_trace(whole, step=k), name=f"step {k}")
    rest = train(corpus, TrainSettings.from_dict({**run_settings.to_dict(), "merges": 40 - k, "special_tokens": ()}), start=start)

    assert spelled_steps(rest) == spelled_steps(whole)[k:]
    assert (rest.stop_reason, rest.stop_detail) == (whole.stop_reason, whole.stop_detail.replace("40", str(40 - k)))
    assert rest.initial_tokens == whole.tokens_after(k) and rest.corpus_bytes == whole.corpus_bytes
    if not special:  # the same ids too
        assert [(s.left, s.right, s.new_id) for s in rest.steps] == whole.merges()[k:]
    assert Tokenizer.from_trace(rest).merges == Tokenizer.from_trace(whole, step=k).merges + rest.merges()


@pytest.fixture(scope="module")
def gpt2() -> Tokenizer:
    return shared_pretrained("gpt2")


@pytest.fixture(scope="module")
def hindi_gpt2(gpt2) -> Trace:
    return extend(gpt2, HINDI, merges=200, name="GPT-2")


def test_gpt2_extended_on_hindi_numbers_its_new_tokens_after_gpt2s_50257(gpt2, hindi_gpt2):
    steps = hindi_gpt2.steps
    assert len(steps) > 25 and hindi_gpt2.stop_reason == "min_frequency"  # one article: pairs seen twice run out
    assert [step.new_id for step in steps] == list(range(50_257, 50_257 + len(steps)))
    assert len(hindi_gpt2.base) == 50_257 and hindi_gpt2.special_ids == {"<|endoftext|>": 50256}
    assert hindi_gpt2.vocab_size() == 50_257 + len(steps) == len(hindi_gpt2.vocab_ids())
    # every new token is spelled from Hindi text's bytes, as GPT-2 would have made it
    assert all(hindi_gpt2.tokens[step.new_id].data in HINDI.encode() for step in steps)


def test_the_old_merges_keep_their_ranks_and_every_old_id_its_token(gpt2, hindi_gpt2):
    extended = Tokenizer.from_trace(hindi_gpt2)
    assert extended.merges[:50_000] == gpt2.merges
    assert extended.merges[50_000:] == hindi_gpt2.merges()
    tokens = extended.tokens
    assert all(tokens[token_id] == token for token_id, token in gpt2.tokens.items())
    assert extended.special_tokens == gpt2.special_tokens and extended.n_vocab == gpt2.n_vocab + len(hindi_gpt2.steps)


def test_text_the_new_merges_never_touch_encodes_as_before(gpt2, hindi_gpt2):
    extended = Tokenizer.from_trace(hindi_gpt2)
    english = python_docs_text()[:50_000]
    assert extended.encode_ordinary(english) == gpt2.encode_ordinary(english)
    for name, text in SAMPLES.items():
        before, after = gpt2.encode(text, allowed_special="all"), extended.encode(text, allowed_special="all")
        if any("\u0900" <= char <= "\u097f" for char in text):  # Devanagari ("combining" ends in नमस्ते)
            assert len(after) < len(before) and extended.decode(after) == text, name
        else:
            assert after == before, name


def test_the_new_text_costs_fewer_tokens_and_decodes_back(gpt2, hindi_gpt2):
    extended = Tokenizer.from_trace(hindi_gpt2)
    before, after = gpt2.encode(HINDI), extended.encode(HINDI)
    assert len(after) < 0.8 * len(before)
    assert extended.decode(after) == HINDI
    assert len(after) == hindi_gpt2.tokens_after(len(hindi_gpt2.steps)) and len(before) == hindi_gpt2.initial_tokens


def test_any_step_of_the_extension_is_a_tokenizer_between_the_two(gpt2, hindi_gpt2):
    middle = Tokenizer.from_trace(hindi_gpt2, step=10)
    assert middle.merges == gpt2.merges + hindi_gpt2.merges(10)
    assert Tokenizer.from_trace(hindi_gpt2, step=0).encode(MULTILINGUAL, allowed_special="all") == gpt2.encode(
        MULTILINGUAL, allowed_special="all"
    )


def test_an_extension_trace_survives_its_json(hindi_gpt2):
    back = Trace.from_json(hindi_gpt2.to_json())
    assert back == hindi_gpt2
    assert back.start == hindi_gpt2.start and back.start.name == "GPT-2"
    assert Tokenizer.from_trace(back).merges == Tokenizer.from_trace(hindi_gpt2).merges


def test_a_char_level_run_continued_on_new_characters_adds_them_as_symbols_after_its_vocabulary():
    run = train(
        Corpus.from_text("low lower newest widest", pretokenizer="whitespace"),
        TrainSettings(unit="char", pretokenizer="whitespace", end_of_word="</w>", end_of_word_mode="attached", merges=5),
    )
    old = Tokenizer.from_trace(run)
    more = extend(old, "żółwie żółwie lowest", merges=3)
    added = [more.token_text(token_id) for token_id in range(old.n_vocab, len(more.base))]
    assert added == ["ó", "ł", "ż", "e</w>"]  # the new characters, and e's end-of-word form (żółwie ends in e)
    assert more.steps[0].new_id == len(more.base) == old.n_vocab + 4
    extended = Tokenizer.from_trace(more)
    assert extended.decode(extended.encode("żółwie lowest")) == "żółwie lowest"
    assert extended.encode("lower newest") == old.encode("lower newest")


def test_a_start_refuses_settings_that_cannot_continue_it(gpt2):
    start = StartState.of(gpt2, name="GPT-2")
    corpus = extension_corpus(gpt2, "hello hello")
    with pytest.raises(SettingsError, match=r"GPT-2 was trained with pretokenizer 'gpt2'.*set pretokenizer to 'gpt2'"):
        train(corpus, TrainSettings(pretokenizer="gpt4"), start=start)
    with pytest.raises(SettingsError, match="keeps its special tokens"):
        train(corpus, TrainSettings(special_tokens=("<|x|>",)), start=start)
    sentencepiece_run = StartState.of(
        Tokenizer.from_trace(train(Corpus.from_text("ab ab", pretokenizer="sentencepiece"), TrainSettings(
            unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", min_frequency=0, merges=1))),
    )
    with pytest.raises(SettingsError, match="SentencePiece's candidates.*choose another tie rule"):
        train(Corpus.from_text("ab ab", pretokenizer="sentencepiece"), TrainSettings(
            unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", min_frequency=0), start=sentencepiece_run)


def test_qwen_extended_keeps_its_special_tokens_and_their_default():
    qwen = shared_pretrained("qwen2.5")
    trace = extend(qwen, HINDI + "<|im_end|>" + HINDI, merges=20)
    extended = Tokenizer.from_trace(trace)
    assert trace.steps[0].new_id == 151_851 and extended.specials_in_text == "special"
    assert extended.encode("<|im_end|>") == [151_645]
    assert all(b"<|" not in trace.tokens[step.new_id].data for step in trace.steps)  # special text never merged


# -- the command line -----------------------------------------------------------------------------
def test_train_from_gpt2_on_the_command_line_extends_it(gpt2, hindi_gpt2, tmp_path, capsys):
    saved = tmp_path / "gpt2-hindi.json"
    assert cli.main(["train", "--from", "gpt2", "--text", HINDI, "--merges", "200", "--save", str(saved), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [record["id"] for record in printed["merges"]] == [step.new_id for step in hindi_gpt2.steps]
    assert printed["vocab_size"] == hindi_gpt2.vocab_size()
    assert Tokenizer.from_file(saved).merges == Tokenizer.from_trace(hindi_gpt2).merges


def test_train_from_a_saved_run_continues_it(tmp_path, capsys):
    first = tmp_path / "wiki.json"
    assert cli.main(["train", "--text", "aaabdaaabac", "--pretokenizer", "none", "--merges", "1", "--save", str(first)]) == 0
    assert cli.main(["train", "--from", str(first), "--text", "aaabdaaabac", "--tie-break", "lexicographic-min", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert [(record["id"], record["token"]) for record in printed["merges"]] == [(257, "ab"), (258, "aaab")]


def test_train_from_refuses_options_the_tokenizer_fixes(capsys):
    assert cli.main(["train", "--from", "gpt2", "--text", "hi", "--pretokenizer", "gpt4"]) == 2
    assert "--from keeps the unit, split, end-of-word marker and special tokens" in capsys.readouterr().err
