"""The learner's own corpus, kept per session: a text (typed or uploaded) or a word table.

The Train page edits it (:func:`ui.widgets.corpus_editor`), training reads it (:mod:`ui.training`),
and a shared link to "your own text" checks whether this session has one (:mod:`ui.url`). A link
never carries it: it stays in this session.
"""

from __future__ import annotations

from typing import Any

from bpe.app.lab_state import OWN_TABLE_SOURCE, OWN_TEXT_SOURCE
from bpe.training.presets import SENNRICH_WORDS

from .state import SessionValue

DEFAULT_OWN_TEXT = (
    "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs.\n"
    "Byte-pair encoding merges the most frequent pair again and again: th, then the, then ' the'."
)
OWN_TEXT = SessionValue("own_text", DEFAULT_OWN_TEXT)
"""The learner's own text, as typed (the source ``own-text`` trains on it)."""
OWN_TABLE = SessionValue("own_table", factory=lambda: list(SENNRICH_WORDS.items()))
"""The learner's word table as a list of ``(word, count)`` rows, as typed (may be invalid)."""
TABLE_VERSION = SessionValue("own_table_version", 0)
"""Bumped after each edit, so the data editor starts fresh on the table it just edited."""
UPLOAD_NOTE = SessionValue("upload_note", None)
"""``(kind, Markdown, file id)`` about the last upload, shown while that file sits in the uploader."""


def has_own_corpus(source: str) -> bool:
    """False for "your own text" (or table) in a session that still has only the sample."""
    if source == OWN_TEXT_SOURCE:
        return OWN_TEXT.get() != DEFAULT_OWN_TEXT
    if source == OWN_TABLE_SOURCE:
        return OWN_TABLE.get() != OWN_TABLE.initial()
    return True


def own_table_counts(rows: list[tuple[Any, Any]]) -> dict[str, int]:
    """The learner's rows as ``{word: count}``; a repeated word adds up, blank rows are skipped."""
    table: dict[str, int] = {}
    for word, count in rows:
        if (word is None or word == "") and count in (None, ""):
            continue
        word = "" if word is None else str(word)
        if isinstance(count, float) and count.is_integer():
            count = int(count)
        if isinstance(table.get(word), int) and isinstance(count, int):
            table[word] += count
        else:
            table[word] = count
    return table
