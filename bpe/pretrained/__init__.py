"""Pretrained tokenizers loaded offline: the registry (:mod:`.registry`), the special tokens their
files lack (:mod:`.specials`), the whole-chunk lookup they encode with (:mod:`.pretrained_tokenizer`),
the per-user cache of their tables (:mod:`.merge_cache`, with :mod:`.table_core`) and model names
(:mod:`.model_names`). It reads ``formats`` (each entry is loaded by its file's format).
"""

# The names of bpe/pretrained.py before it became this package (issue 41): scripts import them from here.
from .registry import (
    ALIASES, PRETRAINED, PRETRAINED_NAMES, READERS, PretrainedEntry, load_pretrained, merge_cache_file, pretrained_entry,
    pretrained_file_paths, read_checked,
)

__all__ = [
    "ALIASES", "PRETRAINED", "PRETRAINED_NAMES", "READERS", "PretrainedEntry", "load_pretrained", "merge_cache_file",
    "pretrained_entry", "pretrained_file_paths", "read_checked",
]
