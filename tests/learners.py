"""Learner-style BPE trainers, written the way a student writes one, for ``check`` to diagnose.

``learn`` is a short homework-style trainer (CS336's shape: split out special tokens, pre-tokenize
with GPT-2's regex, count words, recount every pair each step, break ties by the greater pair). It
is correct as written. Each classic mistake is one small function swapped in for the right one, as
a learner would have written it; :data:`LEARNERS` names them by the code ``check`` must answer.
It shares no code with the engine, so a diagnosis of its merges is evidence, not tautology.

    >>> learn("aaa aaa ab ab ab", 2)
    [(b'a', b'a'), (b'a', b'b')]
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import partial

import regex

# GPT-2's pattern as tiktoken spells it (r50k_base).
GPT2_SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""


def gpt2_split(text):
    return regex.findall(GPT2_SPLIT, text)


def whole_text(text):  # mistake (chunk-boundary): no pre-tokenization, merges cross words
    return [text] if text else []


def byte_symbols(word, marker=None):
    symbols = [bytes([b]) for b in word.encode("utf-8")]
    return symbols + [marker.encode()] if marker else symbols


def char_symbols(word, marker=None):  # mistake (unit): characters where bytes were meant
    symbols = [ch.encode("utf-8") for ch in word]
    return symbols + [marker.encode()] if marker else symbols


def glued_marker_symbols(word, marker):  # mistake (end-of-word): "t</w>" instead of "t", "</w>"
    symbols = [bytes([b]) for b in word.encode("utf-8")]
    return symbols[:-1] + [symbols[-1] + marker.encode()]


def count_pairs(corpus):
    counts = Counter()
    for symbols, freq in corpus.items():
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += freq
    return counts


def count_pairs_no_overlap(corpus):  # mistake (overlapping-pairs): counts what a merge would replace
    counts = Counter()
    for symbols, freq in corpus.items():
        for pair in set(zip(symbols, symbols[1:])):
            n, i = 0, 0
            while i < len(symbols) - 1:
                if (symbols[i], symbols[i + 1]) == pair:
                    n, i = n + 1, i + 2
                else:
                    i += 1
            counts[pair] += n * freq
    return counts


def count_pairs_once(corpus):  # mistake (word-frequency): every distinct word counts 1
    counts = Counter()
    for symbols in corpus:
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += 1
    return counts


def greatest(counts):
    return max(counts, key=lambda pair: (counts[pair], pair))


def first_best(counts):  # mistake (tie-break): max() keeps the first pair it met, not the greatest
    return max(counts, key=counts.get)


def merge(symbols, pair):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def merge_from_the_right(symbols, pair):  # mistake (replacement): "aaa" -> "a aa"
    out, i = [], len(symbols) - 1
    while i >= 0:
        if i > 0 and (symbols[i - 1], symbols[i]) == pair:
            out.insert(0, pair[0] + pair[1])
            i -= 2
        else:
            out.insert(0, symbols[i])
            i -= 1
    return tuple(out)


def merge_overlapping(symbols, pair):  # mistake (replacement): "aaa" -> "aa aa", forgot to skip
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            overlaps = i + 2 < len(symbols) and symbols[i + 2] == symbols[i + 1] == pair[0] == pair[1]
            i += 1 if overlaps else 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def merge_first_place(symbols, pair):  # mistake (replacement): returns after the first replacement
    for i in range(len(symbols) - 1):
        if (symbols[i], symbols[i + 1]) == pair:
            return symbols[:i] + (pair[0] + pair[1],) + symbols[i + 2:]
    return symbols


def replace_pair(ids, pair, new_id):
    """minbpe's ``merge(ids, pair, idx)``: each occurrence of ``pair``, left to right, becomes ``new_id``."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def merge_every_word(corpus, pair, apply):
    return {apply(symbols, pair): freq for symbols, freq in corpus.items()}


def merge_first_word(corpus, pair, apply):  # mistake (replacement): stops at the first word holding the pair
    merged, done = {}, False
    for symbols, freq in corpus.items():
        if not done and pair in zip(symbols, symbols[1:]):
            symbols, done = apply(symbols, pair), True
        merged[symbols] = freq
    return merged


def unchanged(text):
    return text


def lowercased(text):  # mistake (normalization)
    return text.lower()


def nfkc(text):  # mistake (normalization)
    return unicodedata.normalize("NFKC", text)


def collapsed(text):  # mistake (normalization): every run of whitespace becomes one space
    return " ".join(text.split())


