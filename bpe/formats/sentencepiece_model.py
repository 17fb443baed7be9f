"""SentencePiece ``.model`` files (BPE models): read with a small protobuf reader, written alike.

Scope: the ``ModelProto`` of ``sentencepiece_model.proto`` as far as a BPE model needs it: the
pieces (text, score, type), the trainer's options and the normalizer's. A model is a list of
pieces whose position is the id: ``<unk>``, ``<s>``, ``</s>`` (and with ``byte_fallback`` the 256
``<0x00>``...``<0xFF>`` pieces), then the merged pieces best first (score 0, -1, -2, ...), then the
characters, most frequent first. SentencePiece's BPE encoder merges whichever neighbours spell the
best-scored piece, so, as for a tiktoken rank file, each merged piece's two parts are found by
running that loop on the piece itself.

    >>> from bpe import Corpus, Tokenizer, TrainSettings, train
    >>> settings = TrainSettings(unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", vocab_size=15)
    >>> ours = Tokenizer.from_trace(train(Corpus.from_text("low lower lowest", pretokenizer="sentencepiece"), settings))
    >>> model = from_sentencepiece(to_sentencepiece(ours))
    >>> [model.token_text(i) for i in range(3, 8)]
    ['lo', 'low', '▁low', '▁lowe', 'l']
    >>> [model.token_text(i) for i in model.encode("lowest")], model.encode("lowest")
    (['▁lowe', 's', 't'], [6, 13, 14])

(``sentencepiece`` trained on the same line with ``vocab_size=15`` writes these pieces, and
encodes "lowest" as ``[6, 13, 14]``.)

Reading needs no compiled code. Refused, with a message: models that are not BPE (unigram),
normalization other than ``identity`` with SentencePiece's default whitespace handling, options
that change where pieces may split (``split_digits``, turning off the script, number or whitespace
split, ``treat_whitespace_as_suffix``), unused pieces, and pieces no two others
make; what sentencepiece itself refuses to load (a piece twice, two unknown pieces, byte pieces
without ``byte_fallback`` or not all 256 of them, empty, NUL-holding or 8,000-byte pieces); and a
merged piece holding a character with no piece of its own (ranked merges cannot build it). Scores
order as SentencePiece's encoder orders them (:func:`_score_order`: ``0.0`` above ``-0.0``); pieces
with exactly the same score (Llama's and Mistral's runs of ``▁``, all at -1e9) rank by id, where
SentencePiece merges whichever stands leftmost in the text. Llama 2's and Mistral's options together
(spaces kept, ``split_digits``, ``allow_whitespace_only_pieces``) are read with the ``mistral``
pre-tokenizer, and user-defined pieces as special tokens that every text is cut around, as
SentencePiece matches them (:mod:`bpe.formats.sentencepiece_tokenizer`, which also decodes as SentencePiece does).

Writing (:mod:`bpe.formats.sentencepiece_writer`) needs a char-level tokenizer split by
``sentencepiece`` or ``mistral`` with an unknown token (every run trained with them has ``<unk>``,
``<s>``, ``</s>``); a model read from a ``.model``, extended or not, is written with its own ids.
"""

from __future__ import annotations

from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..tokens.vocab import Token
from .common import TokenizerFormat, build_tokenizer, one_file
from .merge_recovery import split_tokens
from .sentencepiece_proto import (
    _BPE, _NORMALIZER_DEFAULTS, _PRETOKENIZER_BY_OPTIONS, _SPLIT_OPTIONS, BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED, _model,
)
from .sentencepiece_tokenizer import SentencePieceModelTokenizer
from .sentencepiece_writer import export_problem, model_bytes

# -- reading --------------------------------------------------------------------------------------
def from_sentencepiece(contents: str | bytes, *, name: str = "", source: str = "tokenizer.model") -> Tokenizer:
    """Read a SentencePiece BPE ``.model``; ``source`` names it in error messages."""
    fields = _model_fields(contents, name=name, source=source)
    return build_tokenizer(source=source, factory=SentencePieceModelTokenizer, **fields)


def sentencepiece_json(contents: str | bytes, *, name: str = "", source: str = "tokenizer.model") -> str:
    """``from_sentencepiece(...).to_json()``, the same text, without building the tokenizer (an import's
    worker sends only this; the server builds it). subtle: building would check the tokenizer's table
    again, but the checks here leave nothing for that to refuse (pieces distinct and non-empty, each
    merge's parts pieces, the 256 byte pieces), and the server's build checks it all the same."""
    return SentencePieceModelTokenizer.fields_json(**_model_fields(contents, name=name, source=source))


