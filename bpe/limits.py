"""The limits BPE Lab enforces, stated in one place (the CLI, the app and the docs read them here)."""

MAX_MERGES = 20_000
"""Most merges one training run may ask for."""

MAX_CORPUS_CHARS = 2_000_000
"""Most characters of text the app trains on (python-docs is about 465,000)."""

MAX_TRAIN_SECONDS = 60.0
"""The app stops training after this long and keeps the merges learned so far."""
