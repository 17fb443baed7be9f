"""subword-nmt's codes file: what Sennrich's ``learn-bpe`` writes and ``apply-bpe`` reads.

Scope: the codes file of rsennrich/subword-nmt, one merge per line as the two symbols it joins::

    #version: 0.2
    s t</w>
    e st</w>
    l o

``#version: 0.2`` files glue ``</w>`` to a word's last character (``t</w>`` is one symbol: our
end-of-word mode ``attached``); files without a header, or with ``#version: 0.1``, put ``</w>``
after the word as a symbol of its own (mode ``separate``). subword-nmt works on characters, cuts
lines at the space character only (our pre-tokenizer ``space``) and its marker is always ``</w>``.

Reading builds ids as a char-level run would: the characters found in the file plus the space
and the line break (the text between words), sorted, then (for
0.2) each of them carrying the marker, then one id per merge in file order. Like ``apply_bpe``, a
repeated line is ignored after its first occurrence.

Deliberately refused: two merges that make the same symbol (``a bc`` and ``ab c``): subword-nmt
treats them as one symbol, BPE Lab gives each merge its own token, so encodings could differ; and a
merge whose token holds the text ``</w>`` (from a corpus whose words do): written to a codes file it
reads as the marker.
``apply_bpe`` passes characters it has never seen through unchanged, and so does a tokenizer read
here (:mod:`bpe.formats.subword_nmt_tokenizer`: each gets an id past the vocabulary, ``ß`` below).

    >>> tok = from_subword_nmt("#version: 0.2\\ns t</w>\\ne st</w>\\nl o\\n")
    >>> [tok.token_text(i) for i in tok.encode("lost est ß")]
    ['lo', 'st</w>', ' ', 'est</w>', ' ', 'ß</w>']
    >>> to_subword_nmt(tok) == "#version: 0.2\\ns t</w>\\ne st</w>\\nl o\\n"
    True
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..tokens.vocab import Token, token_text
from .common import TokenizerFormat, as_text, build_tokenizer, one_file
from .spelled_merges import read_spelled_merges
from .subword_nmt_tokenizer import SubwordNmtTokenizer

MARKER = "</w>"
_VERSIONS = MappingProxyType({"0.1": "separate", "0.2": "attached"})


def from_subword_nmt(contents: str | bytes, *, name: str = "", source: str = "codes file") -> Tokenizer:
    """Read a codes file; ``source`` names it in error messages."""
    lines = as_text(contents, source=source).rstrip("\n").split("\n")
    version, first_line = "0.1", 1
    if lines and lines[0].startswith("#version:"):
        version = re.sub(r"(\.0+)*$", "", lines[0].split()[-1])  # apply_bpe's reading: 0.2.0 is 0.2
        if version not in _VERSIONS:
            raise FormatError(
                f"{source} line 1: subword-nmt codes version {version!r} is unknown; "
                f"this reader knows {', '.join(_VERSIONS)}"
            )
        lines, first_line = lines[1:], 2
    mode = _VERSIONS[version]
    entries = [(number, line.strip("\r\n ")) for number, line in enumerate(lines, start=first_line)]
    # apply_bpe keeps the first of repeated lines (bpe/formats/spelled_merges.py)
    pairs = [(left, right) for _, left, right in read_spelled_merges(entries, keep="first", source=source)]

    def plain(symbol: str) -> str:
        return symbol[: -len(MARKER)] if symbol.endswith(MARKER) else symbol

    # The space and the line break join the alphabet: they are what the split leaves between words.
    alphabet = sorted({" ", "\n"}.union(*(plain(symbol) for pair in pairs for symbol in pair)))
    base = [Token(char.encode("utf-8")) for char in alphabet]
    if mode == "separate":
        base.append(Token(b"", ends_word=True))
    else:  # every character may end a word, as in apply_bpe, which glues </w> to any last character
        base += [Token(char.encode("utf-8"), ends_word=True) for char in alphabet]
    ids = {token_text(token, MARKER): token_id for token_id, token in enumerate(base)}
    merges: list[tuple[int, int, int]] = []
    made: dict[str, int] = {}
    for number, (left, right) in enumerate(pairs, start=1):
        for symbol in (left, right):
            if symbol not in ids:
                raise FormatError(f"{source}: merge {number} uses the symbol {symbol!r}, which no earlier line makes")
        joined = left + right
        if joined in ids:
            raise FormatError(
                f"{source}: merge {number} ({left} {right}) makes {joined!r}, which "
                f"{'merge ' + str(made[joined]) if joined in made else 'the alphabet'} already makes; "
                "subword-nmt treats both as one symbol, BPE Lab cannot"
            )
        ids[joined] = len(base) + len(merges)
        made[joined] = number
        merges.append((ids[left], ids[right], ids[joined]))
    return build_tokenizer(
        source=source, unit="char", pretokenizer="space", end_of_word=MARKER,
        base=dict(enumerate(base)), merges=merges, name=name, factory=SubwordNmtTokenizer,
    )


def _problem(tokenizer: Tokenizer) -> str | None:
    """Why a codes file cannot hold ``tokenizer`` (what to do instead); None if it can."""
    retrain = "Save it as BPE Lab JSON, or retrain with"
    if tokenizer.unit != "char" or tokenizer.end_of_word != MARKER:
        return (
            f"subword-nmt codes are merges of characters with the end-of-word marker {MARKER}. {retrain} "
            f"the char unit and the marker {MARKER}"
        )
    if tokenizer.pretokenizer.name != "space":
        return (
            f"subword-nmt cuts lines at the space character only, but this tokenizer splits with "
            f"{tokenizer.pretokenizer.name!r}. {retrain} the pre-tokenizer 'space'"
        )
    if tokenizer.special_tokens:
        return f"subword-nmt codes have no special tokens. {retrain}out special tokens"
    spellings: dict[str, int] = {}
    for rank, (_, _, new_id) in enumerate(tokenizer.merges, start=1):
        text = tokenizer.token_text(new_id)
        if " " in text or "\n" in text or "\r" in text:
            return f"merge {rank} makes {text!r}: a codes line cannot hold a space or a line break"
        if MARKER in tokenizer.decode_single_token_bytes(new_id).decode("utf-8", "replace"):  # the text, not the marker
            return (
                f"merge {rank} makes {text!r}, holding the text {MARKER}: a codes file cannot tell the text {MARKER} "
                "from the end-of-word marker, so apply_bpe would segment such words otherwise. Save it as BPE Lab "
                f"JSON, or train on text without {MARKER}"
            )
        if text in spellings:
            return (
                f"merges {spellings[text]} and {rank} both make {text!r}; subword-nmt would treat them as "
                "one symbol. Save it as BPE Lab JSON"
            )
        spellings[text] = rank
    return None


def _write(tokenizer: Tokenizer) -> str:
    """The codes file: ``#version: 0.2`` (attached marker) or ``0.1`` (separate), then one merge a line."""
    version = next(number for number, mode in _VERSIONS.items() if mode == tokenizer.end_of_word_mode)
    lines = [f"#version: {version}"]
    lines += [f"{tokenizer.token_text(left)} {tokenizer.token_text(right)}" for left, right, _ in tokenizer.merges]
    return "\n".join(lines) + "\n"


