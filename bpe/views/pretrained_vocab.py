"""A pretrained tokenizer's vocabulary as tables: "how GPT-4o began" and every token, searchable.

A pretrained tokenizer has no trace, only its merges in rank order, which are the order it learned
them in: merge 1 is the pair its training corpus repeated most. These builders read only the
tokenizer. Built once per tokenizer and kept by the caller (a 200,000-row table takes about a
second); a page then shows a slice, so each request's work stays small.

    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> from bpe.tokens.vocab import Token
    >>> tok = Tokenizer(unit="byte", pretokenizer="none", base={i: Token(bytes([i])) for i in range(256)},
    ...                 merges=[(32, 116, 256), (104, 101, 257), (256, 257, 258)])
    >>> first_merges(tok, start=0, count=2).to_dict("records")[1]
    {'merge': 2, 'left': 'h', 'right': 'e', 'token': 'he', 'id': 257}
    >>> made_by(tok)[258], vocab_table(tok, made_by(tok)).iloc[258].to_dict()["merge"]
    ((2, 256, 257), 3)
"""

from __future__ import annotations

import pandas as pd

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import visible_text

MERGES_PAGE = 50
"""Merges shown per page of "how it began"."""
SEARCH_ROWS = 500
"""At most this many search results are sent to the browser (a 200,000-row grid is slow to draw)."""


def made_by(tokenizer: Tokenizer) -> dict[int, tuple[int, int, int]]:
    """``new id -> (rank, left, right)`` for every merged token (rank 0 is merge 1)."""
    return {new_id: (rank, left, right) for rank, (left, right, new_id) in enumerate(tokenizer.merges)}


def first_merges(tokenizer: Tokenizer, *, start: int, count: int = MERGES_PAGE) -> pd.DataFrame:
    """Merges ``start + 1`` to ``start + count`` in rank order, each with its two parts and the token."""
    merges = tokenizer.merges[start:start + count]
    tokens = tokenizer.tokens
    return pd.DataFrame(
        [
            {
                "merge": start + offset + 1,
                "left": visible_text(tokens[left].data),
                "right": visible_text(tokens[right].data),
                "token": visible_text(tokens[new_id].data),
                "id": new_id,
            }
            for offset, (left, right, new_id) in enumerate(merges)
        ],
        columns=["merge", "left", "right", "token", "id"],
    )


def _kind(tokenizer: Tokenizer, made: dict[int, tuple[int, int, int]], token_id: int) -> str:
    if tokenizer.is_special(token_id):
        return "special"
    if token_id in made:
        return "merge"
    # subtle: a few rank-file tokens (Qwen3.6's 俱乐部) come from no merge, only from a whole chunk
    return "whole chunk only" if token_id in tokenizer.whole_only else "byte"


def vocab_table(tokenizer: Tokenizer, made: dict[int, tuple[int, int, int]]) -> pd.DataFrame:
    """Every token by id: text, hex bytes, length, kind and the merge that made it (columns as
    :func:`~bpe.views.tables.vocab_frame`'s, so :func:`~bpe.views.tables.search_vocab` searches it)."""
    tokens = tokenizer.tokens
    ids = sorted(tokens)
    frame = pd.DataFrame({
        "id": ids,
        "token": [visible_text(tokens[i].data) for i in ids],
        "bytes (hex)": [tokens[i].data.hex(" ") for i in ids],
        "length": [len(tokens[i].data) for i in ids],
        "kind": [_kind(tokenizer, made, i) for i in ids],
        "merge": [made[i][0] + 1 if i in made else None for i in ids],
    })
    frame["merge"] = frame["merge"].astype("Int64")  # base and special tokens have none: not "3.0"
    return frame
