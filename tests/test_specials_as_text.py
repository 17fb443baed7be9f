"""Special tokens in training text: cut out first (the default, as Stanford CS336) or counted as
text (Hugging Face's BpeTrainer, rustbpe, minbpe, tiktoken's trainer), each reproducing its peers.

Golden merges come from the peers themselves, run on the same text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tokenizers import Tokenizer as HfTokenizer
from tokenizers import models, pre_tokenizers, trainers

from bpe.app.lab_state import LabState
from bpe.text.corpus import Corpus
from bpe.tokens.byte_level import to_byte_text
from bpe.training.presets import python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

from .child_env import child_env
from .machine_speed import scaled
from .peers import hf_merges, rustbpe_tokens

EOT = "<|endoftext|>"
MERGES = 300
TEXT = EOT.join(python_docs_text()[i:i + 3000] for i in range(0, 60_000, 3000)) + EOT * 50


def our_merges(tie_break: str, *, as_text: bool) -> list[bytes]:
    settings = TrainSettings(tie_break=tie_break, merges=MERGES, min_frequency=1, special_tokens=(EOT,),
                             specials_as_text=as_text)
    trace = train(Corpus.from_text(TEXT, special_tokens=settings.cut_from_corpus), settings)
    return [trace.tokens[step.new_id].data for step in trace.steps]


def hf_trained_with_special() -> list[str]:
    tokenizer = HfTokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=256 + 1 + MERGES, min_frequency=0, show_progress=False, special_tokens=[EOT],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator([TEXT], trainer)
    return [left + right for left, right in hf_merges(tokenizer)]


def as_gpt2_text(tokens: list[bytes]) -> list[str]:
    return [to_byte_text(token) for token in tokens]


def test_counted_as_text_the_hf_rule_matches_hugging_face_trained_with_the_special_token():
    theirs = hf_trained_with_special()
    assert as_gpt2_text(our_merges("hf", as_text=True)) == theirs
    assert as_gpt2_text(our_merges("hf", as_text=False)) != theirs  # cutting it out is another run
    assert any("endoftext" in token for token in theirs)


def test_counted_as_text_the_smallest_ids_rule_matches_rustbpe():
    assert our_merges("smallest-ids", as_text=True) == rustbpe_tokens(TEXT, MERGES)


def test_the_choice_is_in_the_link_and_survives_a_round_trip():
    state = LabState.for_source("own-text")
    chosen = state.replace(special_tokens=(EOT,), specials_as_text=True)
    query = chosen.to_query()
    assert query["specialtext"] == "1"
    back, warnings = LabState.from_query(query)
    assert back.specials_as_text and not warnings
    assert back.to_settings().cut_from_corpus == ()


def test_the_command_line_flag_counts_special_text():
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-m", "bpe", "train", "--text", f"ab{EOT}ab{EOT}", "--special", EOT, "--specials-as-text",
         "--merges", "3", "--min-frequency", "2", "--json"],
        cwd=root, capture_output=True, text=True, timeout=scaled(120), env=child_env(),
    )
    data = json.loads(result.stdout)
    assert data["settings"]["specials_as_text"] is True
    assert any("|" in merge["token"] for merge in data["merges"])
