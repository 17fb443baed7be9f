"""The limits BPE Lab enforces, stated in one place (the CLI, the app and the docs read them here)."""

from .errors import BpeError


MAX_MERGES = 20_000
"""Most merges one training run may ask for."""

MAX_CORPUS_CHARS = 2_000_000
"""Most characters of text the app trains on (python-docs is about 465,000)."""

MAX_TRAIN_SECONDS = 60.0
"""The app stops training after this long and keeps the merges learned so far."""

MAX_UPLOAD_MB = 5
"""Largest file the app accepts (also set as ``server.maxUploadSize`` in .streamlit/config.toml)."""

MAX_ENCODE_CHARS = 200_000
"""Most characters the app encodes or walks through at once."""


def check_corpus_size(text: str) -> str:
    """Return ``text`` if it is within :data:`MAX_CORPUS_CHARS`, else raise a :class:`BpeError`."""
    if len(text) > MAX_CORPUS_CHARS:
        raise BpeError(
            f"the corpus has {len(text):,} characters, over the limit of {MAX_CORPUS_CHARS:,}; "
            "train on a shorter excerpt"
        )
    return text
