"""Segment subword-nmt's own test corpus through BPE Lab's import of its codes, line for line against ``apply_bpe``.

Usage: ``python scripts/check_subword_nmt_corpus.py DIR``, where ``DIR`` holds the files of
subword-nmt's ``subword_nmt/tests/data`` (``bpe.ref``, ``corpus.en``, ``corpus.bpe.ref.en``; they are
in its repository, not in its PyPI releases, so a copy of the repository is needed). Prints how
many lines BPE Lab segments as ``apply_bpe.BPE.process_line`` does and as the reference file holds,
and how many hold characters the codes never mention (passed through); exits 1 on any difference,
printing the first. The suite checks the same on a corpus it builds (``tests/test_subword_nmt_unseen.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from subword_nmt.apply_bpe import BPE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe.formats import import_tokenizer  # noqa: E402
from bpe.formats.subword_nmt import apply_bpe_line  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a folder holding bpe.ref, corpus.en and corpus.bpe.ref.en")
    folder = parser.parse_args(argv).data
    codes = (folder / "bpe.ref").read_text(encoding="utf-8")
    ours = import_tokenizer(format="subword-nmt", files={"bpe.ref": codes})
    with open(folder / "bpe.ref", encoding="utf-8") as file:
        theirs = BPE(file)
    lines = (folder / "corpus.en").read_text(encoding="utf-8").splitlines(keepends=True)
    references = (folder / "corpus.bpe.ref.en").read_text(encoding="utf-8").splitlines(keepends=True)
    same = as_reference = passing = 0
    for number, (line, reference) in enumerate(zip(lines, references, strict=True), 1):
        segmented, expected = apply_bpe_line(ours, line), theirs.process_line(line)
        if segmented != expected:
            print(f"line {number} differs:\n  apply_bpe: {expected!r}\n  BPE Lab:   {segmented!r}")
            return 1
        same += 1
        as_reference += segmented == reference
        passing += any(ours.is_passed_through(token_id) for token_id in ours.encode(line))
    print(f"{same:,} of {len(lines):,} lines segmented as apply_bpe segments them ({as_reference:,} as corpus.bpe.ref.en "
          f"holds them); {passing:,} hold characters bpe.ref never mentions, passed through")
    return 0


if __name__ == "__main__":
    sys.exit(main())
