"""Each file format's own library, reading the files BPE Lab wrote: what a user of that library gets.

:data:`FILE_OWNERS` maps a format's name (``bpe.formats.FORMATS``) to a reader that takes the files
(``file name -> bytes``, as ``export_tokenizer`` gives them) and the tokenizer they were written from, and
returns ``what(text)``: what the library makes of a text, in the same shape as :func:`ours` gives for
BPE Lab (ids; for a ``.model``, its pieces; for subword-nmt, the segmented line its ``apply_bpe`` prints),
or ``None`` where that library cannot be told the split (GPT-2's files hold no pattern, and tiktoken takes
one regex: ``tiktoken_pattern`` says which splits have none). A format with no library
installed here (BPE Lab JSON is our own; minbpe is not on PyPI) has no entry, and its files are read
back by BPE Lab instead (the matrix test's round trip).
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError
from bpe.formats import tiktoken_pattern, to_hf
from bpe.tokens.vocab import Token

Files = Mapping[str, bytes]
Reader = Callable[[Files, Tokenizer], Callable[[str], object] | None]


def _hf(files: Files, tokenizer: Tokenizer):
    from tokenizers import Tokenizer as HfTokenizer

    hf = HfTokenizer.from_str(files["tokenizer.json"].decode("utf-8"))
    return lambda text: hf.encode(text, add_special_tokens=False).ids


def _tiktoken_encoding(tokenizer: Tokenizer, ranks: dict[bytes, int]):
    import tiktoken

    try:
        pattern = tiktoken_pattern(tokenizer)
    except FormatError:
        return None
    return tiktoken.Encoding(name="bpe-lab-export", pat_str=pattern, mergeable_ranks=ranks,
                             special_tokens=dict(tokenizer.special_tokens))


def _tiktoken(files: Files, tokenizer: Tokenizer):
    import tiktoken.load

    with tempfile.TemporaryDirectory() as folder:  # tiktoken reads a path (no cache: TIKTOKEN_CACHE_DIR unused for paths)
        path = Path(folder) / "tokenizer.tiktoken"
        path.write_bytes(files["tokenizer.tiktoken"])
        encoding = _tiktoken_encoding(tokenizer, tiktoken.load.load_tiktoken_bpe(str(path)))
    return encoding and (lambda text: encoding.encode(text, allowed_special="all"))


def _gpt2(files: Files, tokenizer: Tokenizer):
    """Hugging Face's BPE model built from GPT-2's two files (``vocab.json`` and ``merges.txt`` are the same
    layout), as a ``tokenizers`` user loads them: their ids are read as written (tiktoken's own reader of
    these files takes GPT-2's id layout for granted, which Tekken's specials-first ids are not). The files
    hold no split: the user's configuration, taken from BPE Lab's tokenizer.json of the same tokenizer."""
    from tokenizers import Tokenizer as HfTokenizer

    split_only = Tokenizer(unit="byte", pretokenizer=tokenizer.pretokenizer.name, base={b: Token(bytes([b])) for b in range(256)}, merges=[])
    try:
        document = json.loads(to_hf(split_only))  # the split alone (writing 200,000 tokens to take it would take a second)
    except FormatError:
        return None
    merges = [line.split(" ") for line in files["vocab.bpe"].decode("utf-8").split("\n")[1:] if line]
    document["added_tokens"] = [  # what its user adds: the special tokens encoder.json names
        {"id": token_id, "content": text, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
        for text, token_id in tokenizer.special_tokens.items()
    ]
    document["model"] |= {"vocab": json.loads(files["encoder.json"]), "merges": merges}
    hf = HfTokenizer.from_str(json.dumps(document))
    return lambda text: hf.encode(text, add_special_tokens=False).ids


def _sentencepiece(files: Files, tokenizer: Tokenizer):
    """``sentencepiece`` reading the ``.model``: its pieces (a ``.model`` numbers them its own way: control
    pieces first, the others by score)."""
    import sentencepiece as spm

    processor = spm.SentencePieceProcessor(model_proto=next(iter(files.values())))
    return lambda text: [processor.id_to_piece(piece_id) for piece_id in processor.encode(text)]


def _subword_nmt(files: Files, tokenizer: Tokenizer):
    from subword_nmt.apply_bpe import BPE

    with contextlib.redirect_stderr(io.StringIO()):
        bpe = BPE(io.StringIO(next(iter(files.values())).decode("utf-8")))
    return lambda text: bpe.segment(text)


FILE_OWNERS: Mapping[str, Reader] = MappingProxyType({
    "hf": _hf, "tiktoken": _tiktoken, "gpt2": _gpt2, "sentencepiece": _sentencepiece, "subword-nmt": _subword_nmt,
})


def ours(format: str, tokenizer: Tokenizer, text: str) -> object:
    """What BPE Lab makes of ``text``, shaped as format ``format``'s library gives it."""
    if format == "sentencepiece":
        fallback = tokenizer.fallback_bytes  # a byte piece is named <0xNN> in a .model
        return [f"<0x{fallback[token_id]:02X}>" if token_id in fallback else tokenizer.decode_single_token_bytes(token_id).decode("utf-8")
                for token_id in tokenizer.encode(text)]
    if format == "subword-nmt":
        return " ".join("@@ ".join(piece for piece in map(tokenizer.decode, ([i] for i in tokenizer.encode_ordinary(word))) if piece)
                        for word in text.strip("\r\n ").split(" ") if word)
    return tokenizer.encode(text, allowed_special="all")
