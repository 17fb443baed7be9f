"""Writing SentencePiece ``.model`` files: a run of ours as SentencePiece numbers it, a model read from one with its own ids.

Two layouts, one for each kind of tokenizer:

* **A run of ours** (char unit, the ``sentencepiece`` or ``mistral`` split) is written as
  ``sentencepiece``'s trainer writes a model: the special tokens, the byte pieces, the merged
  pieces best first, then the characters. Its ids are renumbered, so that the file is the one
  ``sentencepiece`` trains on the same text (``tests/test_sentencepiece_parity.py``).
* **A model read from a .model file, or one that continues it** (Mistral extended with new merges,
  :func:`~bpe.training.extend.extended_tokenizer`) keeps every id: its ids are the rows of a model's
  embedding matrix. Its pieces are written in id order, each with its type (control, user-defined,
  byte, normal), so the new characters and merged pieces come after the old vocabulary.

Either way the merged pieces are scored by rank (the first merge 0, then -1, -2...) and the
characters below them all: SentencePiece's encoder merges the neighbours that spell the best-scored
piece, so it merges in BPE Lab's order.

    >>> from bpe import Corpus, Tokenizer, TrainSettings, train
    >>> settings = TrainSettings(unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", vocab_size=15)
    >>> ours = Tokenizer.from_trace(train(Corpus.from_text("low lower lowest", pretokenizer="sentencepiece"), settings))
    >>> [piece for piece, _, _ in model_pieces(ours)][:8]        # renumbered, as sentencepiece numbers them
    ['<unk>', '<s>', '</s>', 'lo', 'low', '▁low', '▁lowe', 'l']
    >>> from bpe.formats.sentencepiece_model import from_sentencepiece
    >>> read = from_sentencepiece(model_bytes(ours))
    >>> [piece for piece, _, _ in model_pieces(read)] == [read.token_text(i) for i in range(read.n_vocab)]   # kept
    True

Refused, one line each saying why (:func:`export_problem`): another unit, split or an end-of-word
marker; no unknown token; tokens no merge makes; two pieces spelled alike (a model holds each
string once, control symbols included); and a merge SentencePiece would make differently. A
``.model`` holds pieces, not merges: SentencePiece finds a piece's parts by running its encoder on
the piece alone (:func:`~bpe.formats.merge_recovery.split_tokens`), so a merge whose piece that
loop builds from other parts would encode otherwise there.
"""

from __future__ import annotations

import struct
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from .merge_recovery import split_tokens
from .sentencepiece_proto import (
    _BPE, _NORMALIZER_DEFAULTS, _PRETOKENIZER_BY_OPTIONS, _SPLIT_OPTIONS, BYTE, CONTROL, NORMAL, UNKNOWN, USER_DEFINED,
    _bytes_field, _int_field, _key,
)
from .sentencepiece_tokenizer import SentencePieceModelTokenizer

TITLE = "SentencePiece .model"
_OPTIONS_BY_PRETOKENIZER = MappingProxyType({name: options for options, name in _PRETOKENIZER_BY_OPTIONS.items()})
"""The split options away from SentencePiece's defaults that each pre-tokenizer of ours stands for."""

Piece = tuple[str, float, int]
"""``(text, score, type)``: a piece as a ``.model`` stores it."""


def export_problem(tokenizer: Tokenizer) -> str | None:
    """Why a ``.model`` cannot hold ``tokenizer`` (one line that says what to do instead); None if it can."""
    splits = " or ".join(repr(name) for name in _OPTIONS_BY_PRETOKENIZER)
    if tokenizer.unit != "char" or tokenizer.pretokenizer.name not in _OPTIONS_BY_PRETOKENIZER or tokenizer.end_of_word:
        return (
            f"{TITLE} holds tokenizers of the char unit split by {splits}, without an end-of-word marker "
            "(train with --unit char --pretokenizer sentencepiece); save this one as BPE Lab JSON"
        )
    if tokenizer.unknown_token is None:
        return f"{TITLE} needs an unknown token such as <unk>; save this one as BPE Lab JSON"
    if tokenizer.whole_only:
        return f"{TITLE} has no tokens that no merge makes; save this one as BPE Lab JSON"
    pieces: dict[str, int] = {}
    for token_id, token in tokenizer.tokens.items():
        if token_id in tokenizer.fallback_bytes:
            continue
        text = token.data.decode("utf-8")
        if text in pieces:
            return (
                f"{TITLE} holds each string once, but {text!r} is both token {pieces[text]} and token {token_id} (a special "
                "token's text learned as a merge?); save this one as BPE Lab JSON"
            )
        pieces[text] = token_id
    return _other_merge(tokenizer)


