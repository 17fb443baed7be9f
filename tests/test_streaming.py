"""``Tokenizer.encode_iterable`` and ``encode --file``: the same ids as ``encode`` of the whole text,
however the text is cut, in bounded memory.

The expected ids are ``Tokenizer.encode`` of the joined text (itself checked against tiktoken and
Hugging Face in the parity tests); the cuts fall at every position of a text that has every kind
of boundary: inside a pre-token, inside a special token, between ``\\r`` and ``\\n``, inside a
multi-byte character (for byte streams), around overlapping special tokens.
"""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from bpe.encoding import streaming
from bpe.encoding.streaming import encode_iterable, read_text_chunks
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError, SpecialTokenError
from bpe.text.corpus import Corpus
from bpe.text.pretokenize import PRETOKENIZERS as NAMED_PRETOKENIZERS
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

from .child_env import child_env
from .machine_speed import scaled
from .shared_tokenizers import shared_pretrained

REPO_ROOT = Path(__file__).resolve().parents[1]
EOT = "<|endoftext|>"
SPECIALS = (EOT, EOT + EOT, "<|im_start|>")
TEXT = (
    f"Cafe\u0301{EOT}\u0338 >\u0338 Hello  world!\r\n\r\nIt's 12345 cafés{EOT}{EOT}{EOT}   naïve 東京😀 x\t\ty"
    "<|im_start|>user\n  trailing   \r\n end 人力资源"  # NFC joins e + U+0301, and > + U+0338 (eating a special token)
)
PRETOKENIZERS = [
    *(name for name, entry in NAMED_PRETOKENIZERS.items() if not entry.char_unit_only), r"regex:\w+|[^\w\s]+",
]


@lru_cache(maxsize=None)
def trained(pretokenizer: str, unit: str = "byte", mode: str = "separate") -> Tokenizer:
    settings = TrainSettings(
        unit=unit, pretokenizer=pretokenizer, merges=60, min_frequency=1, special_tokens=SPECIALS,
        end_of_word="</w>" if unit == "char" and pretokenizer != "sentencepiece" else None, end_of_word_mode=mode,
    )
    return Tokenizer.from_trace(train(Corpus.from_text(TEXT * 4, pretokenizer=pretokenizer, special_tokens=SPECIALS), settings))


TOKENIZERS = {
    **{name: (lambda name=name: trained(name)) for name in PRETOKENIZERS},
    "char-attached-space": lambda: trained("space", "char", "attached"),
    "char-separate-whitespace": lambda: trained("whitespace", "char"),
    "char-sentencepiece": lambda: trained("sentencepiece", "char"),
    "gpt2-pretrained": lambda: shared_pretrained("gpt2"),
}


@pytest.fixture(autouse=True)
def _cut_as_often_as_possible(monkeypatch):
    monkeypatch.setattr(streaming, "GATHER_CHARS", 1)  # look for a cut after every piece


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize("allowed", ["all", frozenset()], ids=["allowed", "as-text"])
def test_one_cut_anywhere_gives_the_ids_of_the_whole_text(name, allowed):
    tok = TOKENIZERS[name]()
    if not allowed and tok.unit == "char":
        pytest.skip("the characters of special-token text were never trained on, so a char vocabulary lacks them")
    disallowed = () if allowed == frozenset() else "all"
    expected = tok.encode(TEXT, allowed_special=allowed, disallowed_special=disallowed)
    for cut in range(len(TEXT) + 1):
        pieces = [TEXT[:cut], TEXT[cut:]]
        assert list(tok.encode_iterable(pieces, allowed_special=allowed, disallowed_special=disallowed)) == expected, cut


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_pieces_of_any_size_give_the_ids_of_the_whole_text(name, size):
    tok = TOKENIZERS[name]()
    pieces = [TEXT[i:i + size] for i in range(0, len(TEXT), size)]
    assert list(tok.encode_iterable(pieces, allowed_special="all")) == tok.encode(TEXT, allowed_special="all")


@pytest.mark.parametrize("chunk_bytes", [1, 2, 3, 5])
def test_a_byte_stream_cut_inside_multi_byte_characters_decodes_and_encodes_alike(chunk_bytes):
    tok = shared_pretrained("gpt2")
    data = ("\ufeff" + TEXT).encode("utf-8")  # with a byte-order mark, which is not text
    chunks = list(read_text_chunks(io.BytesIO(data), name="t.txt", chunk_bytes=chunk_bytes))
    assert "".join(chunks) == TEXT
    assert list(tok.encode_iterable(chunks, allowed_special="all")) == tok.encode(TEXT, allowed_special="all")


def test_ids_come_before_the_input_ends():
    tok = shared_pretrained("gpt2")
    pulled = []

    def lines():
        for number in itertools.count():
            pulled.append(number)
            yield f"line {number} of an endless text\n"

    first = list(itertools.islice(tok.encode_iterable(lines()), 10))
    assert first == tok.encode("line 0 of an endless text\nline 1 of an endless text\n")[:10]
    assert len(pulled) < 20


