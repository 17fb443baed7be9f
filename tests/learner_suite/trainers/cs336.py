"""The CS336 (Stanford, 2025) assignment 1 BPE trainer: special tokens cut out of the text first,
GPT-2's split, pre-tokens counted as tuples of bytes, every pair recounted each step, ties broken
by the lexicographically greater pair.

    python cs336.py 60 '<|endoftext|>' < corpus.txt > merges.json
"""
import json
import re
import sys
from collections import Counter

import regex

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def pretokenize(text, special_tokens):
    parts = re.split("|".join(re.escape(token) for token in special_tokens), text) if special_tokens else [text]
    counts = Counter()
    for part in parts:
        for match in regex.finditer(PAT, part):
            counts[tuple(bytes([b]) for b in match.group().encode("utf-8"))] += 1
    return counts


def train(text, num_merges, special_tokens):
    words = pretokenize(text, special_tokens)
    merges = []
    for _ in range(num_merges):
        counts = Counter()
        for word, freq in words.items():
            for pair in zip(word, word[1:]):
                counts[pair] += freq
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        merges.append(best)
        new_words = {}
        for word, freq in words.items():
            out, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            new_words[tuple(out)] = new_words.get(tuple(out), 0) + freq
        words = new_words
    return merges


if __name__ == "__main__":
    merges = train(sys.stdin.read(), int(sys.argv[1]), sys.argv[2:])
    print(json.dumps([[list(a), list(b)] for a, b in merges]))
