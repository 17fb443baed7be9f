"""Compare's "your vocabulary against GPT-4's": how many of a run's learned tokens a pretrained
vocabulary also has, and which it lacks.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> from bpe.pretrained.registry import load_pretrained
    >>> from bpe.encoding.vocab_compare import compare_vocabularies
    >>> ours = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    >>> shared = compare_vocabularies(ours, load_pretrained("cl100k_base"))
    >>> overlap_sentence(shared, theirs="GPT-4")
    'GPT-4 has 9 of the 10 tokens this run learned (90%), and lacks 1.'
    >>> overlap_frame(ours, shared, theirs="GPT-4").to_dict("records")[0]
    {'step': 1, 'token': 'st', 'id': 256, 'in GPT-4': 'yes, id 267'}
"""

from __future__ import annotations

import pandas as pd

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_compare import VocabularyComparison
from ..notation.spelling import visible_text


def overlap_sentence(comparison: VocabularyComparison, *, theirs: str) -> str:
    """One plain sentence (no Markdown: the caller escapes the names it got)."""
    learned, shared = len(comparison.learned), len(comparison.learned_in_second)
    if not learned:
        return f"This run has learned no token yet, so there is nothing to look up in {theirs}."
    return (
        f"{theirs} has {shared:,} of the {learned:,} tokens this run learned ({shared / learned:.0%}), "
        f"and lacks {learned - shared:,}."
    )


def overlap_frame(tokenizer: Tokenizer, comparison: VocabularyComparison, *, theirs: str) -> pd.DataFrame:
    """One row per learned token, in merge order: its step, spelling, id and the other's id for it."""
    tokens = tokenizer.tokens
    theirs_by_id = {mine: other for mine, other in comparison.both.values()}
    return pd.DataFrame(
        [
            {
                "step": step, "token": visible_text(tokens[token_id].data, tokenizer.end_of_word, tokens[token_id].ends_word),
                "id": token_id, f"in {theirs}": f"yes, id {theirs_by_id[token_id]:,}" if token_id in theirs_by_id else "no",
            }
            for step, token_id in enumerate(comparison.learned, start=1)
        ],
        columns=["step", "token", "id", f"in {theirs}"],
    )
