"""What tokens cost: one text under each tokenizer, as context, chunks and money, and against English.

A model reads tokens, not characters, so a tokenizer's choice is paid in three currencies: the
share of its **context window** the text fills, the number of **chunks** of N tokens it is cut into
(what a retrieval system indexes, or a model of that window reads at once), and the **price** at a
rate per million tokens. The same meaning in another language can cost many times English's
tokens (the issue's measurement: the Declaration's first article costs up to 20.1 times English's
tokens under GPT-2, for Tamil, and 6.2 times under GPT-4o, for Amharic); the ratio to English is
given when the text is one of the Declaration's translations (:mod:`bpe.teaching.udhr`), whose
English is the same article.

    >>> from bpe import Corpus, Tokenizer, TrainSettings, train
    >>> ours = Tokenizer.from_trace(train(Corpus.from_text("abab"), TrainSettings(merges=0)))
    >>> (row,) = token_costs("abcd" * 25, {"bytes": ours}, Rates(window=64, chunk=30, price_per_million=2.0))
    >>> row.tokens, row.window_share, row.chunks, row.price, row.ratio_to_english
    (100, 1.5625, 4, 0.0002, None)

Out of scope: loading the tokenizers (``ui``) and drawing the table (:mod:`bpe.views.token_cost`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError, SettingsError
from .udhr import ARTICLE_1

ENGLISH = ARTICLE_1[0]


class Rates(NamedTuple):
    """What the learner sets: a context window, a chunk size (both in tokens), a price per million tokens."""

    window: int = 8_192
    chunk: int = 512
    price_per_million: float = 2.50
    """Dollars per million input tokens (an example: set your own)."""

    def check(self) -> "Rates":
        """Itself, or a :class:`SettingsError` saying which value cannot be used."""
        if self.window < 1 or self.chunk < 1:
            raise SettingsError(f"the context window and the chunk must be at least 1 token, got {self.window} and {self.chunk}")
        if not (self.price_per_million >= 0 and math.isfinite(self.price_per_million)):
            raise SettingsError(f"the price per million tokens must be a number from 0, got {self.price_per_million!r}")
        return self


class TokenCostRow(NamedTuple):
    """One tokenizer's cost for the text (``error``: why it cannot encode it; then no numbers)."""

    tokenizer: str
    tokens: int
    window_share: float
    """Tokens over the context window (1.0: exactly full; above 1 it does not fit)."""
    chunks: int
    price: float
    """Dollars, at the rate per million tokens."""
    ratio_to_english: float | None
    """Tokens over the English article's under the same tokenizer; ``None`` when the text is not a
    translation of it (or the tokenizer cannot encode the English)."""
    error: str | None = None


def english_of(text: str) -> str | None:
    """The English article when ``text`` is one of the Declaration's translations (or the English itself), else ``None``.

    >>> english_of(ARTICLE_1[5].text) == ENGLISH.text, english_of("hello")
    (True, None)
    """
    return ENGLISH.text if any(sentence.text == text.strip() for sentence in ARTICLE_1) else None


def token_costs(text: str, tokenizers: Mapping[str, Tokenizer], rates: Rates) -> list[TokenCostRow]:
    """``text`` under each of ``tokenizers`` (by name), priced at ``rates``; special-token text is read as plain text."""
    rates.check()
    english = english_of(text)
    rows = []
    for name, tokenizer in tokenizers.items():
        try:
            tokens = len(tokenizer.encode(text, disallowed_special=()))
        except BpeError as error:  # e.g. a char-level vocabulary that never saw this script
            rows.append(TokenCostRow(name, 0, 0.0, 0, 0.0, None, str(error)))
            continue
        ratio = None
        if english is not None:
            try:
                ratio = tokens / max(len(tokenizer.encode(english, disallowed_special=())), 1)
            except BpeError:
                ratio = None
        rows.append(TokenCostRow(
            name, tokens, tokens / rates.window, math.ceil(tokens / rates.chunk), tokens * rates.price_per_million / 1e6, ratio,
        ))
    return rows
