"""Check my encoder takes exactly as many texts as its limit says: 200 are checked, 201 refused.

(Written against today's ``bpe/checking/encode_cases.py``, which issue 47's owner may move.)
"""

from __future__ import annotations

import json

import pytest

from bpe.checking.encode_cases import MAX_CASES, checked_cases, read_cases
from bpe.errors import BpeError


def cases(count: int):
    return read_cases(json.dumps([{"text": f"text {i}", "ids": [i]} for i in range(count)]))


def test_as_many_texts_as_the_limit_are_checked():
    assert len(checked_cases(cases(MAX_CASES), "ids.json")) == MAX_CASES == 200


def test_one_text_over_the_limit_is_refused_naming_it():
    with pytest.raises(BpeError, match=f"holds {MAX_CASES + 1:,} texts, over the limit of {MAX_CASES}"):
        checked_cases(cases(MAX_CASES + 1), "ids.json")
