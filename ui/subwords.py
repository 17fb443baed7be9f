"""The Why subwords page's run: which example, which text is held out, and the lab built from them.

The page measures an example of its own (python-docs when opened bare: real English, where a
word vocabulary visibly runs out), any other preset, or the sidebar's run with its settings.
Held out is one of: the example's last tenth (a run then trains on the nine tenths before it, so
the held-out words are truly unseen), the Declaration's first article in a language
(``bpe.teaching.udhr``), or an excerpt of Python's documentation. Runs and labs live in the
training store (``ui.training.store``), keyed by content and settings, so a class on one example
builds each once for the whole server.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from bpe.app.lab_state import LabState
from bpe.errors import BpeError
from bpe.limits import MAX_TRAIN_SECONDS
from bpe.notation.markdown import escape_markdown
from bpe.teaching.subword_choices import (  # noqa: F401 (the page reads them here)
    PYTHON_DOCS, SIDEBAR, SPLIT, UDHR_PREFIX, example_choices, held_out_choices,
)
from bpe.teaching.subwords import SubwordLab, split_off
from bpe.teaching.udhr import ARTICLE_1
from bpe.text.corpus import Corpus
from bpe.training.presets import PRESETS, python_docs_text
from bpe.training.trainer import train

from .preamble import current_run
from .training import Trained, get_trained, store

HELD_OUT_CHARS = 40_000
"""At most this much held-out text is measured (python-docs' last tenth is 46 KB)."""


def _text_of(trained: Trained) -> str:
    if trained.text is not None:
        return trained.text
    return " ".join(word for word, count in trained.table for _ in range(count))


def _held_out_text(choice: str) -> str:
    if choice == PYTHON_DOCS:
        return split_off(python_docs_text())[1][:HELD_OUT_CHARS]
    code = choice[len(UDHR_PREFIX):]
    return next(sentence.text for sentence in ARTICLE_1 if sentence.code == code)


def subword_lab(example: str, choice: str) -> SubwordLab | None:
    """The lab for ``example`` (a preset, or :data:`SIDEBAR`) and ``choice`` of held-out text; ``None``
    after an error message (the sidebar's run that cannot train says why itself)."""
    trained = current_run() if example == SIDEBAR else None
    if example == SIDEBAR and trained is None:
        return None
    text = _text_of(trained) if trained is not None else PRESETS[example].corpus_text
    settings = trained.trace.settings if trained is not None else PRESETS[example].settings
    key = ("subwords", hashlib.sha256(text.encode("utf-8")).hexdigest(), settings, choice)
    cache = store()
    found = cache.get(key)
    if found is not None:
        return found
    if choice != SPLIT:
        whole = trained or get_trained(LabState.for_source(example))
        if whole is None:
            return None
        found = SubwordLab(whole.trace, text, _held_out_text(choice))
    else:
        training, held_out = split_off(text)
        try:
            with st.spinner("Training on the first nine tenths…"):
                corpus = Corpus.from_text(
                    training, pretokenizer=settings.pretokenizer, special_tokens=settings.cut_from_corpus,
                    second_split=settings.second_split,
                )
                trace = train(corpus, settings, time_limit_s=MAX_TRAIN_SECONDS)
        except BpeError as error:
            st.error(f"**Cannot train on the first nine tenths:** {escape_markdown(error)}", icon="🛑")
            return None
        found = SubwordLab(trace, training, held_out[:HELD_OUT_CHARS])
    cache.put(key, found)
    return found
