"""Extending never merges inside special-token text: the text of a special token the tokenizer cuts
out of what it reads (GPT-2's ``<|endoftext|>``; a SentencePiece model's user-defined pieces, which
it cuts from every text) is cut out of the new text too, so no new token spells a piece of it.

Rows come from the registry: the first entry of each way of reading special-token text that cuts
special tokens out (``refuse``, ``special``), and for ``plain``, which cuts only user-defined pieces,
the newest SentencePiece model (Mistral's gained them in v3).
"""

from __future__ import annotations

import pytest

from bpe.pretrained.registry import PRETRAINED
from bpe.training.extend import extend

from .shared_tokenizers import shared_pretrained

WORD = " zqxj "
"""The one word of the new text between the special tokens: no pretrained tokenizer has it as one token."""


def cut_from_text(name: str) -> list[str]:
    tokenizer = shared_pretrained(name)
    return sorted(tokenizer.user_defined if tokenizer.specials_in_text == "plain" else tokenizer.special_tokens)


ROWS = sorted({
    *{entry.specials_in_text: name for name, entry in reversed(list(PRETRAINED.items())) if entry.specials_in_text != "plain"}.values(),
    [name for name, entry in PRETRAINED.items() if entry.format == "sentencepiece"][-1],
})


@pytest.mark.parametrize("name", ROWS)
def test_no_new_token_spells_a_piece_of_special_token_text(name):
    tokenizer = shared_pretrained(name)
    specials = cut_from_text(name)[:3]
    assert specials, f"{name} cuts no special-token text from what it reads: pick another row"
    trace = extend(tokenizer, "".join(special + WORD for special in specials) * 30, merges=50)
    extended = tokenizer.continued(trace)
    new = [extended.decode_single_token_bytes(step.new_id).decode("utf-8", "replace").replace("▁", " ") for step in trace.steps]
    assert new and all(text in WORD for text in new), new  # every merge is inside the word, none inside a special token
