"""A deliberately naive BPE trainer: the reference the incremental trainer is checked against.

Every step recounts every pair of every word from scratch, then picks the winner with one plain
``max``/``min`` per tie-break rule. It shares nothing with ``bpe.trainer`` but the input (a word
table and, for the char unit, the alphabet) and GPT-2's byte table, so agreeing with it is
evidence, not tautology. It is slow on purpose; the benchmark times it to show why the real
trainer updates counts locally.

    >>> naive_train([("aaabdaaabac", 1)], tie_break="lexicographic-min", merges=3, min_frequency=2)
    [(97, 97, 4), (97, 98, 2), (256, 257, 2)]
"""

from __future__ import annotations

from bpe.byte_level import BYTE_TO_UNICODE

NaiveMerge = tuple[int, int, int]
"""``(left id, right id, count)`` of one merge; the new token's id is base size + its index."""


def naive_train(
    words: list[tuple[str, int]],
    *,
    unit: str = "byte",
    alphabet: str = "",
    end_of_word: str | None = None,
    tie_break: str = "first-seen",
    merges: int = 10,
    min_frequency: int = 1,
) -> list[NaiveMerge]:
    """Train on ``words`` (distinct words with counts, first appearance first); return the merges.

    Ids follow BPE Lab's layout: bytes 0..255 (``byte``) or the sorted ``alphabet`` (``char``),
    then the end-of-word marker, then one id per merge.
    """
    # spelling[id]: the token as the lexicographic rules compare it (the marker spelled out);
    # hf_rank[id]: Hugging Face's id for it (its alphabet sorted by character, marker last).
    if unit == "byte":
        spelling = [bytes([value]) for value in range(256)]
        shown = list(BYTE_TO_UNICODE)
        sequences = [list(word.encode("utf-8")) for word, _ in words]
    else:
        chars = sorted(set(alphabet))
        spelling = [char.encode("utf-8") for char in chars]
        shown = list(chars)
        sequences = [[chars.index(char) for char in word] for word, _ in words]
    if end_of_word:
        marker = len(spelling)
        spelling.append(end_of_word.encode("utf-8"))
        shown.append("\U0010ffff")
        sequences = [sequence + [marker] for sequence in sequences]
    hf_order = sorted(range(len(shown)), key=lambda token_id: shown[token_id])
    hf_rank = {token_id: rank for rank, token_id in enumerate(hf_order)}
    freqs = [count for _, count in words]

    learned: list[NaiveMerge] = []
    made: set[bytes] = set()
    while len(learned) < merges:
        counts: dict[tuple[int, int], int] = {}  # insertion order = order of first occurrence
        for sequence, freq in zip(sequences, freqs):
            for pair in zip(sequence, sequence[1:]):
                counts[pair] = counts.get(pair, 0) + freq
        if tie_break == "sentencepiece":  # it keeps one piece per string: a pair respelling one is never merged
            counts = {pair: count for pair, count in counts.items() if spelling[pair[0]] + spelling[pair[1]] not in made}
        if not counts or max(counts.values()) < min_frequency:
            break
        best = max(counts.values())
        tied = [pair for pair, count in counts.items() if count == best]  # still in first-seen order
        if tie_break == "first-seen":
            left, right = tied[0]
        elif tie_break == "lexicographic-max":
            left, right = max(tied, key=lambda p: (spelling[p[0]], spelling[p[1]], p))
        elif tie_break == "lexicographic-min":
            left, right = min(tied, key=lambda p: (spelling[p[0]], spelling[p[1]], p))
        elif tie_break == "hf":
            left, right = min(tied, key=lambda p: (hf_rank[p[0]], hf_rank[p[1]]))
        elif tie_break == "smallest-ids":
            left, right = min(tied)
        elif tie_break == "sentencepiece":  # bpe_model_trainer.cc: the shorter piece, then the smaller string
            size = (lambda data: len(data.decode("utf-8"))) if unit == "char" else len
            left, right = min(tied, key=lambda p: (size(spelling[p[0]] + spelling[p[1]]), spelling[p[0]] + spelling[p[1]], p))
        else:
            raise ValueError(f"unknown tie-break rule {tie_break!r}")

        new_id = len(spelling)
        spelling.append(spelling[left] + spelling[right])
        made.add(spelling[new_id])
        hf_rank[new_id] = new_id
        sequences = [merge_pair(sequence, left, right, new_id) for sequence in sequences]
        learned.append((left, right, best))
    return learned


def merge_pair(sequence: list[int], left: int, right: int, new_id: int) -> list[int]:
    """Left to right, no overlap: ``[1, 1, 1], (1, 1), 9 -> [9, 1]``."""
    out: list[int] = []
    i = 0
    while i < len(sequence):
        if i + 1 < len(sequence) and sequence[i] == left and sequence[i + 1] == right:
            out.append(new_id)
            i += 2
        else:
            out.append(sequence[i])
            i += 1
    return out
