"""The Extend page's state and its shared work: which tokenizer is extended with which text, the run
that continues it, and the extended tokenizer.

Every choice is a :class:`~ui.state.SessionValue` that the link also carries (``from=gpt2&new=hin&add=200
&least=2&at=12``; ``at`` is the lesson's moment, the new merge shown). The run and the tokenizer it
ends with are built once per start, text and settings for the whole server (``ui.shared_views``),
anchored on the start: the pretrained tokenizer (shared by every session) or the learner's run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.jobs.board import FAILED, JobRequest
from bpe.limits import MAX_TRAIN_SECONDS, check_corpus_size
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.extension import DEFAULT_LEAST, DEFAULT_MERGES, DEFAULT_TEXT, NEW_TEXTS, OWN, CostRow, cost_texts, old_text
from bpe.teaching.jobs import TokenizerSource, extension_request
from bpe.training.extend import reattached
from bpe.training.trace import Trace

from . import background, links, tokenizers
from .preamble import current_run
from .render import tokenizer_at
from .shared_views import shared_view, text_key
from .state import SessionValue, lab

FROM = SessionValue("extend_from", "gpt2")
"""``ours`` (the run in the sidebar, at its step) or a pretrained tokenizer's name."""
NEW = SessionValue("extend_new", DEFAULT_TEXT)
"""A key of :data:`~bpe.teaching.extension.NEW_TEXTS`, or ``own``."""
OWN_TEXT = SessionValue("extend_own_text", "")
ADD = SessionValue("extend_add", DEFAULT_MERGES)
"""How many new merges at most."""
LEAST = SessionValue("extend_least", DEFAULT_LEAST)
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


@dataclass(frozen=True)
class Extension:
    """What the page draws of an extension: its run and the tokenizer it ends with, then (once written) its files."""

    trace: Trace
    costs: Sequence[CostRow] | None
    """What :func:`costed_texts` cost before and after; ``None`` while the extended tokenizer is being built."""
    files: Mapping[str, Mapping[str, bytes] | str] | None
    """:func:`~bpe.formats.files.export_all` of the extended tokenizer; ``None`` while they are being written."""
    key: tuple


def extension(start: Start, text: str) -> Extension | None:
    """The run that continues ``start`` on ``text`` and what it ends with, worked out apart (``ui.background``:
    Llama 3's takes seconds, and its files in seven formats more); ``None`` until the run has come, or after an error."""
    add, least = ADD.get(), LEAST.get()
    key = (start.step, text_key(text), add, least)
    try:
        check_corpus_size(text)
    except BpeError as error:
        st.error(f"**Cannot extend it with this text:** {escape_markdown(error)}", icon="🛑")
        return None
    request = _request(start, text, add, least)
    view = background.job(start.anchor, "extension", *key, request=request)
    if view.state == FAILED:
        st.error(f"**Cannot extend it with this text:** {escape_markdown(view.error)}", icon="🛑")
        return None
    if "trace" not in view.parts:
        background.progress(start.anchor, "extension", *key, request=request, what=f"Extending {escape_markdown(start.name)}")
        return None
    trace = shared_view(start.anchor, "extension", *key, build=lambda: reattached(view.parts["trace"], start.tokenizer))
    return Extension(trace, view.parts.get("costs"), view.parts.get("files"), key)


def still_working(start: Start, text: str, extension: Extension, what: str) -> None:
    """How far the rest of the extension is (drawn where it will be shown), saying ``what`` it is."""
    background.progress(start.anchor, "extension", *extension.key, request=_request(start, text, ADD.get(), LEAST.get()), what=what)


def costed_texts(start: Start, text: str) -> dict[str, tuple[str, str]]:
    """The texts the page prices (:func:`~bpe.teaching.extension.cost_texts`), the new one named as the menu does."""
    label = "your text" if NEW.get() == OWN else NEW_TEXTS[NEW.get()].title.split(":")[0]
    return cost_texts(label, text) | {"old text": ("", start.old_text)}


def _request(start: Start, text: str, add: int, least: int):
    choice, priced = FROM.get(), costed_texts(start, text)

    def request() -> JobRequest:  # in the job's thread: our run's JSON is written there, not in the page's
        source = TokenizerSource(choice) if start.step is None else TokenizerSource.written(start.tokenizer)
        return extension_request(source, text=text, merges=add, min_frequency=least, name=start.name,
                                 time_limit_s=MAX_TRAIN_SECONDS, priced=priced)

    return request