def _other_merge(tokenizer: Tokenizer) -> str | None:
    """The first merge that SentencePiece's encoder, run on its piece alone, would make from other parts."""
    merged = [new_id for _, _, new_id in tokenizer.merges]
    splits = split_tokens({tokenizer.token_text(token_id): rank for rank, token_id in enumerate(merged)})
    for left, right, new_id in tokenizer.merges:
        piece, parts = tokenizer.token_text(new_id), (tokenizer.token_text(left), tokenizer.token_text(right))
        if splits.get(piece) != parts:
            theirs = " + ".join(map(repr, splits[piece])) if piece in splits else "no two pieces"
            return (
                f"{TITLE} stores pieces, not merges, and SentencePiece would build {piece!r} (id {new_id}) from {theirs}, "
                f"not from {parts[0]!r} + {parts[1]!r}, so it would encode differently; save this one as BPE Lab JSON"
            )
    return None


def model_pieces(tokenizer: Tokenizer) -> list[Piece]:
    """The pieces a ``.model`` of ``tokenizer`` holds, in id order (see the module's two layouts)."""
    kind = {text: UNKNOWN if text == tokenizer.unknown_token else CONTROL for text in tokenizer.special_tokens}
    kind |= {text: USER_DEFINED for text in getattr(tokenizer, "user_defined", ())}
    merged = [new_id for _, _, new_id in tokenizer.merges]
    score = {token_id: -float(rank) for rank, token_id in enumerate(merged + list(tokenizer.base))}
    fallback = tokenizer.fallback_bytes
    special_ids = {token_id: text for text, token_id in tokenizer.special_tokens.items()}

    def piece(token_id: int) -> Piece:
        if token_id in special_ids:
            return special_ids[token_id], 0.0, kind[special_ids[token_id]]
        if token_id in fallback:
            return f"<0x{fallback[token_id]:02X}>", 0.0, BYTE
        return tokenizer.token_text(token_id), score[token_id], NORMAL

    if _keeps_ids(tokenizer):
        return [piece(token_id) for token_id in range(tokenizer.n_vocab)]
    specials = sorted(tokenizer.special_tokens.values())
    return [piece(token_id) for token_id in (*specials, *sorted(fallback, key=fallback.get), *merged, *tokenizer.base)]


def _keeps_ids(tokenizer: Tokenizer) -> bool:
    """Read from a ``.model`` (or continuing one), with every id from 0 to the last in use."""
    return isinstance(tokenizer, SentencePieceModelTokenizer) and set(tokenizer.tokens) == set(range(tokenizer.n_vocab))


def model_bytes(tokenizer: Tokenizer) -> bytes:
    """The ``.model`` file: the pieces, then the trainer's and the normalizer's options (call
    :func:`export_problem` first: this writes what it is given)."""
    pieces = model_pieces(tokenizer)
    ids = {text: index for index, (text, _, _) in enumerate(pieces)}
    changed = _OPTIONS_BY_PRETOKENIZER[tokenizer.pretokenizer.name]
    trainer = b"".join([
        _int_field(3, _BPE), _int_field(4, len(pieces)),
        *(_int_field(number, wanted ^ (option in changed)) for number, (option, wanted) in _SPLIT_OPTIONS.items() if option in changed),
        _int_field(35, 1 if tokenizer.fallback_bytes else 0), _int_field(40, ids[tokenizer.unknown_token]),
        *(_int_field(field, ids.get(text, -1)) for field, text in ((41, "<s>"), (42, "</s>"), (43, "<pad>"))),
    ])
    normalizer = _bytes_field(1, b"identity") + b"".join(
        _int_field(number, wanted ^ (option in changed)) for number, (option, wanted) in _NORMALIZER_DEFAULTS.items()
    )
    return b"".join(
        _bytes_field(1, _bytes_field(1, text.encode("utf-8")) + _key(2, 5) + struct.pack("<f", score) + _int_field(3, kind))
        for text, score, kind in pieces
    ) + _bytes_field(2, trainer) + _bytes_field(3, normalizer)
