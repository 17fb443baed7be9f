"""Check my encoder's "characters as the starting symbols" mistake reads a 4-byte character whole.

The mistaken encoder it stands for looks each whole character up (``list(text)``); a character of
four UTF-8 bytes (an emoji) must be one symbol too, not its first three bytes and a stray one.
(Written against today's ``bpe/checking/encode_rules.py``, which issue 47's owner may move.)
"""

from __future__ import annotations

from bpe.checking.encode_rules import ENCODER_MISTAKES
from bpe.encoding.tokenizer import Tokenizer
from bpe.tokens.vocab import Token

SMILE = "😀".encode()  # f0 9f 98 80


def emoji_tokenizer() -> Tokenizer:
    """Bytes; then a space joins the emoji's lead byte first, and the emoji's own merges make it whole (id 259)."""
    lead, second, third, last = SMILE
    return Tokenizer(unit="byte", pretokenizer="none", base={i: Token(bytes([i])) for i in range(256)}, merges=[
        (ord(" "), lead, 256), (second, third, 257), (257, last, 258), (lead, 258, 259),
    ])


def test_characters_first_starts_from_the_whole_four_byte_character():
    tokenizer = emoji_tokenizer()
    (variant,) = ENCODER_MISTAKES["unit"].variants(tokenizer)
    assert tokenizer.encode(" 😀") == [256, 258]            # from bytes: the space takes the lead byte
    assert variant.encode(tokenizer, " 😀", "plain") == [ord(" "), 259]  # from characters: the emoji is one symbol
