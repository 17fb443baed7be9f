"""Text before any merge: the corpus (:mod:`.corpus`, read from the user's files by :mod:`.local_files`),
normalization and pre-tokenization (:mod:`.pretokenize` and the registry in :mod:`.named_pretokenizers`,
with their helpers: ``split_rules``, ``fast_split``, ``pattern_guard`` and ``regex_reader``, and
SentencePiece's split in the ``sentencepiece_*`` modules) and special-token text (:mod:`.special_text`).
It imports only ``tokens`` and the top (errors, limits).
"""
