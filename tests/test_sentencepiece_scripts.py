"""bpe/text/sentencepiece_script_table.py is what scripts/generate_sentencepiece_scripts.py makes of sentencepiece's
own ``src/unicode_script_map.h`` (from the source release ``scripts/install.sh --test`` downloads)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bpe.text.sentencepiece_scripts import script_of

GENERATOR_PATH = Path(__file__).resolve().parents[1] / "scripts" / "generate_sentencepiece_scripts.py"
_spec = importlib.util.spec_from_file_location("generate_sentencepiece_scripts", GENERATOR_PATH)
generator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generator)  # type: ignore[union-attr]


def test_the_script_table_is_the_generators_output_from_sentencepieces_own_header():
    assert generator.SOURCE.exists(), f"{generator.SOURCE} is missing: run bash scripts/install.sh --test"
    expected = generator.module_text(generator.read_header(generator.SOURCE))
    assert generator.MODULE.read_text(encoding="utf-8") == expected, "run scripts/generate_sentencepiece_scripts.py"


@pytest.mark.parametrize("char, script", [
    ("\U00013000", "Egyptian_Hieroglyphs"), ("\U0001342e", "Egyptian_Hieroglyphs"),
    ("\U00014400", "Anatolian_Hieroglyphs"), ("\U00014646", "Anatolian_Hieroglyphs"),
    ("\U00010980", "Meroitic_Hieroglyphs"), ("\U0001099f", "Meroitic_Hieroglyphs"),
    ("\U00010b40", "Inscriptional_Parthian"), ("\U00010b5f", "Inscriptional_Parthian"),
    ("\U00010b60", "Inscriptional_Pahlavi"), ("\U00010b7f", "Inscriptional_Pahlavi"),
    ("\U000109a0", "Meroitic_Cursive"), ("a", "Latin"), ("\t", "Common"), ("\U0001f600", "Common"),
])
def test_the_scripts_the_header_wraps_over_two_lines_are_in_the_table(char, script):
    assert script_of(char) == script


def test_a_header_holding_an_assignment_the_generator_cannot_read_is_refused():
    with pytest.raises(SystemExit, match="read 1 of the header's 2 assignments"):
        generator.script_ranges("(*smap)[0x0041] = U_Latin;\n(*smap)[c + 1] = U_Latin;")
