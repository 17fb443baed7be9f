"""The Extend page's state and its shared work: which tokenizer is extended with which text, the run
that continues it, and the extended tokenizer.

Every choice is a :class:`~ui.state.SessionValue` that the link also carries (``from=gpt2&new=hin&add=200
&least=2&at=12``; ``at`` is the lesson's moment, the new merge shown). The run and the tokenizer it
ends with are built once per start, text and settings for the whole server (``ui.shared_views``),
anchored on the start: the pretrained tokenizer (shared by every session) or the learner's run.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.limits import MAX_TRAIN_SECONDS, check_corpus_size
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.extension import DEFAULT_TEXT, NEW_TEXTS, OWN, old_text
from bpe.training.extend import extend
from bpe.training.trace import Trace

from . import links, tokenizers
from .preamble import current_run
from .render import tokenizer_at
from .shared_views import shared_view, text_key
from .state import SessionValue, lab

FROM = SessionValue("extend_from", "gpt2")
"""``ours`` (the run in the sidebar, at its step) or a pretrained tokenizer's name."""
NEW = SessionValue("extend_new", DEFAULT_TEXT)
"""A key of :data:`~bpe.teaching.extension.NEW_TEXTS`, or ``own``."""
OWN_TEXT = SessionValue("extend_own_text", "")
ADD = SessionValue("extend_add", 200)
"""How many new merges at most."""
LEAST = SessionValue("extend_least", 2)
"""The minimum frequency of a new merge's pair."""
AT = SessionValue("extend_at", 0)
"""The lesson's moment: the new merge shown (0: the new text before any)."""
MAX_ADD = links.MAX_ADD


LINKED = {links.EXTEND_FROM: FROM, links.EXTEND_NEW: NEW, links.ADD: ADD, links.LEAST: LEAST, links.EXTEND_AT: AT}
"""Each of the page's link parameters (declared in ``ui/links.py``) and the value it sets."""


def link_params() -> dict:
    return {param: value.get() for param, value in LINKED.items()}


@dataclass(frozen=True)
class Start:
    """The tokenizer to extend, what it is called, what it was made for, and the anchor its views share."""

    tokenizer: Tokenizer
    name: str
    old_text: str
    old_what: str
    """What the old text is, in words."""
    anchor: object
    step: int | None
    """Our run's step (``None`` for a pretrained tokenizer)."""


def chosen_start() -> Start | None:
    """The start the learner chose; ``None`` after a message on the page saying why there is none."""
    choice = FROM.get()
    if choice != tokenizers.OURS:
        tokenizer = tokenizers.pretrained(choice)
        what = "English like its own: the Declaration's article and the start of python-docs"
        return None if tokenizer is None else Start(tokenizer, PRETRAINED[choice].title, old_text(), what, tokenizer, None)
    trained = current_run()
    if trained is None:
        return None
    step = lab().step
    corpus = trained.text if trained.text is not None else " ".join(word for word, count in trained.table or () for _ in range(count))
    return Start(tokenizer_at(trained, step), f"your run at step {step:,}", corpus, "the run's own corpus", trained, step)


def new_text() -> str:
    return OWN_TEXT.get() if NEW.get() == OWN else NEW_TEXTS[NEW.get()].text


def extension(start: Start, text: str) -> tuple[Trace, Tokenizer] | None:
    """The run that continues ``start`` on ``text``, and the tokenizer it ends with; ``None`` after an error."""
    add, least = ADD.get(), LEAST.get()
    key = (start.step, text_key(text), add, least)
    try:
        check_corpus_size(text)
        trace = shared_view(start.anchor, "extension", *key, build=lambda: extend(
            start.tokenizer, text, merges=add, min_frequency=least, name=start.name, time_limit_s=MAX_TRAIN_SECONDS,
        ))
    except BpeError as error:
        st.error(f"**Cannot extend it with this text:** {escape_markdown(error)}", icon="🛑")
        return None
    extended = shared_view(start.anchor, "extended", *key, build=lambda: start.tokenizer.continued(trace, name=f"{start.name} + new text"))
    return trace, extended
