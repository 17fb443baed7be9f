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

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_health import Reach, VocabularyHealth
from ..notation.spelling import visible_text
from ..teaching.health import GROUPS

SHOWN_USERS = 3
"""Merges listed per never-emitted token (GPT-2's ``Ġt`` is a part of hundreds)."""
MAX_ROWS = 2_000
"""Rows a group's table sends to the browser at most (GPT-4o never emits most of its 200,000 tokens)."""
WHY: Mapping[str, str] = MappingProxyType({
    "merges": "its merges build other tokens: no text can",
    "split": "the split cuts its text",
    "normalized": "normalization changes its text",
    "partial": "part of a character",
    "not UTF-8": "bytes no UTF-8 text has: no text can",
})


def groups(health: VocabularyHealth) -> dict[str, int]:
    """How many tokens each group holds, in :data:`~bpe.teaching.health.GROUPS` order."""
    sizes = (len(health.never_emitted), len(health.unreachable), len(health.partial), len(health.special))
    return dict(zip(GROUPS, sizes))


def summary_frame(health: VocabularyHealth) -> pd.DataFrame:
    return pd.DataFrame([{"group": group, "tokens": size, "what it means": GROUPS[group]} for group, size in groups(health).items()])


def group_frame(tokenizer: Tokenizer, health: VocabularyHealth, group: str) -> pd.DataFrame:
    """The tokens of ``group`` (at most :data:`MAX_ROWS`), each with what explains it."""
    tokens = tokenizer.tokens
    spell = lambda token_id: visible_text(tokens[token_id].data, tokenizer.end_of_word, tokens[token_id].ends_word)  # noqa: E731
    made = {new_id: (left, right) for left, right, new_id in tokenizer.merges}

    def merge(new_id: int) -> str:
        left, right = made[new_id]
        return f"{new_id} {spell(new_id)} = {spell(left)} + {spell(right)}"

    def reach_row(token_id: int, reach: Reach) -> dict:
        found = visible_text(reach.witness.encode("utf-8")) if reach.witness is not None else (
            "none can" if reach.proven_unreachable else f"none of {reach.tried:,} tried" + ("" if reach.searched_all else " (search cut short)")
        )
        row = {"id": token_id, "token": spell(token_id), "bytes": len(tokens[token_id].data), "why": WHY[reach.why]}
        if reach.instead:
            row["its text encodes as"] = " ".join(spell(i) for i in reach.instead)
        return {**row, "a text that reaches it": found}

    if group == "never emitted":
        rows = [
            {"id": token_id, "token": spell(token_id), "bytes": len(tokens[token_id].data),
             "used up by": "; ".join(map(merge, users[:SHOWN_USERS])) + (f"; … {len(users) - SHOWN_USERS:,} more" if len(users) > SHOWN_USERS else "")
             or "none: the text never has it"}
            for token_id, users in list(health.never_emitted.items())[:MAX_ROWS]
        ]
    elif group == "unreachable":
        rows = [reach_row(token_id, reach) for token_id, reach in list(health.unreachable.items())[:MAX_ROWS]]
    elif group == "part of a character":
        rows = [reach_row(token_id, reach) for token_id, reach in list(health.partial.items())[:MAX_ROWS]]
    else:
        rows = [{"id": token_id, "token": spell(token_id), "bytes": len(tokens[token_id].data)} for token_id in health.special]
    return pd.DataFrame(rows, columns=["id", "token", "bytes"] if not rows else None)
