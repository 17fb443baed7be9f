"""A textbook's segment_BPE: the vocabulary read from vocab.json (id -> hex bytes), special tokens cut
out first, GPT-2's split, then in each chunk, at each place, the longest token that starts there.

    python textbook_segment.py TOKENIZER_FOLDER < texts.json > ids.json
"""
import json
import re
import sys

import regex

PAT = regex.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def segment(data, by_bytes, longest):
    out, i = [], 0
    while i < len(data):
        for j in range(min(len(data), i + longest), i, -1):
            if data[i:j] in by_bytes:
                out.append(by_bytes[data[i:j]])
                i = j
                break
    return out


if __name__ == "__main__":
    folder = sys.argv[1]
    vocab = {int(idx): bytes.fromhex(data) for idx, data in json.load(open(f"{folder}/vocab.json")).items()}
    by_bytes = {data: idx for idx, data in sorted(vocab.items(), reverse=True)}
    longest = max(map(len, vocab.values()))
    specials = json.load(open(f"{folder}/specials.json"))
    results = []
    for text in json.load(sys.stdin):
        ids = []
        for part in re.split("(" + "|".join(map(re.escape, specials)) + ")", text):
            if part in specials:
                ids.append(specials[part])
                continue
            for chunk in PAT.findall(part):
                ids += segment(chunk.encode("utf-8"), by_bytes, longest)
        results.append(ids)
    print(json.dumps(results))
