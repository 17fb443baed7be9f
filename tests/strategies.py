"""Hypothesis strategies for small corpora, shared by the engine's property tests and the reference's."""

from hypothesis import strategies as st

# Few letters so that pairs repeat and tie; an accent, a CJK character and an emoji so that byte
# tokens split characters and char tokens are multi-byte.
LETTERS = "abcé東😀"
WORD = st.text(alphabet=LETTERS, min_size=1, max_size=8)
WORD_TABLE = st.dictionaries(WORD, st.integers(min_value=1, max_value=5), min_size=1, max_size=8)
"""A word-count table: a few distinct words, each seen 1 to 5 times."""
TEXT = st.text(alphabet=LETTERS + " \n", max_size=60)
"""Running text of those letters, spaces and line breaks."""

# Text that meets every rule SentencePiece has for a character: tabs (ordinary since 0.2.3), U+001F
# (its pre-tokenization boundary), NUL, special pieces' names typed in the text, a combining mark,
# digits beside letters, and the five scripts (Egyptian, Anatolian and Meroitic Hieroglyphs,
# Inscriptional Parthian and Pahlavi) that a table typed from its header once missed.
SENTENCEPIECE_PARTS = (
    *"ab1é東\u0301€!", "\t", "\x1f", "\x00", " ", "  ", "▁", "<s>", "</s>", "<unk>",
    *"\U00013000\U00013001\U00014400\U00014401\U000109a0\U000109a1\U00010b40\U00010b41\U00010b60\U00010b61",
)
SENTENCEPIECE_LINE = st.lists(st.sampled_from(SENTENCEPIECE_PARTS), max_size=24).map("".join)
"""One line of such text."""
SENTENCEPIECE_CORPUS = st.lists(SENTENCEPIECE_LINE, min_size=1, max_size=6).map(lambda lines: "\n".join(lines * 3))
"""A few such lines, each three times, so that pairs repeat and merges tie."""