def learn(text=None, num_merges=10, special_tokens=(), *, words=None, split=gpt2_split, symbols=byte_symbols,
          marker=None, count=count_pairs, pick=greatest, apply=merge, split_specials=True, merge_words=merge_every_word,
          normalize=unchanged):
    """Merges as ``(left bytes, right bytes)``; ``words`` (a word table) replaces ``text``."""
    if words is None:
        text = normalize(text)
        pieces = [text]
        if special_tokens and split_specials:
            pieces = re.split("|".join(map(re.escape, special_tokens)), text)
        words = Counter(word for piece in pieces for word in split(piece))
    corpus = {tuple(symbols(word, marker) if marker else symbols(word)): freq for word, freq in words.items()}
    merges = []
    for _ in range(num_merges):
        counts = count(corpus)
        if not counts:
            break
        best = pick(counts)
        merges.append(best)
        corpus = merge_words(corpus, best, apply)
    return merges


def learn_vocabulary(text, vocab_size, special_tokens=(), *, bug=None, **options):
    """A trainer asked for a vocabulary size: 256 bytes + merges + special tokens, so it should make
    ``vocab_size - 256 - len(special_tokens)`` merges. ``bug="stops short"``: ``range(256, vocab_size - 1)``
    (one too few); ``bug="runs on"``: the special tokens forgotten (one too many per special token)."""
    merges = vocab_size - 256 - len(special_tokens)
    merges += {None: 0, "stops short": -1, "runs on": len(special_tokens)}[bug]
    return learn(text, merges, special_tokens, **options)


LEARNERS = {
    None: learn,
    "tie-break": partial(learn, pick=first_best),
    "overlapping-pairs": partial(learn, count=count_pairs_no_overlap),
    "chunk-boundary": partial(learn, split=whole_text),
    "special-token": partial(learn, split_specials=False),
    "word-frequency": partial(learn, count=count_pairs_once),
    "replacement": partial(learn, apply=merge_from_the_right),
    "replacement-overlap": partial(learn, apply=merge_overlapping),
    "replacement-first-place": partial(learn, apply=merge_first_place),
    "replacement-first-word": partial(learn, merge_words=merge_first_word),
    "normalization-lowercase": partial(learn, normalize=lowercased),
    "normalization-nfkc": partial(learn, normalize=nfkc),
    "normalization-collapse": partial(learn, normalize=collapsed),
    "unit": partial(learn, symbols=char_symbols),
    "end-of-word": partial(learn, symbols=glued_marker_symbols),
}
"""Mistake code (None: no mistake; ``code-variant`` for one of several ways to make it) -> a learner that makes it."""


# -- two homework trainers whose bug is in the code, not the settings ------------------------------
def words_in_order(text):
    """Each whitespace-separated word with its count, in the order the words first appear."""
    return dict(Counter(text.split()))


def paper_with_str_replace(text=None, num_merges=10, *, words=None):
    """The Sennrich et al. (2016) paper's code, characters and </w>, ties by ``max`` over a dict (first
    seen), as a student types it in with one change: its merge_vocab replaces the pair with a plain
    ``str.replace`` instead of the paper's regex with (?<!\\S) and (?!\\S), so "s t" also matches inside
    "es t" and joins es to t."""
    vocab = {" ".join(word) + " </w>": freq for word, freq in (words or words_in_order(text)).items()}
    merges = []
    for _ in range(num_merges):
        pairs = {}
        for word, freq in vocab.items():
            symbols = word.split()
            for i in range(len(symbols) - 1):
                pairs[symbols[i], symbols[i + 1]] = pairs.get((symbols[i], symbols[i + 1]), 0) + freq
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        merges.append(best)
        vocab = {word.replace(" ".join(best), "".join(best)): freq for word, freq in vocab.items()}  # the bug
    return [(left.encode(), right.encode()) for left, right in merges]


def minbpe_patched_counts(text, num_merges=10, special_tokens=()):
    """minbpe's RegexTokenizer training loop (GPT-2's split, bytes, ``max`` over the counts, ties to the
    greater pair as CS336 asks), made faster the way students do: the pair counts are counted once,
    then patched after each merge with the new token's pairs and the merged pair deleted, but the
    pairs the merge broke are never decremented."""
    pieces = re.split("|".join(map(re.escape, special_tokens)), text) if special_tokens else [text]
    chunks = [list(chunk.encode("utf-8")) for piece in pieces for chunk in gpt2_split(piece)]
    vocab = {i: bytes([i]) for i in range(256)}
    stats = {}
    for ids in chunks:
        for pair in zip(ids, ids[1:]):
            stats[pair] = stats.get(pair, 0) + 1
    merges = []
    for i in range(num_merges):
        if not stats:
            break
        pair = max(stats, key=lambda p: (stats[p], vocab[p[0]], vocab[p[1]]))
        idx = 256 + i
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
        merges.append((vocab[pair[0]], vocab[pair[1]]))
        del stats[pair]
        for n, ids in enumerate(chunks):
            if pair[0] not in ids:
                continue
            chunks[n] = merged = replace_pair(ids, pair, idx)
            for a, b in zip(merged, merged[1:]):
                if idx in (a, b):  # the patch: the new token's pairs counted, the broken pairs left as they were
                    stats[a, b] = stats.get((a, b), 0) + 1
    return merges
