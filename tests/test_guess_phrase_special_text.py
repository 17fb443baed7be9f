"""Guess the tokens counts a phrase holding special-token text, as plain text, and draws that split.

A teacher's phrase may quote ``<|endoftext|>``; GPT-2 refuses special-token text unless told, so
counting it must say how to read it (as plain text, as the Why cards read it), never raise.
(Written against today's ``bpe/teaching/room_questions.py``, which issue 48's owner may move.)
"""

from __future__ import annotations

from bpe.teaching.room_questions import ask_count, split_of

from .shared_tokenizers import shared_pretrained

PHRASE = "The model stops at <|endoftext|> and starts again"


def test_a_phrase_with_special_token_text_is_counted_and_split_as_plain_text():
    gpt2 = shared_pretrained("gpt2")
    plain = gpt2.encode_ordinary(PHRASE)
    question = ask_count(PHRASE, name="gpt2", tokenizer=gpt2)
    assert question.count == len(plain) and gpt2.special_tokens["<|endoftext|>"] not in plain
    assert split_of(question, gpt2, title="GPT-2").ids == tuple(plain)
