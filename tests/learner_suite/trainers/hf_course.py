"""Byte-level BPE as the Hugging Face course's chapter 6 builds it, without the library: GPT-2's
split, each byte spelled as GPT-2's printable character (a space is Ġ), word frequencies, and the
pair with the top count kept by `max_freq < freq`, the first one met.

    python hf_course.py 60 < corpus.txt > merges.json
"""
import json
import sys
from collections import defaultdict

import regex

PAT = regex.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_TO_CHAR = bytes_to_unicode()


def pre_tokenize(text):
    return ["".join(BYTE_TO_CHAR[b] for b in word.encode("utf-8")) for word in PAT.findall(text)]


def compute_pair_freqs(splits, word_freqs):
    pair_freqs = defaultdict(int)
    for word, freq in word_freqs.items():
        split = splits[word]
        if len(split) == 1:
            continue
        for i in range(len(split) - 1):
            pair = (split[i], split[i + 1])
            pair_freqs[pair] += freq
    return pair_freqs


def merge_pair(a, b, splits, word_freqs):
    for word in word_freqs:
        split = splits[word]
        if len(split) == 1:
            continue
        i = 0
        while i < len(split) - 1:
            if split[i] == a and split[i + 1] == b:
                split = split[:i] + [a + b] + split[i + 2:]
            else:
                i += 1
        splits[word] = split
    return splits


def train(text, vocab_merges):
    word_freqs = defaultdict(int)
    for word in pre_tokenize(text):
        word_freqs[word] += 1
    splits = {word: [c for c in word] for word in word_freqs}
    merges = []
    while len(merges) < vocab_merges:
        pair_freqs = compute_pair_freqs(splits, word_freqs)
        best_pair, max_freq = "", None
        for pair, freq in pair_freqs.items():
            if max_freq is None or max_freq < freq:
                best_pair, max_freq = pair, freq
        if not best_pair:
            break
        splits = merge_pair(*best_pair, splits, word_freqs)
        merges.append(list(best_pair))
    return merges


if __name__ == "__main__":
    print(json.dumps(train(sys.stdin.read(), int(sys.argv[1])), ensure_ascii=False))
