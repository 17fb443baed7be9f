"""A file format is one entry in one registry: a toy format added there alone is offered everywhere.

The toy format (a list of merges as ``left right`` id lines, byte-level, no split pattern and no
special tokens stored) is declared as one ``TokenizerFormat`` and added to ``bpe.formats.files.FORMATS``
and nothing else; the registry, the CLI, the export offers and the Import & export page must all
offer it.
"""

import json

import pytest

from bpe import PRESETS, Tokenizer, train
from bpe.cli.commands import main
from bpe.errors import FormatError
from bpe.formats import all_formats, export_tokenizer, files, import_tokenizer, tokenizer_format
from bpe.formats.common import TokenizerFormat, as_text, one_file
from bpe.tokens.vocab import Token
from bpe.views.exports import export_offers

from .apptest_support import open_page

PORT = "pages/10_Import_and_export.py"
TEXT = "hello world, hello byte pairs"


def _write_toy(tokenizer: Tokenizer) -> str:
    return "".join(f"{left} {right}\n" for left, right, _ in tokenizer.merges)


def _read_toy(contents: str | bytes, *, source: str, name: str, pretokenizer: str) -> Tokenizer:
    pairs = [tuple(map(int, line.split())) for line in as_text(contents, source=source).splitlines()]
    return Tokenizer(
        unit="byte", pretokenizer=pretokenizer, base={byte: Token(bytes([byte])) for byte in range(256)},
        merges=[(left, right, 256 + rank) for rank, (left, right) in enumerate(pairs)], name=name,
    )


def _toy_problem(tokenizer: Tokenizer) -> str | None:
    return "toy merge lists hold no special tokens" if tokenizer.special_tokens else None


TOY = TokenizerFormat(
    name="toy", title="Toy merge list", file_names=("toy.merges",), note="Registered by a test.",
    write=_write_toy, read=one_file(_read_toy), problem=_toy_problem, stores_pattern=False,
)


@pytest.fixture
def toy_registered(monkeypatch):
    """The one edit a new format needs: its entry in the registry."""
    monkeypatch.setattr(files, "FORMATS", files.FORMATS.with_entries(TOY))


def trained(special_tokens: tuple[str, ...] = ()) -> Tokenizer:
    preset = PRESETS["wikipedia"]  # byte-level, ids laid out as the toy reader rebuilds them
    settings = preset.settings if not special_tokens else type(preset.settings).from_dict(
        {**preset.settings.to_dict(), "special_tokens": special_tokens}
    )
    return Tokenizer.from_trace(train(preset.corpus(), settings))


def test_the_registry_offers_a_toy_format_added_as_one_entry(toy_registered):
    assert tokenizer_format("toy") is TOY and [entry.name for entry in all_formats()][-1] == "toy"
    tokenizer = trained()
    written = export_tokenizer(tokenizer, format="toy")
    assert written == {"toy.merges": "".join(f"{a} {b}\n" for a, b, _ in tokenizer.merges)}
    back = import_tokenizer(format="toy", files=written, pretokenizer="none", name="back")
    assert back.merges == tokenizer.merges and back.encode(TEXT) == tokenizer.encode(TEXT)
    with pytest.raises(FormatError, match="toy merge lists hold no special tokens"):
        export_tokenizer(trained(("<|end|>",)), format="toy")


def test_without_its_entry_the_toy_format_is_unknown():
    with pytest.raises(FormatError, match="unknown format 'toy'"):
        tokenizer_format("toy")


def test_the_cli_exports_and_imports_the_toy_format(toy_registered, tmp_path, capsys):
    saved = tmp_path / "t.json"
    saved.write_text(trained().to_json(), encoding="utf-8")
    out = tmp_path / "toy.merges"
    assert main(["export", "--tokenizer", str(saved), "--format", "toy", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == _write_toy(trained())
    assert "note: Toy merge list does not store the split pattern;" in printed  # read from stores_pattern
    back = tmp_path / "back.json"
    assert main(["import", "--format", "toy", "--in", str(out), "--out", str(back), "--pretokenizer", "none"]) == 0
    assert json.loads(back.read_text(encoding="utf-8"))["merges"] == [list(m) for m in trained().merges]


def test_the_export_offers_include_the_toy_format(toy_registered):
    offers = {offer.format: offer for offer in export_offers(trained(), stem="wikipedia")}
    assert offers["toy"].title == "Toy merge list" and offers["toy"].note == "Registered by a test."
    assert offers["toy"].files == {"toy.merges": _write_toy(trained()).encode("utf-8")}
    refused = {offer.format: offer for offer in export_offers(trained(("<|end|>",)), stem="x")}["toy"]
    assert refused.problem == "toy merge lists hold no special tokens" and not refused.files


def test_the_import_and_export_page_offers_the_toy_format(toy_registered):
    at = open_page(PORT, preset="wikipedia")
    assert not at.exception
    assert "Toy merge list" in [markdown.value.strip("*") for markdown in at.markdown]  # an export card
    assert "toy.merges" in [button.label for button in at.download_button]
    at.selectbox(key="w.import_format").set_value("toy").run()
    assert "Upload `toy.merges`." in [caption.value for caption in at.caption]
    assert at.selectbox(key="w.import_pretok").value == "gpt2"  # the toy files store no split pattern: the page asks
