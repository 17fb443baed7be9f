"""Write the whole Universal Declaration of Human Rights in BPE Lab's 16 languages as plain text.

Reads the UDHR in Unicode project's XML (github.com/unicode-org/udhr, ``data/udhr/udhr_<code>.xml``)
from a checkout given on the command line and writes ``bpe/analysis/udhr/<code>.txt``: the title,
then each title and paragraph (list items included) on a line of its own, in document order,
whitespace inside a line collapsed to single spaces. The languages and their keys are those of
``bpe/teaching/udhr.py``'s first article, so the two stay one set.

The Thai file marks four typos in place as ``wrong[right]``; the corrected words are used (the
four are listed here, since Thai writes no spaces that would say where a wrong word begins).

    python scripts/build_udhr_texts.py /path/to/udhr-checkout
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe.teaching.udhr import ARTICLE_1  # noqa: E402

NAMESPACE = "{http://www.unhchr.ch/udhr}"
CORRECTIONS = {
    "tha": {
        "ใต้[ได้]": "ได้", "เกียรติศักด[เกียรติศักดิ์]": "เกียรติศักดิ์", "เกา[เอา]": "เอา", "ตวม[ตาม]": "ตาม",
    },
}
OUT = ROOT / "bpe" / "analysis" / "udhr"


def lines_of(path: Path, code: str) -> list[str]:
    root = ElementTree.parse(path).getroot()
    lines = []
    for element in root.iter():
        if element.tag in (f"{NAMESPACE}title", f"{NAMESPACE}para"):
            text = re.sub(r"\s+", " ", "".join(element.itertext())).strip()
            for wrong, right in CORRECTIONS.get(code, {}).items():
                text = text.replace(wrong, right)
            if text:
                lines.append(text)
    return lines


def main(checkout: str) -> None:
    OUT.mkdir(exist_ok=True)
    for sentence in ARTICLE_1:
        text = "\n".join(lines_of(Path(checkout) / "data" / "udhr" / f"udhr_{sentence.code}.xml", sentence.code)) + "\n"
        if "[" in text:
            raise SystemExit(f"{sentence.code}: a bracket is left in the text; add its correction to CORRECTIONS")
        (OUT / f"{sentence.code}.txt").write_text(text, encoding="utf-8")
        print(f"{sentence.code}: {len(text.encode('utf-8')):,} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
