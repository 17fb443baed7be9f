"""The handout printed by Chromium, as a teacher prints the file Home gives (tests/test_app_handout.py
checks the download is this page): every sheet the paper's size, each task on one sheet, the answer
key starting a sheet of its own with every answer there and none before it, the golden numbers in
the text read back from the PDF (pypdf).

With ``--screenshots`` the PDFs and each sheet as a picture (poppler-utils' pdftoppm) are saved in
test-artifacts/ (handout-<lesson>-<paper>.pdf, handout-<lesson>-<paper>-<sheet>.png).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import unicodedata

import pytest
from pypdf import PdfReader

from bpe.app.lessons import LESSONS, STOPS, lesson_named
from bpe.views.handout import ANSWER_KEY, PAPERS, handout_html
from bpe.views.handout_tasks import lesson_tasks

from .conftest import ARTIFACTS
from .machine_speed import scaled

pytestmark = pytest.mark.browser

POINTS = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}
"""Each paper's sheet in PDF points (1/72 inch): A4 is 210 x 297 mm, US Letter 8.5 x 11 inches."""
GIVEN = ("· n e w e s t", "'·' + 'newest'")
"""Sennrich's corpus as symbols and its ninth merge, given to encode with (before the key)."""
GOLDEN = ("'e' + 's'", "12 tokens: ·low | est | · | ne | w | e | r | · | wi | d | e | r",
          "Merge 1 joins 's' + 't' (making 'st'): it occurs 9 times", "f0 9f 99 82")
"""Sennrich's pairs and merges, the Encode stop's tokens and 🙂's bytes (tests/test_handout.py has them by hand)."""


def flat(text: str) -> str:
    """Text without its spaces and line breaks (a PDF's text breaks lines where the sheet did), its
    ligatures undone (the body font draws "fi" as one glyph, which pypdf reads as "ﬁ")."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def key_sheet(sheets: list[str]) -> int:
    """The sheet the answer key starts on; it holds no task before the key's title (the footer,
    which pypdf reads first, says "sheet k of n")."""
    key = next(number for number, text in enumerate(sheets) if ANSWER_KEY in text)
    assert "Page " not in sheets[key].split(ANSWER_KEY)[0], "the key shares its first sheet with a task"
    return key


def printed(browser, lesson_link: str, paper: str, request) -> list[str]:
    """The handout printed to PDF by Chromium: each sheet's text (sizes checked on the way)."""
    tab = browser.new_page()
    try:
        tab.set_content(handout_html(lesson_named(lesson_link), paper=paper), wait_until="load")
        pdf = tab.pdf(prefer_css_page_size=True)
    finally:
        tab.close()
    reader = PdfReader(io.BytesIO(pdf))
    for sheet in reader.pages:
        assert (float(sheet.mediabox.width), float(sheet.mediabox.height)) == pytest.approx(POINTS[paper], abs=1)
    if request.config.getoption("--screenshots"):
        save_sheets(pdf, f"handout-{lesson_link}-{paper}")
    return [sheet.extract_text() for sheet in reader.pages]


def save_sheets(pdf: bytes, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(pdf)
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: apt-get install -y poppler-utils (scripts/install.sh --test does)", pytrace=False)
    subprocess.run(["pdftoppm", "-r", "80", "-png", str(ARTIFACTS / f"{name}.pdf"), str(ARTIFACTS / name)],
                   check=True, timeout=scaled(60))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lesson_link", [*LESSONS, ".".join(STOPS)])
def test_the_printed_handout_keeps_its_tasks_whole_and_its_key_on_sheets_of_its_own(browser, request, lesson_link, paper):
    sheets = printed(browser, lesson_link, paper, request)
    key = key_sheet(sheets)
    assert key > 0
    before, after = "\n".join(sheets[:key]), "\n".join(sheets[key:])
    for number, text in enumerate(sheets, start=1):
        assert flat(f"sheet {number} of {len(sheets)}") in flat(text)
    for task in lesson_tasks(lesson_named(lesson_link)):
        holding = [flat(text) for text in sheets[:key] if flat(task.heading) in flat(text)]
        assert len(holding) == 1, f"{task.heading!r} is on {len(holding)} sheets before the key"
        assert flat(task.asks[-1].prompt) in holding[0]  # its last question on the same sheet: never cut
        assert flat(task.heading) in flat(after)
        for ask in task.asks:
            first_sentence = flat(ask.answer.split(". ")[0])
            if len(first_sentence) > 3:  # a bare number could be anywhere
                assert first_sentence in flat(after) and first_sentence not in flat(before), ask.answer


@pytest.mark.parametrize("paper", PAPERS)
def test_the_first_class_handout_prints_sennrichs_golden_numbers_in_its_key(browser, request, paper):
    sheets = printed(browser, "first-class", paper, request)
    key = key_sheet(sheets)
    after = flat("\n".join(sheets[key:]))
    for golden in GOLDEN:
        assert flat(golden) in after, golden
    before = flat("\n".join(sheets[:key]))
    assert "Name" in sheets[0] and flat("Page 4 of 8: Train on Sennrich's corpus") in before
    for given in GIVEN:
        assert flat(given) in before, given
