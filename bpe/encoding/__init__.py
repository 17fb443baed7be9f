"""Encoding and decoding with learned merges: the tokenizer (:mod:`.tokenizer`), its checked table
(:mod:`.token_table`) and file (:mod:`.tokenizer_json`), the merge loop (:mod:`.merge_loop`), streaming,
offsets, the three segmentations, BPE-dropout, and what can be read from a vocabulary (health, overlap).
It imports ``text`` and ``tokens``; training sits above it (a trainer needs an encoder, for SuperBPE's
second stage and a continued run), and a trace becomes a tokenizer through its own fields.
"""
