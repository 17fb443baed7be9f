"""Two vocabularies side by side: which tokens both have, and which only one.

Tokens are the same when they decode to the same bytes, whatever their ids (GPT-2 numbers " the"
262, GPT-4 279). An end-of-word marker decodes to nothing, so ``est</w>`` is compared as ``est``;
special tokens are compared by their text, apart from the others.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> wikipedia = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    >>> from bpe.pretrained.registry import load_pretrained
    >>> shared = compare_vocabularies(wikipedia, load_pretrained("gpt2"))
    >>> len(shared.both), [wikipedia.token_text(i) for i in shared.only_first], len(shared.learned_in_second)
    (258, ['aaab'], 2)
    >>> [wikipedia.token_text(i) for i in shared.learned_in_second], shared.both[b"aa"]
    (['aa', 'ab'], (256, 7252))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .packed_tokens import datas_of
from .tokenizer import Tokenizer


@dataclass(frozen=True)
class VocabularyComparison:
    """What two tokenizers' vocabularies share, by the bytes each token decodes to."""

    both: Mapping[bytes, tuple[int, int]]
    """Bytes -> (id in the first, id in the second), in the first's id order."""
    only_first: tuple[int, ...]
    """Ids of the first's tokens the second lacks (by the first's id)."""
    only_second: tuple[int, ...]
    learned: tuple[int, ...]
    """The first's tokens made by a merge (what its training learned), in merge order."""
    specials_both: tuple[str, ...]

    @property
    def learned_in_second(self) -> tuple[int, ...]:
        """The first's learned tokens the second has too."""
        lacking = set(self.only_first)
        return tuple(token_id for token_id in self.learned if token_id not in lacking)


def compare_vocabularies(first: Tokenizer, second: Tokenizer) -> VocabularyComparison:
    """Which of ``first``'s tokens ``second`` has, and the other way round (special tokens apart)."""
    def by_bytes(tokenizer: Tokenizer) -> dict[bytes, int]:
        found: dict[bytes, int] = {}
        ids = [token_id for token_id in sorted(tokenizer.tokens) if not tokenizer.is_special(token_id)]
        for token_id, data in zip(ids, datas_of(tokenizer.tokens, ids)):
            if data:
                found.setdefault(data, token_id)  # two ids of the same bytes: the first one
        return found

    mine, theirs = by_bytes(first), by_bytes(second)
    return VocabularyComparison(
        both=MappingProxyType({data: (token_id, theirs[data]) for data, token_id in mine.items() if data in theirs}),
        only_first=tuple(token_id for data, token_id in mine.items() if data not in theirs),
        only_second=tuple(token_id for data, token_id in theirs.items() if data not in mine),
        learned=tuple(new_id for _, _, new_id in first.merges),
        specials_both=tuple(text for text in first.special_tokens if text in second.special_tokens),
    )
