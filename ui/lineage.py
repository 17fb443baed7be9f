"""The Lineage page's two tokenizers: which, their ranked vocabularies and facts, kept once per server.

A choice is a string, as ``ui.tokenizers`` names them (``ours``, a pretrained name, ``imported:<name>``).
The ranked vocabulary of a pretrained tokenizer or an import (up to 250,000 tokens) and the facts of
two of them are computed once per server process and shared (``st.cache_resource``: read-only data,
a second or so to build for the biggest); ours, a run of the sidebar's at its step, is small and
built each time.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import streamlit as st

from bpe.analysis.lineage import Lineage, RankedVocabulary, lineage
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.views.pretrained_vocab import made_by
from bpe.views.token_html import Piece, chip_html

from . import tokenizers
from .preamble import current_run
from .render import show_html, tokenizer_at
from .state import SessionValue, lab

A = SessionValue("lineage_a", "cl100k_base")
B = SessionValue("lineage_b", "llama3")
AROUND = 4
"""Ranks shown on each side of where two lists part."""


@dataclass(frozen=True)
class Pair:
    a: RankedVocabulary
    b: RankedVocabulary
    facts: Lineage
    titles: tuple[str, str]
    tokenizers: tuple[Tokenizer | None, Tokenizer | None]
    keys: tuple[str | None, str | None]
    """What the two are cached under (``None``: ours, not cached)."""


def choices() -> list[str]:
    return [*PRETRAINED, *(tokenizers.IMPORTED_PREFIX + item.name for item in tokenizers.imported()), tokenizers.OURS]


def label(choice: str) -> str:
    return "Your run (the sidebar's, at its step)" if choice == tokenizers.OURS else tokenizers.label(choice, 0)


def uses_ours() -> bool:
    return tokenizers.OURS in (A.get(), B.get())


@st.cache_resource(max_entries=6, show_spinner="Ranking the vocabulary (once per server)…")
def _ranked(key: str, _tokenizer: Tokenizer, name: str) -> RankedVocabulary:
    return RankedVocabulary.of(_tokenizer, name=name)


@st.cache_resource(max_entries=6, show_spinner="Comparing the two (once per server)…")
def _facts(key_a: str, key_b: str, _a: RankedVocabulary, _b: RankedVocabulary) -> Lineage:
    return lineage(_a, _b)


@st.cache_resource(max_entries=4, show_spinner=False)
def _made(key: str, _tokenizer: Tokenizer) -> dict:
    return made_by(_tokenizer)


def _side(choice: str) -> tuple[RankedVocabulary, Tokenizer, str | None] | None:
    """The ranked vocabulary of ``choice``, its tokenizer and its cache key; ``None`` if unavailable (said why)."""
    if choice == tokenizers.OURS:
        trained = current_run()
        if trained is None:
            return None
        tokenizer = tokenizer_at(trained, lab().step)
        return RankedVocabulary.of(tokenizer, name="ours"), tokenizer, None
    tokenizer = tokenizers.resolve(choice, None)
    if tokenizer is None:
        return None
    key = choice if choice in PRETRAINED else next(item.key for item in tokenizers.imported() if tokenizers.IMPORTED_PREFIX + item.name == choice)
    return _ranked(key, tokenizer, choice), tokenizer, key


def chosen_pair() -> Pair | None:
    """The two chosen tokenizers and their facts, or ``None`` after saying why not."""
    first, second = _side(A.get()), _side(B.get())
    if first is None or second is None:
        return None
    (a, tokenizer_a, key_a), (b, tokenizer_b, key_b) = first, second
    try:
        facts = _facts(key_a, key_b, a, b) if key_a and key_b else lineage(a, b)
    except BpeError as error:
        st.error(escape_markdown(error), icon="🛑")
        return None
    return Pair(a, b, facts, (_title(A.get()), _title(B.get())), (tokenizer_a, tokenizer_b), (key_a, key_b))


def _title(choice: str) -> str:
    if choice == tokenizers.OURS:
        return "Your run"
    return PRETRAINED[choice].title if choice in PRETRAINED else choice[len(tokenizers.IMPORTED_PREFIX):]


def made(pair: Pair, side: str) -> dict:
    """``new id -> (rank, left, right)`` of one side's tokenizer (for its merge trees)."""
    index = 0 if side == "a" else 1
    key, tokenizer = pair.keys[index], pair.tokenizers[index]
    return made_by(tokenizer) if key is None else _made(key, tokenizer)


def parting(pair: Pair) -> None:
    """The ranks around the first one where the two lists differ, as two rows of chips."""
    at = pair.facts.common_prefix
    if at >= min(pair.facts.sizes):
        st.success(f"They never part: the shorter list's {min(pair.facts.sizes):,} ranks are all the longer one's first.", icon="✅")
    first = max(0, at - AROUND)
    for vocabulary, title in zip((pair.a, pair.b), pair.titles):
        last = min(len(vocabulary), at + AROUND + 1)
        chips = "".join(
            chip_html(Piece(rank, vocabulary.tokens[rank], new=rank == at), 1 if rank < at else 0, title=f" · rank {rank:,}", data_id=False)
            for rank in range(first, last)
        )
        show_html(f'<p><b>{html.escape(title)}</b>, ranks {first:,}–{last - 1:,} (rank {at:,} outlined):</p>'
                  f'<div class="bpe-tokens">{chips}</div>')

