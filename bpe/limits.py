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

MAX_PATTERN_CHARS = 2_000
"""Longest custom split pattern (GPT-4's is 150 characters, o200k's under 400)."""

MAX_PATTERN_PROGRAM = 10_000
"""Largest estimated program a custom pattern may compile to (see :mod:`bpe.pattern_guard`).

Measured (``benchmarks/regex_compile_cost.py``, regex 2026.11.15, one compile per fresh process):
``regex.compile`` costs 200-800 bytes and up to 20 microseconds per unit, so a pattern at this
limit compiles in under 0.2 s and 10 MB, while ``(?:a{1000}){1000}`` (1,000,000) took 0.4-0.7 s and
262 MB and ``(?:a{65535}){65535}`` failed after 22 s at a 2 GB cap.
"""

MAX_PATTERN_DEPTH = 50
"""Deepest nesting of groups in a custom pattern (``regex``'s parser recurses; about 190 levels
raise RecursionError)."""