def _model_fields(contents: str | bytes, *, name: str, source: str) -> dict[str, object]:
    """The constructor's fields of the tokenizer a ``.model`` holds, after every check of the reader."""
    if isinstance(contents, str):
        raise FormatError(f"{source}: a .model file is binary; read it as bytes")
    try:
        pieces, trainer, normalizer = _model(bytes(contents))
    except FormatError as error:
        raise FormatError(f"{source}: {error}") from None
    pretokenizer = _check_options(trainer, normalizer, source=source)
    _check_pieces(pieces, byte_fallback=bool(trainer.get(35, 0)), source=source)
    base: dict[int, Token] = {}
    multi: list[tuple[float, int, str]] = []
    special: dict[str, int] = {}
    fallback: dict[int, int] = {}
    user_defined: list[str] = []
    unknown = None
    for token_id, (piece, score_order, kind) in enumerate(pieces):
        if kind == NORMAL and len(piece) == 1:
            base[token_id] = Token(piece.encode("utf-8"))
        elif kind == NORMAL:
            multi.append((-score_order, token_id, piece))
        elif kind in (UNKNOWN, CONTROL):
            special[piece] = token_id
            unknown = piece if kind == UNKNOWN else unknown
        elif kind == USER_DEFINED:
            special[piece] = token_id
            user_defined.append(piece)
        elif kind == BYTE and len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
            fallback[token_id] = int(piece[3:5], 16)
        else:
            raise FormatError(f"{source}: piece {token_id} ({piece!r}) is of a type BPE Lab does not replay ({kind})")
    if unknown is None:
        raise FormatError(f"{source}: it has no <unk> piece; SentencePiece needs one")
    ids = {piece: token_id for _, token_id, piece in multi} | {token.data.decode("utf-8"): i for i, token in base.items()}
    ranks = {piece: rank for rank, (_, _, piece) in enumerate(sorted(multi))}  # the best score first
    splits = split_tokens(ranks)  # SentencePiece's encoder on each piece alone, stopped at two parts
    merges = []
    for _, token_id, piece in sorted(multi):
        parts = splits.get(piece)
        if parts is None:
            raise FormatError(f"{source}: the piece {piece!r} (id {token_id}) is not two other pieces merged")
        merges.append((ids[parts[0]], ids[parts[1]], token_id))
    return dict(
        unit="char", pretokenizer=pretokenizer, base=base, merges=merges, special_tokens=special, name=name,
        specials_in_text="plain", unknown_token=unknown, fallback_bytes=fallback, user_defined=user_defined,
    )


_MAX_PIECE_BYTES = 8000
"""``kMaxPieceSize`` (``model_interface.cc``): SentencePiece refuses a piece this long or longer."""
_BYTE_PIECES = MappingProxyType({f"<0x{byte:02X}>": byte for byte in range(256)})
"""The only byte pieces SentencePiece accepts (``ByteToPiece``: two upper-case hex digits)."""


