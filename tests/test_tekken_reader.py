"""Reading Tekken files as ``mistral-common``'s ``Tekkenizer.from_file`` reads them: small files made
here, each also loaded by the owner, whose ids and special-token names are the golden values.

The shipped 2024 files hold no special-token list and ranks in order, so they cannot show a file's
own names or a rank out of place (``tests/test_pretrained_parity.py`` checks those files whole).
"""

from __future__ import annotations

import base64
import json

import pytest
from mistral_common.tokens.tokenizers.tekken import Tekkenizer

from bpe.errors import FormatError
from bpe.formats.tekken import from_tekken

MERGED = [b"ab", b"abc", b" a"]
SAMPLE = "abc ab a abcab  cab"


def tekken_file(*, specials: int = 5, listed: tuple[str, ...] = (), ranks: list[int] | None = None) -> dict:
    """A Tekken v11 file: the 256 bytes and MERGED ranked, ``specials`` special ids, ``listed`` naming the first."""
    tokens = [*(bytes([i]) for i in range(256)), *MERGED]
    ranks = list(range(len(tokens))) if ranks is None else ranks
    return {
        "config": {"pattern": r"[^\r\n\s]+|\s+", "default_vocab_size": specials + len(tokens),
                   "default_num_special_tokens": specials, "version": "v11"},
        "vocab": [{"rank": rank, "token_bytes": base64.b64encode(data).decode(), "token_str": None}
                  for rank, data in zip(ranks, tokens)],
        "special_tokens": [{"rank": i, "token_str": name, "is_control": True} for i, name in enumerate(listed)],
    }


def owner(document: dict, tmp_path) -> Tekkenizer:
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(document))
    return Tekkenizer.from_file(path)


@pytest.mark.parametrize("listed", [("<unk>", "<s>", "</s>", "[INST]", "[/INST]"), ("<unk>", "<s>", "</s>")],
                         ids=["every id named", "the last ids unnamed"])
def test_a_files_own_special_token_names_are_the_owners(tmp_path, listed):
    document = tekken_file(listed=listed)
    theirs = owner(document, tmp_path)
    ours = from_tekken(json.dumps(document), special_tokens=[f"<not-{i}>" for i in range(5)])  # the file's own names win
    assert ours.special_tokens == {theirs.id_to_piece(i): i for i in range(5)}
    assert ours.encode(SAMPLE) == theirs.encode(SAMPLE, bos=False, eos=False)


def test_ranks_out_of_order_are_refused_as_the_owner_refuses_them(tmp_path):
    document = tekken_file(listed=("<unk>",), ranks=[*range(256), 257, 256, 258])  # ab and abc traded places
    with pytest.raises(AssertionError):
        owner(document, tmp_path)
    with pytest.raises(FormatError, match="entry 256 is out of rank order"):
        from_tekken(json.dumps(document))


def test_repeated_special_token_names_are_refused():
    with pytest.raises(FormatError, match="special_tokens must be distinct"):
        from_tekken(json.dumps(tekken_file(listed=("<unk>", "<unk>"))))
