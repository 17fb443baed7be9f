"""The tokenizer matrix's operations that run apart (``Operation.apart``: vocabulary health, extending, the
exports, each linear in the vocabulary), on every tokenizer: the same check as ``tests/test_tokenizer_matrix.py``'s,
in a file of their own so that a test worker runs them beside the other half.
"""

from __future__ import annotations

import pytest

from bpe.teaching.operations import OPERATIONS

from .test_tokenizer_matrix import check_cell
from .tokenizer_rows import ROWS

APART = [name for name, entry in OPERATIONS.items() if entry.apart]


@pytest.mark.parametrize("operation", APART)
@pytest.mark.parametrize("row", ROWS)
def test_each_big_operation_on_each_tokenizer_works_as_its_owner_or_says_why_in_one_line(row, operation):
    check_cell(row, operation)
