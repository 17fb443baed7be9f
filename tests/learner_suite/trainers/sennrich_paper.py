"""The BPE learner of Sennrich, Haddow and Birch (2016), Algorithm 1, typed in from the paper: words
cut at whitespace, characters with </w> after each word, ties broken by Python's max over the
pair counts (the first pair counted).

    python sennrich_paper.py 60 < corpus.txt > codes.txt
"""
import collections
import re
import sys


def get_stats(vocab):
    pairs = collections.defaultdict(int)
    for word, freq in vocab.items():
        symbols = word.split()
        for i in range(len(symbols) - 1):
            pairs[symbols[i], symbols[i + 1]] += freq
    return pairs


def merge_vocab(pair, v_in):
    v_out = {}
    bigram = re.escape(" ".join(pair))
    p = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
    for word in v_in:
        w_out = p.sub("".join(pair), word)
        v_out[w_out] = v_in[word]
    return v_out


if __name__ == "__main__":
    words = collections.Counter(sys.stdin.read().split())
    vocab = {" ".join(word) + " </w>": freq for word, freq in words.items()}
    for i in range(int(sys.argv[1])):
        pairs = get_stats(vocab)
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        vocab = merge_vocab(best, vocab)
        print(best[0], best[1])
