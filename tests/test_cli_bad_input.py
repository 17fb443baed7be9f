"""The CLI's input edges: arguments that are not UTF-8, an empty word table, ids that int() reads
too kindly, and files (UTF-8 with NUL, a byte-order mark, UTF-16). Each bad one: exit 2, one line
on stderr. Real subprocesses, argv given as raw bytes where the point is bytes.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bpe.limits import MAX_FILE_MB

from .app_server import ROOT
from .machine_speed import scaled


def run_bpe(*args: str | bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpe", *args], cwd=ROOT, capture_output=True, timeout=scaled(60))


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


# -- read errors after open, and a bad byte late in a streamed file ----------------------------------
@pytest.mark.parametrize("command", [["train", "--file"], ["encode", "--pretrained", "gpt2", "--file"]])
def test_a_file_that_opens_but_cannot_be_read_is_one_line_and_exit_2(command):
    done = run_bpe(*command, "/proc/self/mem")  # opens, then reading from offset 0 fails (EIO)
    assert_refused(done, "cannot read /proc/self/mem: Input/output error")


LATE_BAD_BYTE_AT = 3 * 1024 * 1024 + 5  # past the first chunks the stream reads (1 MB each)


@pytest.fixture(scope="module")
def late_bad_byte(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("stream") / "late.txt"
    text = ("hello world " * (LATE_BAD_BYTE_AT // 12 + 1)).encode()[:LATE_BAD_BYTE_AT]
    path.write_bytes(text + b"\xff and more text\n")
    return str(path)


def test_a_streamed_json_encode_that_meets_a_bad_byte_late_writes_one_closed_document(late_bad_byte):
    done = run_bpe("encode", "--pretrained", "gpt2", "--file", late_bad_byte, "--json")
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr.count("\n") == 1 and f"is not UTF-8 text (near byte {LATE_BAD_BYTE_AT})" in stderr
    document = json.loads(done.stdout)  # valid JSON: the ids streamed so far, closed, and the error
    assert document["error"] in stderr and len(document["ids"]) > 100_000
    assert set(document["ids"]) == {31373, 995, 23748}  # "hello", " world" and " hello": no half-written id


def test_a_streamed_plain_encode_that_meets_a_bad_byte_late_ends_its_line(late_bad_byte):
    done = run_bpe("encode", "--pretrained", "gpt2", "--file", late_bad_byte)
    assert done.returncode == 2 and done.stdout.endswith(b"\n") and done.stdout.count(b"\n") == 1


def test_a_file_read_whole_stops_at_the_limit_instead_of_filling_the_memory():
    assert_refused(run_bpe("train", "--file", "/dev/zero"), f"/dev/zero is over {MAX_FILE_MB} MiB, the most a file read whole")


@pytest.mark.parametrize("how", ["--text", "--file"])  # one line written at exit; many batches streamed
def test_output_that_cannot_be_written_is_one_line_and_exit_2(tokenizer, tmp_path, how):
    text = "low lower lowest " * (1 if how == "--text" else 20_000)
    (tmp_path / "long.txt").write_text(text, encoding="utf-8")
    source = [how, text if how == "--text" else str(tmp_path / "long.txt")]
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "bpe", "encode", "--tokenizer", tokenizer, *source],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, timeout=scaled(60))
    stderr = done.stderr.decode()
    assert done.returncode == 2 and stderr.count("\n") == 1, stderr
    assert stderr.startswith("error: cannot write the output: No space left on device"), stderr
