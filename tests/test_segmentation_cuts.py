"""The fewest-token and longest-match cuts, exactly as their docstrings say, against references here.

``tests/test_segmentation.py`` checks the fewest cut's count against a brute force, and both cuts
against the references here on random vocabularies; this file checks *which* cut each way takes: among fewest-token cuts, the longest pieces from the left; longest
match up to the vocabulary's longest token; of two tokens spelling the same text, the earlier id;
and the tokens no merge makes (a rank file's) are pieces too. References share no code with the
engine: they try every cut.
"""

from __future__ import annotations

from bpe import PRESETS, Tokenizer, train
from bpe.encoding.segmentation import segment
from bpe.tokens.vocab import Token

BYTES = {i: Token(bytes([i])) for i in range(256)}


def byte_tokenizer(merges, whole_only=None) -> Tokenizer:
    return Tokenizer(unit="byte", pretokenizer="none", base=dict(BYTES), merges=merges, whole_only=whole_only)


def cut(tokenizer: Tokenizer, text: str, way: str) -> list[bytes]:
    (chunk,) = segment(tokenizer, text)
    return [tokenizer.decode_single_token_bytes(token_id) for token_id in chunk.ids[way]]


def every_cut(text: bytes, vocabulary: frozenset[bytes]) -> list[list[bytes]]:
    if not text:
        return [[]]
    return [[text[:end], *rest] for end in range(1, len(text) + 1) if end == 1 or text[:end] in vocabulary
            for rest in every_cut(text[end:], vocabulary)]


def fewest_longest_first(text: bytes, vocabulary: frozenset[bytes]) -> list[bytes]:
    """Of the cuts with the fewest pieces, the one whose piece lengths are greatest from the left."""
    cuts = every_cut(text, vocabulary)
    fewest = min(map(len, cuts))
    return max((each for each in cuts if len(each) == fewest), key=lambda each: [len(piece) for piece in each])


def greedy_longest(text: bytes, vocabulary: frozenset[bytes]) -> list[bytes]:
    pieces = []
    while text:
        end = max(end for end in range(1, len(text) + 1) if end == 1 or text[:end] in vocabulary)
        pieces.append(text[:end])
        text = text[end:]
    return pieces


def test_longest_match_cuts_wikipedias_aaab_whole():
    """Wikipedia's run: aa (Z), ab (Y), ZY (X = aaab, the longest token); aaabdaaabac is X d X a c."""
    wikipedia = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    assert cut(wikipedia, "aaabdaaabac", "longest") == [b"aaab", b"d", b"aaab", b"a", b"c"]


def test_of_the_fewest_token_cuts_the_one_with_the_longest_pieces_first_is_taken():
    tokenizer = byte_tokenizer([(97, 98, 256), (98, 99, 257)])  # ab, bc: "abc" is ab+c or a+bc, two tokens either way
    assert cut(tokenizer, "abc", "fewest") == [b"ab", b"c"]
    assert cut(tokenizer, "xabcd", "fewest") == [b"x", b"ab", b"c", b"d"]


def test_of_two_tokens_spelling_the_same_text_the_cuts_take_the_earlier():
    # ab then ab+c make "abc" as 257; bc then a+bc make it again as 259
    tokenizer = byte_tokenizer([(97, 98, 256), (256, 99, 257), (98, 99, 258), (97, 258, 259)])
    for way in ("fewest", "longest"):
        (chunk,) = segment(tokenizer, "abc")
        assert chunk.ids[way] == (257,), way


def test_a_token_no_merge_makes_is_a_piece_of_every_cut():
    tokenizer = byte_tokenizer([(97, 98, 256)], whole_only={257: b"xyz"})  # a rank file's token no two tokens make
    assert cut(tokenizer, "xyzxyz", "fewest") == [b"xyz", b"xyz"] == cut(tokenizer, "xyzxyz", "longest")
    assert cut(tokenizer, "xyz", "bpe") == [b"xyz"]  # the encoder looks a whole chunk up
