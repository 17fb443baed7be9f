"""GPT-2's own files: ``encoder.json`` (token -> id) and ``vocab.bpe`` (merges, one per line).

Scope: reading and writing the pair of files OpenAI published for GPT-2 (and that many GPT-2-style
tokenizers copy). Tokens are spelled in GPT-2's byte-level alphabet (``" the"`` is ``"Ġthe"``);
``vocab.bpe`` starts with a ``#version: 0.2`` line, then ``left right`` per merge, in rank order.
GPT-2's base ids are *not* byte values (``"!"`` is 0), which our tokenizer represents as it is::

    tokenizer = from_gpt2(encoder_json=encoder_text, vocab_bpe=merges_text)
    encoder_text, merges_text = to_gpt2(tokenizer)

Deliberately left out: the split pattern and special tokens have no field of their own. Reading,
the pattern is a parameter (GPT-2's by default) and every ``encoder.json`` entry that is neither a
byte nor made by a merge (GPT-2's ``<|endoftext|>``) becomes a special token. Writing, special
tokens go into ``encoder.json`` under their text and the pattern is not written.

Only byte-level tokenizers without an end-of-word marker can be written, and no two ids may
decode to the same bytes (``encoder.json`` is keyed by them). OpenAI's ``encoder.py`` and Hugging
Face read any such pair; tiktoken's ``data_gym_to_mergeable_bpe_ranks`` asserts that the ids are
GPT-2's own layout (bytes in its printable-first order, merges from 256 up), which a tokenizer
trained here does not have (its byte ids are the byte values): give tiktoken the rank file instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..tokens.byte_level import BYTE_TO_UNICODE, to_byte_text
from .common import TokenizerFormat, as_text, build_tokenizer, byte_base, check_vocab, duplicate_bytes_problem
from .spelled_merges import read_spelled_merges

VOCAB_BPE_HEADER = "#version: 0.2"


def from_gpt2(
    *,
    encoder_json: str | bytes,
    vocab_bpe: str | bytes,
    pretokenizer: str = "gpt2",
    name: str = "",
    sources: tuple[str, str] = ("encoder.json", "vocab.bpe"),
) -> Tokenizer:
    """Read GPT-2-style files; ``sources`` name them in error messages."""
    encoder_source, merges_source = sources
    ids_by_text = parse_encoder_json(as_text(encoder_json, source=encoder_source), source=encoder_source)
    base = byte_base(ids_by_text, source=encoder_source)
    known = {char: ids_by_text[char] for char in BYTE_TO_UNICODE}  # token text -> id, growing per merge
    made_at: dict[str, int] = {}
    merges: list[tuple[int, int, int]] = []
    for line_number, left, right in parse_vocab_bpe(as_text(vocab_bpe, source=merges_source), source=merges_source):
        where = f"{merges_source} line {line_number}"
        for part in (left, right):
            if part not in known:
                raise FormatError(f"{where}: merges {part!r}, which neither a byte nor an earlier line makes")
        text = left + right
        if text in made_at:
            raise FormatError(
                f"{where}: {left} {right} makes {text!r} again (line {made_at[text]} made it); "
                "each token comes from one merge"
            )
        if text not in ids_by_text:
            raise FormatError(f"{where}: {left} {right} makes {text!r}, which {encoder_source} has no id for")
        made_at[text] = line_number
        known[text] = ids_by_text[text]
        merges.append((known[left], known[right], known[text]))
    special_tokens = {text: token_id for text, token_id in ids_by_text.items() if text not in known}
    return build_tokenizer(
        source=f"{encoder_source} + {merges_source}", unit="byte", pretokenizer=pretokenizer, base=base,
        merges=merges, special_tokens=special_tokens, name=name,
    )


def parse_encoder_json(text: str, *, source: str = "encoder.json") -> dict[str, int]:
    """``{"!": 0, ...}``: token text -> id, every id distinct."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # ValueError: also ints too long to read
        raise FormatError(f"{source} is not valid JSON ({error}); was it cut short?") from None
    return check_vocab(data, source=source, what="the file")


