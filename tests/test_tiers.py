"""Two tiers: the full suite (the README's test command and CI's) and the developer tier, about two
minutes without a browser, servers or the slow files (``docs/testing.md``)."""

from __future__ import annotations

from .apptest_support import ROOT
from .conftest import DEVELOPER_TIER, SLOW_FILES


def test_every_slow_file_exists_so_none_rejoins_the_developer_tier_by_a_rename():
    assert [name for name in SLOW_FILES if not (ROOT / "tests" / name).exists()] == []


def test_the_testing_page_gives_the_developer_tiers_command():
    assert f"python -m pytest {DEVELOPER_TIER}" in (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
