"""A byte-level BPE encoder in the shape of minbpe's RegexTokenizer.encode, over a tokenizer saved as
merges.json ([left id, right id, new id] in the order the merges were learned; a new id need not
follow that order) and specials.json: special tokens cut out first, GPT-2's split, then in each
chunk the pair learned earliest merged everywhere, until no pair has a merge.

    python minbpe_encode.py TOKENIZER_FOLDER < texts.json > ids.json
"""
import json
import sys

import regex as re

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


class Tokenizer:
    def __init__(self, folder):
        learned = json.load(open(f"{folder}/merges.json"))
        self.merges = {(left, right): new for left, right, new in learned}
        self.ranks = {(left, right): rank for rank, (left, right, _) in enumerate(learned)}
        self.special_tokens = json.load(open(f"{folder}/specials.json"))
        self.vocab = {idx: bytes([idx]) for idx in range(256)}
        for (left, right), new in self.merges.items():
            self.vocab[new] = self.vocab[left] + self.vocab[right]

    def _encode_chunk(self, text_bytes):
        ids = list(text_bytes)
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.ranks.get(p, float("inf")))
            if pair not in self.ranks:
                break
            idx = self.merges[pair]
            ids = merge(ids, pair, idx)
        return ids

    def encode_ordinary(self, text):
        ids = []
        for chunk in re.findall(GPT2_SPLIT_PATTERN, text):
            ids.extend(self._encode_chunk(chunk.encode("utf-8")))
        return ids

    def encode(self, text):
        special_pattern = "(" + "|".join(re.escape(k) for k in self.special_tokens) + ")"
        ids = []
        for part in re.split(special_pattern, text):
            if part in self.special_tokens:
                ids.append(self.special_tokens[part])
            else:
                ids.extend(self.encode_ordinary(part))
        return ids


if __name__ == "__main__":
    tokenizer = Tokenizer(sys.argv[1])
    print(json.dumps([tokenizer.encode(text) for text in json.load(sys.stdin)]))
