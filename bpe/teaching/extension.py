"""What a learner extends a tokenizer with, what it is measured on, and what it costs a model.

Plain data and small pure functions for the Extend page: the new texts on offer (each language of
the Declaration's first article, Python code, the learner's own), the "old" text the old merges
were made for (English, as GPT-2's were), and the trade-off a learner asks about.

    >>> NEW_TEXTS["hin"].title, NEW_TEXTS["code"].title
    ('Hindi (Devanagari): the Declaration, article 1', 'Python code: the standard library’s textwrap module')
    >>> embedding_rows(new_tokens=120, width=768)
    92160
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from ..encoding.tokenizer import Tokenizer
from ..training.presets import python_docs_text
from .udhr import ARTICLE_1


class NewText(NamedTuple):
    title: str
    text: str


OWN = "own"
"""The learner's own text (typed on the page)."""
NEW_TEXTS: Mapping[str, NewText] = MappingProxyType({
    **{s.code: NewText(f"{s.language} ({s.script}): the Declaration, article 1", s.text) for s in ARTICLE_1},
    # Code every machine has: a standard-library module's source (about 20,000 characters).
    "code": NewText("Python code: the standard library’s textwrap module", inspect.getsource(textwrap)),
})
"""The texts to extend with, by the key a link carries (``new=hin``); the learner's own is :data:`OWN`."""
DEFAULT_TEXT = "hin"
DEFAULT_MERGES, DEFAULT_LEAST = 200, 2
"""The page's defaults: new merges at most, and the minimum count of a new merge's pair."""


def default_new_text() -> str:
    """What the page extends with unless told: :data:`DEFAULT_TEXT`'s text."""
    return NEW_TEXTS[DEFAULT_TEXT].text
OLD_TEXT_CHARS = 20_000


def old_text() -> str:
    """English like the old merges were made for: the Declaration's English sentence and the start of
    the python-docs preset (for a pretrained tokenizer; a learner's run is measured on its own corpus)."""
    return ARTICLE_1[0].text + "\n" + python_docs_text()[:OLD_TEXT_CHARS]


MODEL_WIDTHS: Mapping[str, int] = MappingProxyType({"GPT-2 small": 768, "Llama 3 8B": 4096})
"""Embedding widths (``n_embd``, ``hidden_size``) of two models a learner knows, from their configs."""


def embedding_rows(*, new_tokens: int, width: int) -> int:
    """New weights one embedding matrix needs: a row of ``width`` numbers per new token."""
    return new_tokens * width


class Growth(NamedTuple):
    """How a run that continues a tokenizer grows its vocabulary: new characters, then new merges.

    A merge joins two tokens, so a character the old vocabulary has no token for (a char-level
    one's; a byte-level one has every byte) becomes a token first, with the next id, whether or
    not a new merge then uses it: Mistral spelled such a character in byte-fallback pieces
    (``ሰ`` is ``<0xE1><0x88><0xB0>``), and now it is one token. Training a tokenizer from scratch
    does the same: every character of the corpus is a base symbol.
    """

    first_id: int
    """The first new id: the old vocabulary's size (the rows of a model's embedding matrix)."""
    characters: tuple[str, ...]
    """New characters, in the order of their ids (from :attr:`first_id` on)."""
    merges: int
    spelled_before: str
    """How the old tokenizer read those characters: ``byte pieces``, its unknown token, or ``nothing``."""

    @property
    def new_tokens(self) -> int:
        return len(self.characters) + self.merges

    def sentence(self) -> str:
        """One line on the growth (plain text inside: the caller escapes it).

        >>> Growth(32_768, ("ሰ", "ላ"), 150, "byte pieces").sentence()
        '32,768 → 32,920 tokens: 2 new characters it had no token for (it read them as byte pieces), each a token before a merge can join it, then 150 new merges.'
        """
        characters = (
            f"{len(self.characters):,} new character{'s' if len(self.characters) != 1 else ''} it had no token for (it read "
            f"{'them' if len(self.characters) != 1 else 'it'} as {self.spelled_before}), each a token before a merge can join it, then "
        ) if self.characters else ""
        return f"{self.first_id:,} → {self.first_id + self.new_tokens:,} tokens: {characters}{self.merges:,} new merges."


def growth(trace) -> Growth:
    """The :class:`Growth` of a run that continues a tokenizer (``trace.start`` set)."""
    start = trace.start
    before = "byte pieces" if start.fallback_bytes else start.unknown_token or "nothing (it refused them)"
    characters = tuple(token.data.decode("utf-8", "replace") for token in start.added)
    return Growth(start.first_id, characters, len(trace.steps), before)


def trade_off(*, new_tokens: int, first_id: int, name: str) -> str:
    """The trade-off in Markdown (plain text inside: the caller escapes ``name``)."""
    sizes = "; ".join(f"{model}: {embedding_rows(new_tokens=new_tokens, width=width):,} numbers" for model, width in MODEL_WIDTHS.items())
    return (
        f"**What it costs a model.** The {new_tokens:,} new tokens take ids {first_id:,} to {first_id + new_tokens - 1:,}, "
        f"past the last row of the embedding matrix a model of {name} was trained with. Each needs a new row there "
        f"(and in the output layer, unless the model ties the two), as wide as the model: {sizes}. "
        "A new row starts untrained (often as the mean of the old rows, or of its parts' rows) and has to be "
        "learned by training on text that uses it; until then the model has never seen these ids. The old ids keep "
        "their rows, so text the new merges never touch costs what it did."
    )


class CostRow(NamedTuple):
    """One text's tokens under the old tokenizer and the extended one."""

    text: str
    script: str
    bytes: int
    before: int
    after: int


def cost_rows(before: Tokenizer, after: Tokenizer, texts: Mapping[str, tuple[str, str]]) -> list[CostRow]:
    """``texts``: label -> (script, text); each encoded by both (special-token text as plain text)."""
    return [
        CostRow(label, script, len(text.encode("utf-8")), len(before.encode_ordinary(text)), len(after.encode_ordinary(text)))
        for label, (script, text) in texts.items()
    ]


def cost_texts(new_label: str, new_text: str) -> dict[str, tuple[str, str]]:
    """What the page prices before and after: the new text, the old text, then the Declaration's article in
    each language (``label -> (script, text)``)."""
    texts = {f"new: {new_label}": ("", new_text), "old text": ("", old_text())}
    return texts | {sentence.language: (sentence.script, sentence.text) for sentence in ARTICLE_1}
