"""The Vocabulary health page's state and its shared work: whose vocabulary, against which text.

Ours at the sidebar's step is measured against its own training words; a pretrained or imported
tokenizer against a sample text (python-docs, the Declaration in 16 languages, or the learner's
own). A report is worked out once per tokenizer, step and text for the whole server, apart from the
page (``ui.background``: GPT-4o's takes seconds of CPU, Mistral v3's about twenty). The link carries ``of``, ``sample`` and ``part``, the lesson's moment
(which group of tokens is shown).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bpe.encoding.tokenizer import Tokenizer
from bpe.encoding.vocab_health import VocabularyHealth
from bpe.jobs.board import DONE, FAILED
from bpe.limits import MAX_ENCODE_CHARS
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.jobs import TokenizerSource, health_request
from bpe.teaching.udhr import ARTICLE_1
from bpe.training.presets import python_docs_text

from . import background, links, tokenizers
from .preamble import current_run
from .render import tokenizer_at
from .shared_views import text_key
from .state import SessionValue, lab

OF = SessionValue("health_of", tokenizers.OURS)
"""Whose vocabulary: ``ours``, a pretrained name or ``imported:<name>``."""
SAMPLE = SessionValue("health_sample", "python-docs")
OWN_SAMPLE = SessionValue("health_own_text", "")
PART = SessionValue("health_part", 0)
"""The lesson's moment: which of :data:`~bpe.teaching.health.GROUPS` is shown."""
MAX_HEALTH_SAMPLE_CHARS = MAX_ENCODE_CHARS * 3
"""Longest sample a report encodes (python-docs is about 465,000 characters)."""
SAMPLES = dict(zip(links.HEALTH_SAMPLES, (  # the link's choices (ui/links.py), each as the page names it
    "python-docs (CPython's documentation, 465 KB of English and code)",
    "the Declaration's first article in 16 languages",
    "your own text",
), strict=True))


LINKED = {links.HEALTH_OF: OF, links.HEALTH_SAMPLE: SAMPLE, links.PART: PART}
"""Each of the page's link parameters (declared in ``ui/links.py``) and the value it sets."""


def link_params() -> dict:
    params = {links.HEALTH_OF: OF.get(), links.PART: PART.get()}
    return params if OF.get() == tokenizers.OURS else {**params, links.HEALTH_SAMPLE: SAMPLE.get()}


def sample_text() -> str:
    chosen = SAMPLE.get()
    if chosen == "python-docs":
        return python_docs_text()
    if chosen == "udhr":
        return "\n".join(sentence.text for sentence in ARTICLE_1)
    return OWN_SAMPLE.get()


@dataclass(frozen=True)
class Checked:
    tokenizer: Tokenizer
    health: VocabularyHealth
    against: str
    """What it was measured against, in words."""
    anchor: object
    key: tuple
    """The report's place among the shared views (``anchor``, ``"health", *key``), for the views drawn from it."""


def checked() -> Checked | None:
    """The chosen tokenizer's health; ``None`` after a message saying why there is none (or while the
    report is worked out apart: a progress bar says how far it is)."""
    choice = OF.get()
    if choice == tokenizers.OURS:
        trained = current_run()
        if trained is None:
            return None
        step = lab().step
        tokenizer = tokenizer_at(trained, step)
        words = [word for word, _ in trained.trace.corpus.words]
        health = _report(trained, (step,), lambda: health_request(TokenizerSource.written(tokenizer), words=words),
                         what=f"Checking your run's {tokenizer.n_vocab:,} tokens")
        return None if health is None else Checked(tokenizer, health, f"its own training text, at step {step:,}", trained, (step,))
    tokenizer = tokenizers.resolve(choice, None)
    if tokenizer is None:
        if choice not in PRETRAINED:
            st.info("That import is gone: choose another vocabulary.", icon="ℹ️")
        return None
    text = sample_text()
    if len(text) > MAX_HEALTH_SAMPLE_CHARS:
        st.error(f"**The sample is too long:** {len(text):,} characters, over {MAX_HEALTH_SAMPLE_CHARS:,}; paste an excerpt.", icon="🛑")
        return None
    source = (lambda: TokenizerSource(choice)) if choice in PRETRAINED else (lambda: TokenizerSource.written(tokenizer))
    health = _report(tokenizer, (text_key(text),), lambda: health_request(source(), text=text),
                     what=f"Checking the vocabulary of {escape_markdown(tokenizers.label(choice, 0))}")
    return None if health is None else Checked(tokenizer, health, SAMPLES[SAMPLE.get()], tokenizer, (text_key(text),))


def _report(anchor: object, key: tuple, request, *, what: str) -> VocabularyHealth | None:
    """The report of the job for ``anchor`` and ``key``: drawn apart (``ui.background``), ``None`` until done."""
    view = background.job(anchor, "health", *key, request=request)
    background.progress(anchor, "health", *key, request=request, what=what)
    if view.state == FAILED:
        st.error(f"**Cannot check this vocabulary:** {escape_markdown(view.error)}", icon="🛑")
    return view.parts.get("health") if view.state == DONE else None
