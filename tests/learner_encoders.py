"""Learner-style BPE encoders, written the way a student writes one, for Check my encoder to diagnose.

``encode`` is a short homework-style encoder in minbpe's shape: the tokenizer's merges as a list
of ``(left id, right id, new id)`` in the order they were learned (ids 0-255 are the bytes; a new
id need not follow that order, as in a vocabulary file sorted by token), special tokens cut out
first, GPT-2's split, then in each chunk the pair with the lowest rank merged, every place, until
none is left. It is correct as written. Each classic mistake is one small function swapped
in for the right one, as a learner would have written it; :data:`ENCODERS` names them by the code
Check my encoder must answer. It shares no code with the engine, so a diagnosis of its ids is
evidence, not tautology.

    >>> merges = [(97, 97, 256), (256, 97, 257)]
    >>> encode("aaaa", merges), LEARNER_ENCODERS["left-to-right"]("aaa", merges)
    ([256, 256], [257])
"""

from __future__ import annotations

import functools
import re
from functools import partial

from .learners import gpt2_split, replace_pair, whole_text  # whole_text: the pretokenization mistake


def byte_ids(chunk, vocab):
    return list(chunk.encode("utf-8"))


def char_ids(chunk, vocab):  # mistake (unit): list(text), each character looked up whole when the vocabulary has it
    by_bytes = {data: token_id for token_id, data in vocab.items()}
    ids = []
    for char in chunk:
        data = char.encode("utf-8")
        ids += [by_bytes[data]] if data in by_bytes else list(data)
    return ids


def by_rank(ids, merges, vocab):
    ranks = {(a, b): rank for rank, (a, b, _) in enumerate(merges)}
    while len(ids) >= 2:
        pairs = set(zip(ids, ids[1:]))
        pair = min(pairs, key=lambda p: ranks.get(p, float("inf")))
        if pair not in ranks:
            break
        ids = replace_pair(ids, pair, merges[ranks[pair]][2])
    return ids


def first_known_pair(ids, merges, vocab):  # mistake (left-to-right): the first pair met that has a merge
    merges = {(a, b): new_id for a, b, new_id in merges}
    while True:
        for i in range(len(ids) - 1):
            if (ids[i], ids[i + 1]) in merges:
                ids = ids[:i] + [merges[ids[i], ids[i + 1]]] + ids[i + 2:]
                break
        else:
            return ids


def first_known_pair_everywhere(ids, merges, vocab):  # mistake (left-to-right): minbpe's merge() on the first known pair
    merges = {(a, b): new_id for a, b, new_id in merges}
    while True:
        known = [pair for pair in zip(ids, ids[1:]) if pair in merges]
        if not known:
            return ids
        ids = replace_pair(ids, known[0], merges[known[0]])


def unknown_ranked_first(ids, merges, vocab):  # mistake (unknown-first): ranks.get(p, 0) makes an unknown pair win
    ranks = {(a, b): rank for rank, (a, b, _) in enumerate(merges)}
    while len(ids) >= 2:
        pair = min(zip(ids, ids[1:]), key=lambda p: ranks.get(p, 0))
        if pair not in ranks:
            break
        ids = replace_pair(ids, pair, merges[ranks[pair]][2])
    return ids


def last_known_pair(ids, merges, vocab):  # mistake (rightmost-first)
    merges = {(a, b): new_id for a, b, new_id in merges}
    while True:
        for i in reversed(range(len(ids) - 1)):
            if (ids[i], ids[i + 1]) in merges:
                ids = ids[:i] + [merges[ids[i], ids[i + 1]]] + ids[i + 2:]
                break
        else:
            return ids


def every_known_pair(ids, merges, vocab):  # mistake (all-at-once): one pass merges whatever it can
    merges = {(a, b): new_id for a, b, new_id in merges}
    changed = True
    while changed:
        out, i, changed = [], 0, False
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) in merges:
                out.append(merges[ids[i], ids[i + 1]])
                i, changed = i + 2, True
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids


