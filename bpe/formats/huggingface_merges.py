"""A ``tokenizer.json``'s merges read as Hugging Face reads them, and the tokens ``ignore_merges`` looks up whole.

Two things Hugging Face allows that a merge list read top to bottom would refuse:

* a merge's part made by a *later* merge: Hugging Face looks parts up in the vocab. Rank files rank by
  frequency, not by length, and Llama 3 ranks ``".:.:"`` (100,421) before its part ``".:."`` (105,051), so
  its merges are written in that order (``bpe.formats.merge_recovery`` recovers them shortest first);
* vocab entries no merge makes, with ``ignore_merges: true``: Hugging Face then looks each pre-tokenized
  word up in the vocab before merging, as tiktoken does (Meta's Llama 3 ``tokenizer.json`` sets it). BPE
  Lab reads such entries as whole-chunk tokens (a rank file's), and refuses the file if a merged token's
  own text would merge into other tokens: looked up whole by Hugging Face, merged by BPE Lab, it would
  encode otherwise (:func:`whole_words_problem`).

    >>> base = {0: "a", 1: "b"}
    >>> read_merges([["a", "ab"], ["a", "b"]], {"a": 0, "b": 1, "ab": 2, "aab": 3}, base, source="t.json")
    ([(0, 2, 3), (0, 1, 2)], {})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..tokens.byte_level import gpt2_text_to_bytes
from .spelled_merges import read_spelled_merges


def read_merges(
    merges: Sequence[object], vocab: Mapping[str, int], base: Mapping[int, str], *, source: str,
    specials: Mapping[str, int] = {}, ignore_merges: bool = False,
) -> tuple[list[tuple[int, int, int]], dict[int, bytes]]:
    """``(merges as (left, right, new_id), whole-chunk tokens as id -> bytes)``; ``base``: the bytes' ids -> spellings."""
    known = {text: token_id for token_id, text in base.items()}
    read = read_spelled_merges(enumerate(merges, start=1), keep="last", source=f"{source},", counted="merge")  # as in HF
    pairs = [(f"{source}, merge {number}", left, right) for number, left, right in read]
    made: dict[str, int] = {}  # what each merge makes -> the first merge that makes it
    for index, (_, left, right) in enumerate(pairs):
        made.setdefault(left + right, index)
    for index, (where, left, right) in enumerate(pairs):  # in order, so the first problem is the one said
        for part in (left, right):  # subtle: made by a later merge is fine (see above)
            if part not in known and (part not in made or part not in vocab):
                raise FormatError(f"{where}: merges {part!r}, which neither a byte nor any merge makes")
        merged = left + right
        if merged not in vocab:
            raise FormatError(f"{where}: {left!r} + {right!r} makes {merged!r}, which the vocab has no id for")
        if merged in known or made[merged] != index:
            raise FormatError(f"{where}: {merged!r} is made twice; each token comes from one merge")
    known |= {left + right: vocab[left + right] for _, left, right in pairs}
    for content, token_id in specials.items():
        if content in known:
            what = "a byte" if known[content] in base else "what a merge makes"
            raise FormatError(
                f"{source}: the added token {content!r} (id {token_id}) is also {what} in the vocab (id "
                f"{known[content]}); BPE Lab keeps special tokens apart from the tokens merges build on, so "
                "it cannot hold both"
            )
    unmade = [text for text in vocab if text not in known and text not in specials]
    if unmade and not ignore_merges:
        raise FormatError(
            f"{source}: {len(unmade)} vocab entries are neither bytes, merge results nor added tokens "
            f"(e.g. {unmade[0]!r}), and ignore_merges is off, so Hugging Face never gives them either; BPE Lab "
            "can only hold tokens that merges make, or that a word is looked up as whole (ignore_merges: true)"
        )
    return [(known[left], known[right], known[left + right]) for _, left, right in pairs], {
        vocab[text]: gpt2_text_to_bytes(text) for text in unmade
    }


def whole_words_problem(tokenizer: Tokenizer) -> str | None:
    """With ``ignore_merges``, Hugging Face takes a word that is a token whole; BPE Lab merges it (but for
    whole-chunk tokens). The two agree if every merged token that can be a word merges into itself."""
    tokens = tokenizer.tokens
    for _, _, new_id in tokenizer.merges:
        try:
            text = tokens[new_id].data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # part of a character: no word is spelled like it
        if len(tokenizer.pretokenizer.split(text)) == 1 and tokenizer.encode_chunk(text) != (new_id,):
            return (f"ignore_merges is on, so Hugging Face encodes the word {text!r} as its token {new_id}, while its "
                    f"merges make {list(tokenizer.encode_chunk(text))}; BPE Lab cannot replay that")
    return None
