"""The Hugging Face course's `tokenize` (chapter 6, byte-level BPE), with the vocabulary looked up to
ids and the special tokens cut out first: GPT-2's split, each byte spelled as GPT-2's printable
character, then every merge, in the order learned, applied everywhere.

    python hf_course_tokenize.py TOKENIZER_FOLDER < texts.json > ids.json
"""
import json
import re
import sys

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


def tokenize(text, merges):
    pre_tokenized_text = ["".join(BYTE_TO_CHAR[b] for b in word.encode("utf-8")) for word in PAT.findall(text)]
    splits = [[c for c in word] for word in pre_tokenized_text]
    for pair, merge in merges.items():
        for idx, split in enumerate(splits):
            i = 0
            while i < len(split) - 1:
                if split[i] == pair[0] and split[i + 1] == pair[1]:
                    split = split[:i] + [merge] + split[i + 2:]
                else:
                    i += 1
            splits[idx] = split
    return sum(splits, [])


def encode(text, merges, vocab, special_tokens):
    ids = []
    for part in re.split("(" + "|".join(map(re.escape, special_tokens)) + ")", text):
        if part in special_tokens:
            ids.append(special_tokens[part])
        elif part:
            ids.extend(vocab[token] for token in tokenize(part, merges))
    return ids


if __name__ == "__main__":
    folder = sys.argv[1]
    vocab = json.load(open(f"{folder}/encoder.json", encoding="utf-8"))
    lines = open(f"{folder}/vocab.bpe", encoding="utf-8").read().split("\n")[1:-1]
    merges = {tuple(line.split()): "".join(line.split()) for line in lines}
    special_tokens = json.load(open(f"{folder}/specials.json"))
    print(json.dumps([encode(text, merges, vocab, special_tokens) for text in json.load(sys.stdin)]))
