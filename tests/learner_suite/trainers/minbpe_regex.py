"""A byte-level BPE trainer in the shape of minbpe's RegexTokenizer.train, for the CS336 homework:
GPT-2's split, ids 0-255 for the bytes and 256 + i for merge i, ties broken by the greater pair of
byte strings.

    python minbpe_regex.py 60 < corpus.txt > my.model
"""
import sys

import regex as re

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def train(text, num_merges):
    text_chunks = re.findall(GPT2_SPLIT_PATTERN, text)
    ids = [list(ch.encode("utf-8")) for ch in text_chunks]
    vocab = {idx: bytes([idx]) for idx in range(256)}
    merges = {}
    for i in range(num_merges):
        stats = {}
        for chunk_ids in ids:
            get_stats(chunk_ids, stats)
        if not stats:
            break
        pair = max(stats, key=lambda p: (stats[p], vocab[p[0]], vocab[p[1]]))
        idx = 256 + i
        ids = [merge(chunk_ids, pair, idx) for chunk_ids in ids]
        merges[pair] = idx
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    return merges


if __name__ == "__main__":
    merges = train(sys.stdin.read(), int(sys.argv[1]))
    print("minbpe v1")
    print(GPT2_SPLIT_PATTERN)
    print(0)
    for idx1, idx2 in merges:
        print(idx1, idx2)