def longest_match(ids, merges, vocab):  # mistake (longest-match): a textbook's segment_BPE
    by_bytes = {data: token_id for token_id, data in vocab.items()}
    data = b"".join(vocab[i] for i in ids)
    out, i = [], 0
    while i < len(data):
        for j in range(len(data), i, -1):
            if data[i:j] in by_bytes:
                out.append(by_bytes[data[i:j]])
                i = j
                break
    return out


def by_token_id(ids, merges, vocab):  # mistake (merged-token-rank): the new token's id as the priority
    new = {(a, b): new_id for a, b, new_id in merges}
    while len(ids) >= 2:
        pairs = set(zip(ids, ids[1:]))
        pair = min(pairs, key=lambda p: new.get(p, float("inf")))
        if pair not in new:
            break
        ids = replace_pair(ids, pair, new[pair])
    return ids


def vocabulary(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for a, b, new_id in merges:  # in the order learned: each token from two older ones
        vocab[new_id] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges, special_tokens=None, *, split=gpt2_split, start=byte_ids, loop=by_rank, cut_specials=True,
           number=lambda token_id: token_id):
    special_tokens = special_tokens or {}
    vocab = vocabulary(merges)
    pieces = [text]
    if special_tokens and cut_specials:
        pieces = re.split("(" + "|".join(map(re.escape, special_tokens)) + ")", text)
    ids = []
    for piece in pieces:
        if piece in special_tokens and cut_specials:
            ids.append(special_tokens[piece])
            continue
        for chunk in split(piece):
            ids += loop(start(chunk, vocab), merges, vocab)
    return [number(token_id) for token_id in ids]


LEARNER_ENCODERS = {
    None: encode,
    "left-to-right": partial(encode, loop=first_known_pair),
    "left-to-right-everywhere": partial(encode, loop=first_known_pair_everywhere),
    "unknown-first": partial(encode, loop=unknown_ranked_first),
    "all-at-once": partial(encode, loop=every_known_pair),
    "rightmost-first": partial(encode, loop=last_known_pair),
    "longest-match": partial(encode, loop=longest_match),
    "merged-token-rank": partial(encode, loop=by_token_id),
    "pretokenization": partial(encode, split=whole_text),
    "special-tokens": partial(encode, cut_specials=False),
    "unit": partial(encode, start=char_ids),
    "off-by-one": partial(encode, number=lambda token_id: token_id + 1),
}
"""Mistake code (None: no mistake; ``code-variant`` for a second way to make one) -> an encoder that makes
it: ``encoder(text, merges, special_tokens)``."""


@functools.cache
def suite_tokenizer():
    """The tokenizer the suite checks: byte-level BPE with GPT-2's split and ``<|endoftext|>``,
    trained on python-docs and the multilingual lines, with its merged tokens numbered in the order
    of their bytes (as a vocabulary file sorted by token numbers them), so that a token's id is not
    its merge's rank. Returns ``(tokenizer, merges as (left, right, new id) in rank order, specials)``."""
    from bpe import Corpus, TrainSettings, train
    from bpe.training.presets import python_docs_text
    from bpe.encoding.tokenizer import Tokenizer

    from .multilingual import multilingual_corpus

    special = "<|endoftext|>"
    text = python_docs_text()[:100_000] + multilingual_corpus(150) + special
    settings = TrainSettings(pretokenizer="gpt2", merges=1200, special_tokens=(special,))
    trained = Tokenizer.from_trace(train(Corpus.from_text(text, pretokenizer="gpt2", special_tokens=(special,)), settings))
    tokens = trained.tokens
    by_bytes = sorted((new_id for _, _, new_id in trained.merges), key=lambda new_id: tokens[new_id].data)
    number = {**{byte: byte for byte in range(256)}, **{old: 256 + rank for rank, old in enumerate(by_bytes)}}
    merges = [(number[left], number[right], number[new_id]) for left, right, new_id in trained.merges]
    specials = {special: 256 + len(merges)}
    tokenizer = Tokenizer(unit="byte", pretokenizer="gpt2", base=trained.base, merges=merges, special_tokens=specials,
                          name="the suite's tokenizer")
    return tokenizer, merges, specials
