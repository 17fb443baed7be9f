"""The app's pages are declared once (bpe/app/pages.py): every page file has one entry, every entry
a file, each page sets itself up from its own entry, and the home page lists them from it."""

import re
from pathlib import Path

from bpe.app import pages
from bpe.app.pages import PAGES, page_for

from .apptest_support import open_page

ROOT = Path(__file__).resolve().parent.parent


def test_every_page_file_has_one_entry_and_every_entry_a_file():
    files = ["app.py", *sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "pages").glob("*.py"))]
    assert sorted(page.file for page in PAGES) == sorted(files)


def test_each_page_sets_itself_up_from_its_own_entry():
    for page in PAGES:
        calls = re.findall(r"page_setup\(pages\.(\w+)\)", (ROOT / page.file).read_text(encoding="utf-8"))
        assert len(calls) == 1, page.file
        assert page_for(page.file) is getattr(pages, calls[0]), page.file


def test_titles_and_icons_are_distinct():
    assert len({page.title for page in PAGES}) == len(PAGES)
    assert all(page.icon.startswith(":material/") for page in PAGES)
    assert not any(page.tab_icon.startswith(":material/") for page in PAGES)  # no favicon fetched from elsewhere


def test_home_lists_every_page_of_the_registry_with_what_it_holds():
    home = "\n".join(element.value for element in open_page().markdown)
    listed = home.split("**The pages**", 1)[1]
    for page in PAGES[1:]:
        assert page.blurb and f"**{page.title}** — {page.blurb}" in listed, page.title
    assert pages.CHECK.title in listed  # the page the hand-written list once forgot