def _check_pieces(pieces: list[tuple[str, int, int]], *, byte_fallback: bool, source: str) -> None:
    """Refuse what ``sentencepiece`` refuses to load (``ModelInterface::InitializePieces``), and a
    merged piece holding a character with no piece of its own, each with a FormatError saying why."""
    seen: dict[str, int] = {}
    unknown = None
    bytes_found: set[int] = set()
    for token_id, (piece, score_order, kind) in enumerate(pieces):
        if piece == "\x00" and (kind == UNUSED or byte_fallback):
            continue  # SentencePiece skips it (a converter's stray NUL piece)
        refusal = None
        if not piece:
            refusal = f"piece {token_id} is empty"
        elif "\x00" in piece:
            refusal = f"piece {token_id} holds a NUL character"
        elif len(piece.encode("utf-8")) >= _MAX_PIECE_BYTES:
            refusal = f"piece {token_id} is {len(piece.encode('utf-8')):,} bytes long (the limit is {_MAX_PIECE_BYTES - 1:,})"
        elif piece in seen:
            refusal = f"the piece {piece!r} is defined twice (ids {seen[piece]} and {token_id})"
        elif kind == UNKNOWN and unknown is not None:
            refusal = f"it has two unknown pieces (ids {unknown} and {token_id})"
        elif kind == BYTE and not byte_fallback:
            refusal = f"it has the byte piece {piece!r} (id {token_id}) although byte_fallback is off"
        elif kind == BYTE and piece not in _BYTE_PIECES:
            refusal = f"the byte piece {piece!r} (id {token_id}) is not one of <0x00>...<0xFF>"
        if refusal:
            raise FormatError(f"{source}: {refusal}; sentencepiece refuses such a file too")
        seen[piece] = token_id
        unknown = token_id if kind == UNKNOWN else unknown
        if kind == BYTE:
            bytes_found.add(_BYTE_PIECES[piece])
    if byte_fallback and len(bytes_found) < 256:
        missing = [f"<0x{byte:02X}>" for byte in range(256) if byte not in bytes_found]
        raise FormatError(
            f"{source}: byte_fallback is on but {len(missing)} of the 256 byte pieces are missing ({', '.join(missing[:3])}"
            f"{'...' if len(missing) > 3 else ''}); sentencepiece refuses such a file too"
        )
    characters = {piece for piece, _, kind in pieces if kind == NORMAL and len(piece) == 1}
    for token_id, (piece, _, kind) in enumerate(pieces):
        if kind == NORMAL and not characters.issuperset(piece):  # from C: nearly every piece passes
            lone = next(char for char in piece if char not in characters)
            raise FormatError(
                f"{source}: the piece {piece!r} (id {token_id}) holds {lone!r}, which has no piece of its own; "
                "SentencePiece's trainer gives every character a piece, and BPE Lab builds merged pieces from "
                "those, so it cannot replay this file"
            )


def _check_options(trainer: dict, normalizer: dict, *, source: str) -> str:
    """The pre-tokenizer that replays the model's options, or a FormatError naming the first it cannot."""
    if trainer.get(3, 1) != _BPE:
        raise FormatError(f"{source}: it is a {'unigram' if trainer.get(3, 1) == 1 else 'non-BPE'} model; BPE Lab reads BPE models")
    name = normalizer.get(1, b"identity")
    if name != b"identity" or normalizer.get(2):
        raise FormatError(
            f"{source}: it normalizes text with {name.decode('utf-8', 'replace')!r}; BPE Lab replays "
            "normalization_rule_name='identity' only"
        )
    changed = {
        option: bool(spec[number]) for spec, options in ((normalizer, _NORMALIZER_DEFAULTS), (trainer, _SPLIT_OPTIONS))
        for number, (option, wanted) in options.items() if spec.get(number, wanted) != wanted
    }
    pretokenizer = _PRETOKENIZER_BY_OPTIONS.get(frozenset(changed))
    if pretokenizer is None:
        option, value = next(iter(changed.items()))
        raise FormatError(
            f"{source}: {option} is {value}; BPE Lab replays SentencePiece's defaults, or Llama 2's and Mistral's "
            "options together (remove_extra_whitespaces False, split_digits and allow_whitespace_only_pieces True)"
        )
    return pretokenizer


# -- writing (bpe.formats.sentencepiece_writer) -----------------------------------------------------
def to_sentencepiece(tokenizer: Tokenizer) -> bytes:
    """The ``.model`` bytes (a run of ours renumbered as SentencePiece's trainer numbers it; a model
    read from a ``.model`` with its own ids); FormatError (saying why) if the format cannot hold ``tokenizer``."""
    return SENTENCEPIECE.texts(tokenizer)  # type: ignore[return-value]


def _recognizes(contents: bytes) -> bool:
    """A protobuf whose first field holds pieces and whose trainer spec names a model type (minbpe's
    ``.model`` is text); never raises."""
    try:
        pieces, trainer, _ = _model(bytes(contents))
    except (FormatError, TypeError, ValueError):
        return False
    return bool(pieces) and 3 in trainer


SENTENCEPIECE = TokenizerFormat(
    name="sentencepiece", title="SentencePiece .model", file_names=("tokenizer.model",),
    note="`sentencepiece.SentencePieceProcessor(model_file=...)` (BPE, identity normalization).",
    write=model_bytes, read=one_file(from_sentencepiece), read_json=one_file(sentencepiece_json), problem=export_problem,
    byte_level_only=False,
    recognizes=_recognizes,
)