def parse_vocab_bpe(text: str, *, source: str = "vocab.bpe") -> list[tuple[int, str, str]]:
    """``(line number, left, right)`` per merge (a repeated one at its last line, where OpenAI's
    ``encoder.py`` ranks it: :mod:`~bpe.formats.spelled_merges`); the version line is checked when present."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if lines[0].startswith("#version"):
        # Hugging Face writes "#version: 0.2 - Trained by `huggingface/tokenizers`": same layout.
        if lines[0].strip().split(" - ", 1)[0] != VOCAB_BPE_HEADER:
            raise FormatError(f"{source} line 1: {lines[0].strip()!r} is not supported; this reader knows {VOCAB_BPE_HEADER!r}")
        lines[0] = ""
    entries = [(number, line) for number, line in enumerate(lines, start=1) if line]
    return read_spelled_merges(entries, keep="last", source=source)


def _problem(tokenizer: Tokenizer) -> str | None:
    """Why GPT-2's files cannot hold a byte-level ``tokenizer``; None if they can."""
    problem = duplicate_bytes_problem(tokenizer, title=GPT2.title)
    if problem:
        return problem
    if tokenizer.whole_only:  # vocab.bpe makes every token by a merge: a reader never gives these
        count, example = len(tokenizer.whole_only), next(iter(tokenizer.whole_only.values())).decode("utf-8", "backslashreplace")
        return (f"{count:,} of this tokenizer's tokens are made by no merge (a rank file's whole-chunk tokens, e.g. "
                f"{example!r}), and GPT-2's files make every token by a merge; export it as a tiktoken rank file or "
                "a Hugging Face tokenizer.json, which hold them")
    spellings = {to_byte_text(token.data) for token_id, token in tokenizer.tokens.items() if not tokenizer.is_special(token_id)}
    for text in tokenizer.special_tokens:
        if text in spellings:
            return (
                f"the special token {text!r} is spelled like an ordinary token in GPT-2's byte alphabet, "
                "so encoder.json cannot hold both; rename the special token"
            )
    return None


def _write(tokenizer: Tokenizer) -> tuple[str, str]:
    """``(encoder.json text, vocab.bpe text)``."""
    special_text = {token_id: text for text, token_id in tokenizer.special_tokens.items()}
    spelled = {token_id: special_text.get(token_id) or to_byte_text(token.data) for token_id, token in sorted(tokenizer.tokens.items())}
    encoder = {text: token_id for token_id, text in spelled.items()}
    lines = [VOCAB_BPE_HEADER]
    lines += [f"{spelled[left]} {spelled[right]}" for left, right, _ in tokenizer.merges]  # each token spelled once
    return json.dumps(encoder, ensure_ascii=False), "\n".join(lines) + "\n"


def _read(files: Sequence[tuple[str, str | bytes]], *, pretokenizer: str, name: str) -> Tokenizer:
    """GPT-2's two files, told apart by content (``encoder.json`` is a JSON object), so their names do not matter."""
    (source, contents), (other_source, other) = files
    if _looks_like_json_object(other) and not _looks_like_json_object(contents):
        (source, contents), (other_source, other) = (other_source, other), (source, contents)
    return from_gpt2(
        encoder_json=contents, vocab_bpe=other, pretokenizer=pretokenizer, name=name, sources=(source, other_source)
    )


def _looks_like_json_object(contents: str | bytes) -> bool:
    start = contents.lstrip()[:1] if isinstance(contents, (str, bytes, bytearray)) else ""
    return start in ("{", b"{")


GPT2 = TokenizerFormat(
    name="gpt2", title="GPT-2 encoder.json + vocab.bpe", file_names=("encoder.json", "vocab.bpe"),
    note="OpenAI's original GPT-2 `encoder.py` layout; the split pattern is not stored. tiktoken's "
    "`data_gym_to_mergeable_bpe_ranks` reads only GPT-2's own id layout: for tiktoken, use its rank file.",
    write=_write, read=_read, problem=_problem, reads=2, stores_pattern=False,
)


def to_gpt2(tokenizer: Tokenizer) -> tuple[str, str]:
    """``(encoder.json text, vocab.bpe text)``; FormatError (saying why) if GPT-2's files cannot hold
    ``tokenizer``."""
    return GPT2.texts(tokenizer)  # type: ignore[return-value]
