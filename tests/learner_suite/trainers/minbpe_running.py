"""minbpe's training loop made faster the way students do: the pair counts are counted once, then
kept up to date after each merge (the pairs of every chunk that held the pair taken away, its new
pairs added) instead of counted afresh; the pair with the top count wins.

    python minbpe_running.py 60 < corpus.txt > merges.json
"""
import json
import sys

import regex as re

GPT2_SPLIT_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def train(text, num_merges):
    chunks = [list(chunk.encode("utf-8")) for chunk in re.findall(GPT2_SPLIT_PATTERN, text)]
    vocab = {idx: bytes([idx]) for idx in range(256)}
    stats = {}
    for ids in chunks:
        for pair in zip(ids, ids[1:]):
            stats[pair] = stats.get(pair, 0) + 1
    merges = []
    for i in range(num_merges):
        if not stats or max(stats.values()) <= 0:
            break
        pair = max(stats, key=stats.get)
        idx = 256 + i
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        merges.append((vocab[pair[0]], vocab[pair[1]]))
        for n, ids in enumerate(chunks):
            if pair[0] not in ids:
                continue
            new = merge(ids, pair, idx)
            if new == ids:
                continue
            for old_pair in zip(ids, ids[1:]):
                stats[old_pair] -= 1
            for new_pair in zip(new, new[1:]):
                stats[new_pair] = stats.get(new_pair, 0) + 1
            chunks[n] = new
        del stats[pair]
    return merges


if __name__ == "__main__":
    merges = train(sys.stdin.read(), int(sys.argv[1]))
    print(json.dumps([[list(a), list(b)] for a, b in merges]))
