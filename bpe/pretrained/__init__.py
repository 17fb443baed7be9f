"""Pretrained tokenizers loaded offline: the registry (:mod:`.registry`), the special tokens their
files lack (:mod:`.specials`), the whole-chunk lookup they encode with (:mod:`.pretrained_tokenizer`),
the per-user cache of their tables (:mod:`.merge_cache`, with :mod:`.spelled_table`) and model names
(:mod:`.model_names`). It reads ``formats`` (each entry is loaded by its file's format).
"""
