"""The tokenizer matrix: every operation a page or the command line offers (``bpe.teaching.operations``)
on every tokenizer (``tests/tokenizer_rows.py``), both generated from the registries, so a new pretrained
entry, format, way to cut, dropout rule, encoder mistake or operation is a new row or column with no edit here.

Each cell either works, keeps its operation's promise and equals the owner's library where one defines
it (the row's owner for ids, decodes and offsets; the format's own library for an export's files), or is
refused with one line that says why (and where the row's owner answers, a refusal is only right if the
owner refuses too). Never a traceback: an error that is not the input's fails the cell.
"""

from __future__ import annotations

import pytest

from bpe.errors import BpeError
from bpe.teaching.operations import OPERATIONS, run_operation

from .file_owners import FILE_OWNERS, ours
from .tokenizer_rows import ROWS, read_back, row_owner, row_tokenizer

TEXT = "Hello, world! naïve café 12345 don't\n\tdef f(x): return x  # 5 €, 日本語 🙂"
"""Small, and with what differs between tokenizers: accents, digits, a contraction, whitespace runs, a
character of three bytes and one of four (no special-token text: each owner reads that its own way)."""


def owner_said(owner, what: str, compute):
    """The owner's answer, or ``None`` if it refuses the text (as we may)."""
    try:
        return compute()
    except Exception:  # noqa: BLE001 (each library raises its own types; a refusal is all that matters here)
        return None


def encodable(tokenizer) -> str:
    """:data:`TEXT` if ``tokenizer`` encodes it, else a text of its own tokens (a char-level run knows few characters)."""
    try:
        tokenizer.encode(TEXT)
        return TEXT
    except BpeError:
        tokens = tokenizer.tokens  # words it knows whole: merged tokens (that end a word, with a marker)
        return " ".join(tokenizer.decode([new_id]) for _, _, new_id in tokenizer.merges
                        if tokens[new_id].ends_word or tokenizer.end_of_word is None)


def check_owner(row: str, key: str, tokenizer, result) -> None:
    """The cell's result against what its owner's library gives (``key``: the operation's ``owner``)."""
    if key.startswith("load:"):
        format, text = key[len("load:"):], encodable(tokenizer)
        files = {name: data.encode("utf-8") if isinstance(data, str) else data for name, data in result.items()}
        library = FILE_OWNERS[format](files, tokenizer) if format in FILE_OWNERS else None
        if library is not None:
            assert library(text) == ours(format, tokenizer, text), f"{format}'s library reads the files otherwise"
            return
        back = read_back(format, files, tokenizer)  # no library of its own here (ours, minbpe): BPE Lab reads it
        assert back.encode(text, allowed_special="all") == tokenizer.encode(text, allowed_special="all"), "read back, it encodes otherwise"
        return
    owner = row_owner(row)
    if owner is None:
        return
    ids = tokenizer.encode(TEXT)
    if key == "encode" and owner.ids is not None:
        assert result == owner.ids(TEXT), f"{owner.library} encodes it otherwise"
    elif key == "decode" and owner.decode is not None:
        assert result == owner.decode(ids), f"{owner.library} decodes it otherwise"
    elif key == "offsets" and owner.offsets is not None:
        assert result == owner.offsets(ids), f"{owner.library}'s decode_with_offsets differs"


IN_THE_PAGE = [name for name, entry in OPERATIONS.items() if not entry.apart]
"""The operations a page runs in its own thread; those run apart (health, extending, the exports: each linear in
the vocabulary) are ``tests/test_tokenizer_matrix_apart.py``'s, so the two halves run on both test workers."""


@pytest.mark.parametrize("operation", IN_THE_PAGE)
@pytest.mark.parametrize("row", ROWS)
def test_each_operation_on_each_tokenizer_works_as_its_owner_or_says_why_in_one_line(row, operation):
    check_cell(row, operation)


def check_cell(row: str, operation: str) -> None:
    """One cell: works, keeps its promise and equals its owner, or is refused in one line (see the module's docstring)."""
    entry, tokenizer = OPERATIONS[operation], row_tokenizer(row)
    outcome = run_operation(entry, tokenizer, TEXT)
    if outcome.refused:
        assert outcome.refused.strip() and "\n" not in outcome.refused, f"not one line: {outcome.refused!r}"
        owner = row_owner(row)
        if entry.owner == "encode" and owner is not None and owner.ids is not None:
            assert owner_said(owner, "ids", lambda: owner.ids(TEXT)) is None, f"refused ({outcome.refused}), yet {owner.library} encodes it"
        return
    broken = entry.promise(tokenizer, TEXT, outcome.result)
    assert broken is None, broken
    if entry.owner:
        check_owner(row, entry.owner, tokenizer, outcome.result)
