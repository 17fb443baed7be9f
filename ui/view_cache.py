"""Costly per-text views, cached on content and shared by every session, at most a few at once.

Why: the Encode page reran a 200,000-character encode and its walkthrough on every click, for
every session looking at it. Like training (``ui/training.py``), these views are now built once
per (tokenizer, text, mode) and kept in one bounded LRU store in ``st.cache_resource``.

Keys: the text is keyed by its SHA-256, the tokenizer by the object it comes from (the run's
trace and step for ours, the tokenizer itself for GPT-2 and imports). subtle: keys hold that
object's ``id()``, and each entry keeps the object alive, so the id cannot be reused by another
object while the entry exists; a hit also checks the object ``is`` the one stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from bpe.limits import MAX_VIEW_ENTRIES

from .training import BoundedStore

T = TypeVar("T")


@st.cache_resource(show_spinner=False)
def store() -> BoundedStore:
    """The one shared store (cleared by ``st.cache_resource.clear()``, e.g. between tests)."""
    return BoundedStore(MAX_VIEW_ENTRIES)


def cached_view(anchor: object, key: tuple, text: str, build: Callable[[], T]) -> T:
    """``build()`` for ``(anchor, key, text)``, or the stored result of an earlier call."""
    full_key: tuple[Any, ...] = (id(anchor), key, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    hit = store().get(full_key)
    if hit is not None and hit[0] is anchor:
        return hit[1]
    value = build()
    store().put(full_key, (anchor, value))
    return value
