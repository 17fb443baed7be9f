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
