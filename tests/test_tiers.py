"""Two tiers: the full suite (the README's test command and CI's) and the developer tier, about two
minutes without a browser, servers or the slow files (``docs/testing.md``)."""

from __future__ import annotations

import re

from .apptest_support import ROOT
from .tiers import COLLECTED, DEVELOPER_TIER, SLOW_FILES, SLOW_TESTS


def test_every_slow_file_exists_so_none_rejoins_the_developer_tier_by_a_rename():
    assert [name for name in SLOW_FILES if not (ROOT / "tests" / name).exists()] == []


def test_every_slow_test_is_a_test_of_its_file_and_marks_one_whenever_its_file_is_collected(request):
    """A renamed test or case would rejoin the tier silently; a key that marks nothing is named here."""
    collected = request.config.stash[COLLECTED]

    def stale(key: str) -> bool:
        file, test = key.split("::")
        function = test.split("[")[0]
        source = (ROOT / "tests" / file).read_text(encoding="utf-8")
        if not re.search(rf"^def {re.escape(function)}\(", source, re.M):
            return True
        return f"{file}::{function}" in collected["tests"] and key not in collected["slow keys"]

    assert [key for key in SLOW_TESTS if stale(key)] == []


def test_the_testing_page_gives_the_developer_tiers_command():
    assert f"python -m pytest {DEVELOPER_TIER}" in (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
