"""Tokens: what a token is (:mod:`.vocab`, with the ``Pair`` and ``Merge`` types every stage shares),
ids as a person writes them (:mod:`.ids`), bytes shown as printable text (:mod:`.byte_level`) and where
the end-of-word marker goes (:mod:`.end_of_word`). The lowest stage: it imports only ``errors``.
"""
