"""The tokenizers a page can pick besides ours at step k: GPT-2 and the ones the user imported.

GPT-2 is read once per server with ``st.cache_resource`` and shared by every session: a
:class:`~bpe.tokenizer.Tokenizer` only grows a chunk cache, which is deterministic, so sharing is
safe. Imports live in the session (``state.IMPORTED``, a tuple replaced on every change), so one
user's files are never seen by another.

Choices are strings, so a selectbox can hold them: ``ours``, ``gpt2`` or ``imported:<name>``.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from bpe.errors import BpeError
from bpe.formats import FORMAT_TITLES, import_tokenizer
from bpe.pretrained import load_pretrained
from bpe.tokenizer import Tokenizer
from bpe.views.compare import NamedTokenizer, clean_name, unique_name
from bpe.views.markdown import escape_markdown

from . import state

OURS = "ours"
GPT2 = "gpt2"
IMPORTED_PREFIX = "imported:"
MAX_IMPORTED = 5
"""Imports kept per session; the oldest goes first (each holds a whole vocabulary in memory)."""


@st.cache_resource(show_spinner="Reading GPT-2's tokenizer files…")
def _gpt2() -> Tokenizer:
    return load_pretrained("gpt2")


def gpt2() -> Tokenizer | None:
    """GPT-2's tokenizer, or ``None`` after showing why it is unavailable."""
    try:
        return _gpt2()
    except BpeError as error:
        st.error(f"**GPT-2 is not available:** {escape_markdown(error)}", icon="🛑")
        return None


def imported() -> tuple[NamedTokenizer, ...]:
    return st.session_state[state.IMPORTED]


def choices() -> list[str]:
    """Every choice: ours, GPT-2, then each import (oldest first)."""
    return [OURS, GPT2, *(IMPORTED_PREFIX + item.name for item in imported())]


def label(choice: str, step: int) -> str:
    """What a selectbox shows for ``choice`` (plain text: Streamlit does not render it as Markdown)."""
    if choice == OURS:
        return f"Ours at step {step:,}"
    if choice == GPT2:
        return "GPT-2 (50,257 tokens)"
    return f"Imported: {choice[len(IMPORTED_PREFIX):]}"


def resolve(choice: str, ours: Tokenizer) -> Tokenizer | None:
    """The tokenizer for ``choice``; ``None`` if it is gone (an import removed) or unavailable."""
    if choice == OURS:
        return ours
    if choice == GPT2:
        return gpt2()
    name = choice[len(IMPORTED_PREFIX):]
    return next((item.tokenizer for item in imported() if item.name == name), None)


def add_import(*, format: str, files: Mapping[str, bytes], pretokenizer: str, name: str) -> None:
    """Read uploaded files into a tokenizer and keep it, or leave an error note saying why not."""
    default = "GPT-2 files" if format == "gpt2" else (next(iter(files), "") or FORMAT_TITLES[format])
    wanted = clean_name(name, clean_name(default))
    try:
        tokenizer = import_tokenizer(format=format, files=files, pretokenizer=pretokenizer, name=wanted)
    except BpeError as error:  # every malformed file raises a FormatError (a BpeError) that teaches
        st.session_state[state.IMPORT_NOTE] = ("error", f"**Cannot import:** {escape_markdown(error)}")
        return
    kept = imported()
    final = unique_name(wanted, [item.name for item in kept])
    origin = f"{', '.join(files)} ({FORMAT_TITLES[format]})"
    st.session_state[state.IMPORTED] = (*kept, NamedTokenizer(final, tokenizer, origin))[-MAX_IMPORTED:]
    st.session_state[state.IMPORT_NOTE] = (
        "success",
        f"Imported **{escape_markdown(final)}**: {tokenizer.n_vocab:,} tokens, {len(tokenizer.merges):,} merges. "
        "Pick it on the Encode & decode and Compare pages.",
    )


def remove_import(name: str) -> None:
    st.session_state[state.IMPORTED] = tuple(item for item in imported() if item.name != name)