SUBWORD_NMT = TokenizerFormat(
    name="subword-nmt", title="subword-nmt codes file", file_names=("bpe.codes",),
    note="Sennrich's `subword-nmt apply-bpe -c bpe.codes`: char-level, marker `</w>`, split on spaces.",
    write=_write, read=one_file(from_subword_nmt), problem=_problem, byte_level_only=False,  # the one character-level format
    recognizes=lambda contents: bool(re.match(rb"#version: 0\.[12]\r?\n", contents)) and MARKER.encode() in contents,
)


def apply_bpe_line(tokenizer: Tokenizer, line: str, *, separator: str = "@@") -> str:
    """``line`` segmented as ``apply_bpe``'s ``BPE.process_line`` writes it: each space-separated
    word's subwords joined by ``separator`` and a space, runs of spaces made one, the line's own
    leading and trailing whitespace kept; a bare marker left unmerged at a word's end prints nothing.

    >>> codes = from_subword_nmt("#version: 0.2\\nl o\\nlo w</w>\\ne r</w>\\n")
    >>> apply_bpe_line(codes, "  low  lower ß\\n")
    '  low lo@@ w@@ er ß\\n'
    """
    body = line.strip("\r\n ")
    words = []
    for word in body.split(" "):
        if word:
            parts = [text for text in (tokenizer.decode([token_id]) for token_id in tokenizer.encode_ordinary(word)) if text]
            words.append(f"{separator} ".join(parts))
    leading = line[:len(line) - len(line.lstrip("\r\n "))]
    trailing = line[len(line.rstrip("\r\n ")):] if body else ""
    return leading + " ".join(words) + trailing


def to_subword_nmt(tokenizer: Tokenizer) -> str:
    """The codes file: ``#version: 0.2`` (attached marker) or ``0.1`` (separate), then one merge a
    line; FormatError (saying why) if a codes file cannot hold ``tokenizer``."""
    return SUBWORD_NMT.texts(tokenizer)  # type: ignore[return-value]
