"""Write bpe/text/sentencepiece_script_table.py from SentencePiece's own script table.

Why generated: SentencePiece decides a character's Unicode script with a table of its own,
``src/unicode_script_map.h`` (one C++ statement per code point or range, from Unicode 9.0's
Scripts.txt). A table typed or parsed line by line missed the statements the header wraps over two
lines, and with them five whole scripts (Egyptian, Anatolian and Meroitic Hieroglyphs, Inscriptional
Parthian and Pahlavi), so BPE Lab merged pieces SentencePiece never makes. This script reads the
statements wherever the lines break, refuses a header holding any assignment it cannot read, and
writes the module; ``tests/test_sentencepiece_scripts.py`` checks the committed module is its output.

The header comes from the sentencepiece source release the parity tests use (``bash
scripts/install.sh --test`` downloads it into ``.venv/sources/``; it is not kept in this
repository)::

    .venv/bin/python scripts/generate_sentencepiece_scripts.py            # rewrite the module
    .venv/bin/python scripts/generate_sentencepiece_scripts.py --check    # exit 1 if it is stale
    .venv/bin/python scripts/generate_sentencepiece_scripts.py --source path/to/unicode_script_map.h
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "bpe" / "text" / "sentencepiece_script_table.py"
VERSION = "0.2.3"
"""The sentencepiece release BPE Lab's SentencePiece parity is checked against (requirements-dev.txt)."""
SOURCE = Path(sys.prefix) / "sources" / f"sentencepiece-{VERSION}.tar.gz"
"""Where ``scripts/install.sh --test`` puts that release's source (``pip download --no-binary``)."""
HEADER = "src/unicode_script_map.h"

_ONE = re.compile(r"\(\*smap\)\[0x([0-9A-Fa-f]+)\]\s*=\s*U_(\w+)\s*;")
_RANGE = re.compile(
    r"for\s*\(\s*char32(?:_t)?\s+c\s*=\s*0x([0-9A-Fa-f]+)\s*;\s*c\s*<=\s*0x([0-9A-Fa-f]+)\s*;\s*\+\+c\s*\)"
    r"\s*\(\*smap\)\[c\]\s*=\s*U_(\w+)\s*;"
)
_ANY_ASSIGNMENT = re.compile(r"\(\*smap\)\[")
_PER_LINE = 12
"""Ranges per line of the generated table."""


def read_header(source: Path) -> bytes:
    """The header's bytes, from the header itself or from a sentencepiece source archive."""
    if source.suffixes[-2:] == [".tar", ".gz"]:
        with tarfile.open(source) as archive:
            member = next((m for m in archive.getmembers() if m.name.endswith("/" + HEADER)), None)
            if member is None:
                raise SystemExit(f"{source} holds no {HEADER}: is it sentencepiece's source release?")
            return archive.extractfile(member).read()  # type: ignore[union-attr]
    return source.read_bytes()


def script_ranges(header: str) -> list[tuple[int, int, str]]:
    """``(first, last, script)`` for every code point the header assigns a script other than
    ``Common``, adjacent ranges of one script joined, in code point order.

    >>> script_ranges("(*smap)[0x0041] = U_Latin;\\n  for (char32_t c = 0x0042; c <= 0x005A; ++c)\\n"
    ...               "    (*smap)[c] = U_Latin;\\n  (*smap)[0x0030] = U_Common;")
    [(65, 90, 'Latin')]
    """
    assigned: dict[int, str] = {}
    found = 0
    for match in re.finditer(f"{_RANGE.pattern}|{_ONE.pattern}", header):
        first, last, ranged_script, one, one_script = match.groups()
        start, end = (int(first, 16), int(last, 16)) if first else (int(one, 16), int(one, 16))
        for code in range(start, end + 1):  # later statements win, as in the C++ map
            assigned[code] = ranged_script or one_script
        found += 1
    statements = len(_ANY_ASSIGNMENT.findall(header))
    if found != statements:
        raise SystemExit(f"read {found} of the header's {statements} assignments: its layout changed; fix the patterns")
    ranges: list[tuple[int, int, str]] = []
    for code in sorted(assigned):
        script = assigned[code]
        if script == "Common":
            continue
        if ranges and ranges[-1][2] == script and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code, script)
        else:
            ranges.append((code, code, script))
    return ranges


def module_text(header: bytes) -> str:
    """The whole of bpe/text/sentencepiece_script_table.py for ``header``."""
    ranges = script_ranges(header.decode("utf-8"))
    names = sorted({script for _, _, script in ranges})
    index = {name: i for i, name in enumerate(names)}
    entries = [f"{first:x}{'' if last == first else f'-{last:x}'}:{index[script]}" for first, last, script in ranges]
    name_lines = _wrapped(names, width=96)
    range_lines = [" ".join(entries[at:at + _PER_LINE]) for at in range(0, len(entries), _PER_LINE)]
    digest = hashlib.sha256(header).hexdigest()
    return _TEMPLATE.format(
        version=VERSION, header=HEADER, digest=digest, names="\n".join(name_lines), ranges="\n".join(range_lines),
    )


def _wrapped(words: list[str], *, width: int) -> list[str]:
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


_TEMPLATE = '''"""SentencePiece's Unicode script table: every character whose script is not ``Common``.

Generated by scripts/generate_sentencepiece_scripts.py from sentencepiece {version}'s
``{header}``, sha256 {digest}.
Do not edit: run the script. SentencePiece is Apache-2.0; the data is Unicode's (9.0's
``Scripts.txt``), under the Unicode licence. Read by :mod:`bpe.text.sentencepiece_scripts`.

Layout of :data:`RANGES`: ``start-end:index`` in hexadecimal code points (``start:index`` for one
code point), ``index`` into :data:`SCRIPT_NAMES`; everything else is ``Common``.
"""

SCRIPT_NAMES = tuple("""
{names}
""".split())

RANGES = tuple("""
{ranges}
""".split())
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help=f"the header, or sentencepiece's source archive (default: {SOURCE})")
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed module is not this script's output")
    arguments = parser.parse_args(argv)
    if not arguments.source.exists():
        print(f"{arguments.source} is missing: run bash scripts/install.sh --test, or pass --source", file=sys.stderr)
        return 2
    text = module_text(read_header(arguments.source))
    if arguments.check:
        if MODULE.read_text(encoding="utf-8") != text:
            print(f"{MODULE.relative_to(ROOT)} is stale: run {Path(__file__).relative_to(ROOT)}", file=sys.stderr)
            return 1
        return 0
    MODULE.write_text(text, encoding="utf-8")
    print(f"wrote {MODULE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
