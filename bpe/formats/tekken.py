"""Mistral's Tekken files: a tiktoken vocabulary written as JSON, its special tokens in front.

Scope: reading ``tekken_*.json`` as ``mistral-common``'s ``Tekkenizer.from_file`` reads it:

* ``config.pattern``: the split regex (tiktoken's ``pat_str``), named ``tekken`` when spelled as ours;
* ``vocab``: ``{"rank", "token_bytes" (base64), "token_str"}`` in rank order, cut to the first
  ``default_vocab_size - default_num_special_tokens`` (the files hold 150,000, the models use 130,072);
* the special tokens take ids ``0`` to ``default_num_special_tokens - 1`` and a token of rank
  ``r`` has id ``r + default_num_special_tokens``. A file's own ``special_tokens`` list names them
  (the ids after its last ``<SPECIAL_i>``, as ``mistral-common`` fills them); the 2024 files have
  none, and ``mistral-common`` names them itself (``<unk>``, ``<s>``..., then ``<SPECIAL_20>`` up to
  ``<SPECIAL_999>``): pass those as ``special_tokens``.

    >>> import json
    >>> tiny = {"config": {"pattern": r"\\S+|\\s+", "default_vocab_size": 259, "default_num_special_tokens": 2},
    ...         "vocab": [{"rank": r, "token_bytes": b, "token_str": None}
    ...                   for r, b in enumerate([*(bytes([i]) for i in range(256)), b"ab"])]}
    >>> import base64
    >>> for entry in tiny["vocab"]: entry["token_bytes"] = base64.b64encode(entry["token_bytes"]).decode()
    >>> tokenizer = from_tekken(json.dumps(tiny), special_tokens=["<unk>", "<s>"])
    >>> tokenizer.encode("ab a", allowed_special="all"), tokenizer.special_tokens
    ([258, 34, 99], {'<unk>': 0, '<s>': 1})

Out of scope: writing Tekken files, and their image and audio settings.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from .common import as_text, pretokenizer_name
from .tiktoken_bpe import from_ranks


SPECIAL_FILLER = "<SPECIAL_{id}>"
"""``Tekkenizer.SPECIAL_TOKEN_TEMPLATE``: the name of a special id the file names none for."""


def from_tekken(
    contents: str | bytes, *, special_tokens: Sequence[str] = (), name: str = "", source: str = "tekken.json",
) -> Tokenizer:
    """Read a Tekken JSON file; ``special_tokens`` name the ids the file leaves unnamed, in id order."""
    try:
        document = json.loads(as_text(contents, source=source))
        config, vocab = document["config"], document["vocab"]
        pattern, specials = config["pattern"], int(config["default_num_special_tokens"])
        inner = int(config["default_vocab_size"]) - specials
    except (ValueError, TypeError, KeyError) as error:
        raise FormatError(f"{source}: not a Tekken file (config.pattern, vocab and the sizes are needed; {error})") from None
    try:
        listed = [str(entry["token_str"]) for entry in document.get("special_tokens") or ()]
    except (TypeError, KeyError):
        raise FormatError(f"{source}: each of its special_tokens needs a token_str") from None
    if len(set(listed)) != len(listed) or len(listed) > specials:
        raise FormatError(f"{source}: its special_tokens must be distinct and at most {specials} (default_num_special_tokens)")
    # As mistral-common fills them: the ids a file names none for are <SPECIAL_i>
    named = [*listed, *(SPECIAL_FILLER.format(id=i) for i in range(len(listed), specials))] if listed else list(special_tokens)
    if len(named) != specials:
        raise FormatError(f"{source}: {specials} special tokens, but {len(named)} names were given for them")
    if not 256 <= inner <= len(vocab):
        raise FormatError(f"{source}: the vocabulary size leaves {inner} of its {len(vocab)} tokens")
    ranks: dict[bytes, int] = {}
    for rank, entry in enumerate(vocab[:inner]):
        try:
            data = base64.b64decode(entry["token_bytes"], validate=True)
        except (binascii.Error, ValueError, TypeError, KeyError):
            raise FormatError(f"{source}: the token of rank {rank} has no base64 token_bytes") from None
        if entry.get("rank") != rank or data in ranks:
            raise FormatError(f"{source}: entry {rank} is out of rank order or repeats {data!r}")
        ranks[data] = rank
    return from_ranks(
        ranks, id_offset=specials, pretokenizer=pretokenizer_name(pattern), name=name, source=source,
        special_tokens={text: token_id for token_id, text in enumerate(named)},
    )
