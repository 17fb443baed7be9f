"""The Vocabulary health page's tables: the four groups counted, and each group's tokens listed.

Pure DataFrames, every token spelled in the app's notation (``·`` a space, ``‹e2 82›`` part of a
character), so they read the same in the table and the tests.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> from bpe.encoding.vocab_health import vocabulary_health
    >>> tok = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    >>> health = vocabulary_health(tok, text="aaabdaaabac")
    >>> groups(health)
    {'never emitted': 2, 'unreachable': 0, 'part of a character': 128, 'special': 0}
    >>> group_frame(tok, health, "never emitted").to_dict("records")[0]
    {'id': 256, 'token': 'aa', 'bytes': 2, 'used up by': '258 aaab = aa + ab'}
"""

from __future__ import annotations

import pandas as pd

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_health import VocabularyHealth
from ..notation.health_rows import SHOWN_USERS, WHY, group_rows  # noqa: F401  (WHY, SHOWN_USERS: named here too)
from ..notation.health_rows import group_sizes as groups  # noqa: F401  (the page's name for the counts)
from ..teaching.health import GROUPS

MAX_ROWS = 2_000
"""Rows a group's table sends to the browser at most (GPT-4o never emits most of its 200,000 tokens)."""


def summary_frame(health: VocabularyHealth) -> pd.DataFrame:
    return pd.DataFrame([{"group": group, "tokens": size, "what it means": GROUPS[group]} for group, size in groups(health).items()])


def group_frame(tokenizer: Tokenizer, health: VocabularyHealth, group: str) -> pd.DataFrame:
    """The tokens of ``group`` (at most :data:`MAX_ROWS`), each with what explains it (:mod:`bpe.notation.health_rows`)."""
    rows = group_rows(tokenizer, health, group, limit=MAX_ROWS)
    return pd.DataFrame(rows, columns=["id", "token", "bytes"] if not rows else None)
