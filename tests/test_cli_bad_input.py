"""The CLI's input edges: arguments that are not UTF-8, an empty word table, ids that int() reads
too kindly, and files (UTF-8 with NUL, a byte-order mark, UTF-16). Each bad one: exit 2, one line
on stderr. Real subprocesses, argv given as raw bytes where the point is bytes.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from .app_server import ROOT


def run_bpe(*args: str | bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpe", *args], cwd=ROOT, capture_output=True, timeout=60)


def assert_refused(done: subprocess.CompletedProcess, message: str) -> None:
    stderr = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == 2, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("error: "), stderr
    assert message in stderr
    assert done.stdout == b""


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("cli") / "t.json"
    done = run_bpe("train", "--text", "low lower lowest", "--pretokenizer", "none", "--merges", "3", "--save", str(path))
    assert done.returncode == 0, done.stderr
    return str(path)


NOT_UTF8 = {
    "--text": (["train", "--text", b"caf\xe9"], "--text is not UTF-8 text (byte 0xe9 at character 3)"),
    "--words": (["train", "--words", b"l\xffw:5"], "--words is not UTF-8 text (byte 0xff at character 1)"),
    "--special": (["train", "--text", "ab", "--special", b"<\xfe>"], "--special is not UTF-8 text (byte 0xfe"),
    "--end-of-word": (["train", "--text", "ab", "--end-of-word", b"\xe9"], "--end-of-word is not UTF-8 text"),
}


@pytest.mark.parametrize("args, message", NOT_UTF8.values(), ids=NOT_UTF8)
def test_an_argument_holding_bytes_that_are_not_utf8_is_one_line_and_exit_2(args, message):
    assert_refused(run_bpe(*args), message)


def test_an_empty_word_table_is_refused_like_any_bad_table():
    assert_refused(run_bpe("train", "--words", ""), "cannot read '' as word:count")


@pytest.mark.parametrize("item", ["٣", "1_0", " 7 ", "+7", "7.0"])
def test_decode_reads_ascii_digits_only(item, tokenizer):
    assert_refused(run_bpe("decode", "--tokenizer", tokenizer, "--", item), f"cannot read {item!r} as a token id")


def test_decode_of_ascii_ids_still_works(tokenizer):
    done = run_bpe("decode", "--tokenizer", tokenizer, "108", "111", "119")
    assert done.returncode == 0 and done.stdout == b"low\n"


def test_a_utf8_file_with_nul_and_control_characters_is_text(tokenizer, tmp_path):
    path = tmp_path / "log.txt"
    path.write_bytes(b"lo\x00w\x01")
    done = run_bpe("encode", "--tokenizer", tokenizer, "--file", str(path))
    assert done.returncode == 0, done.stderr
    assert run_bpe("decode", "--tokenizer", tokenizer, *done.stdout.split()).stdout == b"lo\x00w\x01\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_named_as_such(encoding, tokenizer, tmp_path):
    path = tmp_path / "u16.txt"
    path.write_bytes("low lower".encode(encoding))
    assert_refused(run_bpe("encode", "--tokenizer", tokenizer, "--file", str(path)), "is UTF-16 text, not UTF-8")


def test_a_byte_order_mark_is_removed_from_file_and_text_alike_and_each_says_so(tokenizer, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufefflow lower".encode())
    from_file = run_bpe("encode", "--tokenizer", tokenizer, "--file", str(path))
    from_text = run_bpe("encode", "--tokenizer", tokenizer, "--text", "\ufefflow lower")
    plain = run_bpe("encode", "--tokenizer", tokenizer, "--text", "low lower")
    assert from_file.stdout == from_text.stdout == plain.stdout != b""
    for done in (from_file, from_text):
        assert done.returncode == 0
        assert b"note: removed the byte-order mark (U+FEFF)" in done.stderr
    assert plain.stderr == b""
