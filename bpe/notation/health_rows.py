"""A vocabulary's health as rows a person reads: each group's tokens spelled in the app's notation
(``·`` a space, ``‹e2 82›`` part of a character), with what explains each.

The Vocabulary health page's tables (:mod:`bpe.views.vocab_health`) and ``python -m bpe health``
print the same rows, so the two say the same about a token.

    >>> from bpe import PRESETS, Tokenizer, train, vocabulary_health
    >>> tok = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    >>> health = vocabulary_health(tok, text="aaabdaaabac")
    >>> group_sizes(health)
    {'never emitted': 2, 'unreachable': 0, 'part of a character': 128, 'special': 0}
    >>> group_rows(tok, health, "never emitted")[0]
    {'id': 256, 'token': 'aa', 'bytes': 2, 'used up by': '258 aaab = aa + ab'}
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_health import Reach, VocabularyHealth
from .spelling import visible_text

GROUP_NAMES = ("never emitted", "unreachable", "part of a character", "special")
"""The four groups, in the order the page's lesson walks them (``bpe.teaching.health`` says what each is)."""
SHOWN_USERS = 3
"""Merges listed per never-emitted token (GPT-2's ``Ġt`` is a part of hundreds)."""
WHY: Mapping[str, str] = MappingProxyType({
    "merges": "its merges build other tokens: no text can",
    "split": "the split cuts its text",
    "normalized": "normalization changes its text",
    "partial": "part of a character",
    "not UTF-8": "bytes no UTF-8 text has: no text can",
})
"""Why a token is unreachable, in a few words, by :attr:`~bpe.encoding.vocab_health.Reach.why`."""


def group_sizes(health: VocabularyHealth) -> dict[str, int]:
    """How many tokens each group holds, in :data:`GROUP_NAMES` order."""
    sizes = (len(health.never_emitted), len(health.unreachable), len(health.partial), len(health.special))
    return dict(zip(GROUP_NAMES, sizes))


def group_rows(tokenizer: Tokenizer, health: VocabularyHealth, group: str, *, limit: int | None = None) -> list[dict]:
    """The tokens of ``group`` (the first ``limit`` of them), each a row with what explains it."""
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
        return [
            {"id": token_id, "token": spell(token_id), "bytes": len(tokens[token_id].data),
             "used up by": "; ".join(map(merge, users[:SHOWN_USERS])) + (f"; … {len(users) - SHOWN_USERS:,} more" if len(users) > SHOWN_USERS else "")
             or "none: the text never has it"}
            for token_id, users in list(health.never_emitted.items())[:limit]
        ]
    if group in ("unreachable", "part of a character"):
        found = health.unreachable if group == "unreachable" else health.partial
        return [reach_row(token_id, reach) for token_id, reach in list(found.items())[:limit]]
    return [{"id": token_id, "token": spell(token_id), "bytes": len(tokens[token_id].data)} for token_id in health.special[:limit]]
