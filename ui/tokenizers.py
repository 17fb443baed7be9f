"""The tokenizers a page can pick besides ours at step k: GPT-2, GPT-4, GPT-4o and the user's imports.

The pretrained ones (``bpe.pretrained.PRETRAINED``) are read once per server process with
``st.cache_resource`` and shared by every session: a :class:`~bpe.tokenizer.Tokenizer` only grows
a chunk cache, which is deterministic, so sharing is safe (``benchmarks/encode_benchmark.py``
measures a load's time and memory). Imports live in the session (:data:`IMPORTED`, a tuple
replaced on every change), so one user's files are never seen by another.

Choices are strings, so a selectbox can hold them: ``ours``, a pretrained name (``gpt2``,
``cl100k_base``, ``o200k_base``) or ``imported:<name>``.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from bpe.errors import BpeError
from bpe.formats import tokenizer_format
from bpe.formats.bounded_import import import_tokenizer_bounded
from bpe.pretrained import PRETRAINED, load_pretrained
from bpe.tokenizer import Tokenizer
from bpe.views.compare import NamedTokenizer, clean_name, unique_name
from bpe.markdown import escape_markdown

from .state import SessionValue

IMPORTED: SessionValue[tuple[NamedTokenizer, ...]] = SessionValue("imported", ())
"""Tokenizers the learner imported, oldest first (a tuple, replaced, never mutated)."""
IMPORT_NOTE = SessionValue("import_note", None)
"""``(kind, Markdown)`` about the last import, shown once."""
OURS = "ours"
IMPORTED_PREFIX = "imported:"
MAX_IMPORTED = 5
"""Imports kept per session; the oldest goes first (each holds a whole vocabulary in memory)."""


@st.cache_resource(show_spinner="Reading the tokenizer's files (GPT-4o's first time ever: about 20 s)…")
def _pretrained(name: str) -> Tokenizer:
    return load_pretrained(name)


def pretrained(name: str) -> Tokenizer | None:
    """A pretrained tokenizer, or ``None`` after showing why it is unavailable."""
    try:
        return _pretrained(name)
    except BpeError as error:
        st.error(f"**{escape_markdown(PRETRAINED[name].title)} is not available:** {escape_markdown(error)}", icon="🛑")
        return None


def imported() -> tuple[NamedTokenizer, ...]:
    return IMPORTED.get()


def choices() -> list[str]:
    """Every choice: ours, the pretrained ones, then each import (oldest first)."""
    return [OURS, *PRETRAINED, *(IMPORTED_PREFIX + item.name for item in imported())]


def label(choice: str, step: int) -> str:
    """What a selectbox shows for ``choice`` (plain text: Streamlit does not render it as Markdown)."""
    if choice == OURS:
        return f"Ours at step {step:,}"
    if choice in PRETRAINED:
        return pretrained_label(choice)
    return f"Imported: {choice[len(IMPORTED_PREFIX):]}"


def pretrained_label(name: str) -> str:
    """``GPT-4o (200,000 tokens)``: the size is the registry's, so no file is read to draw a menu."""
    entry = PRETRAINED[name]
    return f"{entry.title} ({entry.n_vocab:,} tokens)"


def resolve(choice: str, ours: Tokenizer) -> Tokenizer | None:
    """The tokenizer for ``choice``; ``None`` if it is gone (an import removed) or unavailable."""
    if choice == OURS:
        return ours
    if choice in PRETRAINED:
        return pretrained(choice)
    name = choice[len(IMPORTED_PREFIX):]
    return next((item.tokenizer for item in imported() if item.name == name), None)


def add_import(*, format: str, files: Mapping[str, bytes], pretokenizer: str, name: str) -> None:
    """Read uploaded files into a tokenizer and keep it, or leave an error note saying why not."""
    title = tokenizer_format(format).title
    default = title if len(files) > 1 else (next(iter(files), "") or title)
    wanted = clean_name(name, clean_name(default))
    try:
        tokenizer = import_tokenizer_bounded(format=format, files=files, pretokenizer=pretokenizer, name=wanted)
    except BpeError as error:  # every malformed file raises a FormatError (a BpeError) that teaches
        IMPORT_NOTE.set(("error", f"**Cannot import:** {escape_markdown(error)}"))
        return
    kept = imported()
    final = unique_name(wanted, [item.name for item in kept])
    origin = f"{', '.join(files)} ({title})"
    IMPORTED.set((*kept, NamedTokenizer(final, tokenizer, origin))[-MAX_IMPORTED:])
    IMPORT_NOTE.set((
        "success",
        f"Imported **{escape_markdown(final)}**: {tokenizer.n_vocab:,} tokens, {len(tokenizer.merges):,} merges. "
        "Pick it on the Encode & decode and Compare pages.",
    ))


def remove_import(name: str) -> None:
    IMPORTED.set(tuple(item for item in imported() if item.name != name))
