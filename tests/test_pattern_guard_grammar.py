"""The guard's own parser reads patterns as ``regex`` does: checked against regex's parser.

``bpe/text/pattern_guard.py`` (with ``bpe/text/regex_reader.py``) parses a split pattern without ``regex``'s
private parser. It must never see less than regex will build: wherever regex's parse tree
(``tests/regex_oracle.py``) holds a group call or fuzzy matching the guard refuses the pattern, and
otherwise its size estimate is at least the tree's. Patterns are drawn from pieces of regex's
syntax where a parser can go wrong (verbose mode, classes, escapes with braces, inline flags,
conditionals, branch resets); those that regex refuses to parse cost nothing and are skipped.
"""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.errors import PatternError
from bpe.text.pattern_guard import pattern_shape, program_size
from bpe.text.pretokenize import NAMED_PATTERNS

from .examples import examples
from .regex_oracle import has_call, has_fuzzy, oracle_size

PIECES = [
    "a", "b", "x", "e", "d", "1", "3", "0", " ", "\n", "#", "-", ":", "=", "<", ">", "!", "&", "^", "$", ".", ",",
    "\\", "\\p", "\\p{L}", "\\pL", "\\P{^N}", "\\N{", "\\N{DIGIT ONE}", "\\g<1>", "\\x4", "\\u0041", "\\12", "\\0",
    "\\R", "\\X", "\\{", "\\s", "\\w",
    "(", ")", "(?:", "(?x)", "(?x:", "(?-x)", "(?V1)", "(?i)", "(?<n>", "(?P<m>", "(?=", "(?<!", "(?>", "(?|",
    "(?(1)", "(?(?=", "(?#", "(*SKIP)", "(?P=n)",
    "(?R)", "(?1)", "(?&n)", "(?P>n)", "(?+1)", "(?-1)",
    "[", "]", "[^", "[:alpha:]", "--", "&&", "||",
    "?", "*", "+", "{", "}", "{2}", "{1,3}", "{,4}", "{5,}", "{1 0}", "{e<=1}", "{i}", "{2i+1d<3}", "{e<=1:[a]}",
]


def refused(pattern: str) -> str | None:
    try:
        pattern_shape(pattern)
    except PatternError as error:
        return str(error)
    return None


def check_against_regex(pattern: str) -> None:
    try:
        expected = oracle_size(pattern)
        call, fuzzy = has_call(pattern), has_fuzzy(pattern)
    except (regex.error, ValueError, RecursionError, IndexError):
        return  # regex cannot parse it, so regex.compile refuses it before building anything
    why = refused(pattern)
    if call or fuzzy:  # refused, for either when it holds both
        assert why is not None and ("calls a group or itself" in why or "fuzzy matching" in why), pattern
        assert call or "calls a group" not in why, pattern
    elif why is None:
        assert program_size(pattern) >= expected, pattern
    else:  # refusing more than regex holds: only a brace that is no count, or nesting
        assert "fuzzy matching" in why or "levels deep" in why, (pattern, why)


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_the_guard_never_sees_less_than_regexs_own_parser(pattern):
    check_against_regex(pattern)


TRICKY = [
    # verbose mode skips whitespace and comments everywhere regex's reader does
    "(?x)a{1 0 0}", "(?x)a{#}\ne<=1}", "(?x)(?:a{1 0}){1 0 0}", "(?x)\\p { L }{1 0}", "(?x)[ ]{10}",
    # inline flags that outlive their group in regex: a branch reset, a conditional on a lookaround
    "(?|(?x))a{1 0}", "(?(?=a)(?x)b)a{2 0}", "(?:(?x))a{1 0}",
    # braces that are not counts
    "\\p{e<=1}", "\\N{e<=1}", "x{}", "x{,}", "x{a}", "a{3", "\\{3}", "[{]{3}", "[a{]e<=1}",
    # classes end where regex ends them
    "[]a]{5}", "[^]a]{5}", "[[:alpha:]]{5}", "[a-]{5}", "(?V1)[[a]--[b]]{5}", "(?V1)[a[b]c]{5}", "[\\]]{5}",
    # escapes of several characters
    "\\x41{5}", "\\u0041{5}", "\\123{5}", "\\12{5}", "\\g<1>{5}(a)", "(a\\g<1>){5}", "\\0{5}", "\\R{5}",
    # group calls in every spelling
    "(?R)", "(?0)", "(?1)(a)", "(?+1)(a)", "(?-1)", "(a)(?-1)", "(?<n>a)(?&n)", "(?P<n>a)(?P>n)", "(?P&n)",
    *[pattern for pattern in NAMED_PATTERNS.values() if pattern],
]


@pytest.mark.parametrize("pattern", TRICKY)
def test_tricky_patterns_are_read_as_regex_reads_them(pattern):
    check_against_regex(pattern)


@pytest.mark.parametrize("pattern, anchors", [
    (r"^\w+|\S+|\s+", (0,)), (r"\w+$|\s+", (3,)), (r"[$^]|\^|\$", ()), (r"(?x) ^ a # $", (5,)), (r"\A\w+", ()),
])
def test_anchors_are_found_outside_classes_and_escapes(pattern, anchors):
    assert pattern_shape(pattern).anchors == anchors