def test_a_disallowed_special_token_cut_in_two_still_raises():
    tok = shared_pretrained("gpt2")
    with pytest.raises(SpecialTokenError, match="allowed_special"):
        list(tok.encode_iterable(["hello <|endof", "text|> world"]))


def test_bad_arguments_raise_at_once_and_bytes_are_refused():
    tok = shared_pretrained("gpt2")
    with pytest.raises(SpecialTokenError, match="not a special token"):
        tok.encode_iterable(["x"], allowed_special={"<|nope|>"})
    with pytest.raises(BpeError, match="decode bytes first"):
        list(encode_iterable(tok, [b"bytes"]))


def test_a_byte_stream_that_is_not_utf8_names_the_byte():
    with pytest.raises(BpeError, match="not UTF-8 text"):
        list(read_text_chunks(io.BytesIO("ok é".encode() + b"\xff\xfe more"), name="bad.txt", chunk_bytes=2))


BAD_BYTES = {
    "a stray byte after a character cut between chunks": "ok é".encode() + b"\xff\xfe more",
    "a character cut short by a later byte": "aé".encode() + b"\xe2\x82x",
    "a character cut short by the end": b"ab\xe2\x82",
    "a stray byte after a byte-order mark": b"\xef\xbb\xbfab\xff",
    "a stray byte far into the stream": "naïve ".encode() * 40 + b"\x80" + b"tail",
}


@pytest.mark.parametrize("chunk_bytes", [1, 2, 3, 5, 64])
@pytest.mark.parametrize("case", list(BAD_BYTES))
def test_a_bad_byte_is_named_where_it_is_whichever_chunk_it_falls_in(case, chunk_bytes):
    data = BAD_BYTES[case]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:  # the whole file's decode names the first bad byte
        where = error.start
    with pytest.raises(BpeError, match=rf"near byte {where}\)"):
        list(read_text_chunks(io.BytesIO(data), name="bad.txt", chunk_bytes=chunk_bytes))


# -- the command line -------------------------------------------------------------------------------
def run_encode(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bpe", "encode", "--pretrained", "gpt2", *args], cwd=REPO_ROOT, input=stdin,
        capture_output=True, timeout=scaled(300), env=child_env(),
    )


def test_encode_file_and_standard_input_print_the_ids_of_the_whole_text(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(TEXT, encoding="utf-8")
    expected = " ".join(map(str, shared_pretrained("gpt2").encode(TEXT, allowed_special="all"))) + "\n"
    assert run_encode("--file", str(path), "--allowed-special", "all").stdout.decode() == expected
    assert run_encode("--file", "-", "--allowed-special", "all", stdin=TEXT.encode()).stdout.decode() == expected
    as_json = run_encode("--file", "-", "--allowed-special", "all", "--json", stdin=TEXT.encode()).stdout
    assert " ".join(map(str, __import__("json").loads(as_json)["ids"])) + "\n" == expected


def test_encode_file_streams_a_big_file_in_bounded_memory(tmp_path):
    paragraph = "The quick brown fox jumps over the lazy dog, again and again: naïve café 東京.\n"
    repeats = 8 * 1024 * 1024 // len(paragraph.encode())  # about 8 MB: read whole, its peak passes 200 MB
    path = tmp_path / "big.txt"
    with open(path, "w", encoding="utf-8") as file:
        for _ in range(repeats // 1000):
            file.write(paragraph * 1000)
    one = shared_pretrained("gpt2").encode(paragraph)  # first: a fresh machine builds GPT-2's merge cache here, not in the CLI run
    # The CLI's own peak, read in its process at the end from /proc (VmHWM, this address space's
    # high-water mark). subtle: not getrusage: Linux carries ru_maxrss across exec, so a child
    # started with vfork reports the pytest process's size (657 MB seen in a full run).
    measure = (
        "import sys\nfrom bpe.cli.commands import main\ncode = main(sys.argv[1:])\n"
        "hwm = next(line for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
        "sys.stderr.write(f'peak_kb={hwm.split()[1]}')\nsys.exit(code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", measure, "encode", "--pretrained", "gpt2", "--file", str(path)], cwd=REPO_ROOT,
        capture_output=True, timeout=scaled(300), env=child_env(),
    )
    assert result.returncode == 0, result.stderr
    peak_mb = int(result.stderr.decode().rsplit("peak_kb=", 1)[1]) / 1024
    assert result.stdout.count(b" ") + 1 == len(one) * (repeats // 1000) * 1000
    assert result.stdout.startswith(" ".join(map(str, one * 3)).encode())
    # The whole file at once took about 230 MB here (its text, its ids and their printed line; 510 MB
    # for 20 MB), streamed about 76 MB whatever the size.
    assert peak_mb < 150, f"peak RSS {peak_mb:.0f} MB"
