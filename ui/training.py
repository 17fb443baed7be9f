"""Training, cached across reruns and users on (corpus hash, settings), with a progress bar.

Why not ``@st.cache_resource`` on the training function itself: Streamlit records every element
drawn inside a cached function and replays it on each cache hit, so a progress bar drawn from
the trainer's callback would reappear, frozen at 100 %, on every step. Instead one bounded LRU
store (:class:`~bpe.jobs.store.BoundedStore`) lives in ``st.cache_resource`` (shared, locked)
and training runs outside it. A trace is an immutable frozen dataclass, so sharing it between
sessions is safe.

Stepping never retrains: a step only reads the cached trace.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from bpe.app.lab_state import OWN_TABLE_SOURCE, OWN_TEXT_SOURCE, LabState
from bpe.errors import BpeError
from bpe.jobs.store import BoundedStore
from bpe.limits import MAX_TRAIN_SECONDS, check_corpus_size
from bpe.notation.markdown import escape_markdown
from bpe.text.corpus import Corpus
from bpe.training.presets import PRESETS
from bpe.training.settings import SECOND_STAGE_SPLIT
from bpe.training.trace import STOP_TIME_LIMIT, Trace
from bpe.training.trainer import base_vocabulary, train

from . import state, url
from .own_corpus import OWN_TABLE, OWN_TEXT, own_table_counts

MAX_ENTRIES = 24
"""Traces and corpora kept in memory at once (python-docs at 2,000 merges is a few MB)."""
BIG_TEXT = 50_000
"""From this many characters on, building the corpus gets a spinner and training a progress bar."""


@st.cache_resource(show_spinner=False)
def store() -> BoundedStore:
    """The one shared store (cleared by ``st.cache_resource.clear()``, e.g. between tests)."""
    return BoundedStore(MAX_ENTRIES)


@dataclass(frozen=True, eq=False)
class Trained:
    """A trace plus the corpus the pages show next to it: one shared run.

    Compared and hashed by identity (``eq=False``): a run is the object the training store hands
    out, so the views built from it (:mod:`ui.shared_views`) can be keyed on it cheaply, and two
    runs are never mistaken for each other."""

    trace: Trace
    text: str | None
    """The training text (``None`` for a word table)."""
    table: tuple[tuple[str, int], ...] | None
    """The word table (``None`` for text)."""


def _source(lab: LabState) -> tuple[tuple, str | None, tuple | None, Callable[[], Corpus]]:
    """``(cache key, text, table, build corpus)`` for the current example and settings."""
    if lab.source == OWN_TABLE_SOURCE or (lab.source in PRESETS and PRESETS[lab.source].word_counts is not None):
        counts = PRESETS[lab.source].word_counts if lab.source in PRESETS else own_table_counts(OWN_TABLE.get())
        table = tuple(counts.items())
        return ("table", table), None, table, lambda: Corpus.from_word_counts(counts)
    if lab.source == OWN_TEXT_SOURCE:
        text = check_corpus_size(OWN_TEXT.get())  # over the limit: an error, text kept
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    else:
        text = PRESETS[lab.source].corpus_text
        digest = f"preset:{lab.source}"  # preset text never changes within a process
    cut = () if lab.specials_as_text else lab.special_tokens  # as TrainSettings.cut_from_corpus
    second = None if lab.transition is None else SECOND_STAGE_SPLIT  # as TrainSettings.second_split
    key = ("text", digest, lab.pretokenizer, cut, second)
    return key, text, None, lambda: Corpus.from_text(
        text, pretokenizer=lab.pretokenizer, special_tokens=cut, second_split=second,
    )


def get_trained(lab: LabState) -> Trained | None:
    """The trained run for ``lab`` (training it now if needed); ``None`` after showing an error.

    Bad input (an invalid regex, a vocabulary size below the base, an empty word...) is shown
    with ``st.error`` and the engine's teaching message; the user's text and table stay as typed.
    """
    try:
        settings = lab.to_settings()
        corpus_key, text, table, build = _source(lab)
        cache = store()
        corpus = cache.get(("corpus", corpus_key))
        if corpus is None:
            big = text is not None and len(text) > BIG_TEXT
            with st.spinner(f"Splitting {len(text):,} characters into words…" if big else "Reading the corpus…"):
                corpus = build()
            cache.put(("corpus", corpus_key), corpus)
        trace_key = ("trace", corpus_key, settings)
        trained = cache.get(trace_key)
        if trained is None:
            wanted = settings.target_merges(len(base_vocabulary(corpus, settings)))
            bar = st.progress(0.0, text=f"Training {wanted:,} merges…") if wanted >= 300 else None

            def progress(done: int, total: int) -> None:
                if bar is not None and total:
                    bar.progress(min(done / total, 1.0), text=f"Training: merge {done:,} of {total:,}…")

            trace = train(corpus, settings, progress=progress, time_limit_s=MAX_TRAIN_SECONDS)
            if bar is not None:
                bar.empty()
            trained = Trained(trace, text, table)
            cache.put(trace_key, trained)
        if trained.trace.stop_reason == STOP_TIME_LIMIT:
            st.warning(
                f"Training stopped at the time limit of {MAX_TRAIN_SECONDS:g} s after "
                f"{len(trained.trace.steps):,} merges; the merges learned so far are kept. Ask for fewer "
                "merges or train on a shorter text to see the run end on its own.",
                icon="⏱️",
            )
        return trained
    except BpeError as error:
        st.error(f"**Cannot train with these inputs:** {escape_markdown(error)}", icon="🛑")
        return None


def clamp_step(trained: Trained) -> int:
    """Keep the step within the run (settings may have changed); warn if a link asked for more."""
    lab = state.lab()
    total = len(trained.trace.steps)
    if lab.step > total:
        if url.STEP_FROM_URL.get():
            st.warning(
                f"The link asks for step {lab.step:,}, but training stopped after {total:,} merges "
                f"({trained.trace.stop_detail}): showing step {total:,}.",
                icon="🔗",
            )
        state.update_lab(step=total)
    url.STEP_FROM_URL.set(False)
    return state.lab().step
