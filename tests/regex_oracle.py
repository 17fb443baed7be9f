"""``regex``'s own parser, for the tests only: the oracle the guard's parser (``bpe/text/pattern_guard.py``)
is checked against. It reads private names of ``regex``; requirements.txt pins the version, and a
release that moves them fails the tests that use this module, never the app.

    >>> oracle_size(r"(?:a{10}){20}"), has_call(r"(?R)"), has_fuzzy(r"\\p{e<=1}")
    (200, True, True)
"""

from __future__ import annotations

from collections.abc import Iterator

import regex
from regex import _regex_core as core

_CHILD_FIELDS = ("subpattern", "items", "branches", "yes_item", "no_item")


def parse(pattern: str) -> object:
    """The parse tree ``regex.compile`` builds before compiling (``regex.error`` if it does not parse)."""
    global_flags = 0
    while True:
        source = core.Source(pattern)
        info = core.Info(global_flags, source.char_type, {})
        info.guess_encoding = core.UNICODE  # as regex's own _compile sets it
        source.ignore_space = bool(info.flags & regex.VERBOSE)
        try:
            tree = core._parse_pattern(source, info)
        except core._UnscopedFlagSet:
            global_flags = info.global_flags
            continue
        if not source.at_end():
            raise regex.error("unbalanced parenthesis", pattern, source.pos)
        return tree


def _children(node: object) -> list[object]:
    children: list[object] = []
    for name in _CHILD_FIELDS:
        value = getattr(node, name, None)
        if isinstance(value, core.RegexBase):
            children.append(value)
        elif isinstance(value, (list, tuple)):
            children.extend(item for item in value if isinstance(item, core.RegexBase))
    return children


def nodes(pattern: str) -> Iterator[object]:
    stack = [parse(pattern)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(_children(node))


def oracle_size(pattern: str) -> int:
    """A leaf counts 1, a node what its parts count, a counted repeat times its largest bound."""
    sizes: dict[int, int] = {}

    def size(node: object) -> int:
        if id(node) not in sizes:
            children = _children(node)
            own = sum(map(size, children)) if children else 1
            bound = 1
            if isinstance(node, core.GreedyRepeat):
                bound = max(1, node.max_count if node.max_count is not None else node.min_count)
            sizes[id(node)] = bound * own
        return sizes[id(node)]

    return size(parse(pattern))


def has_call(pattern: str) -> bool:
    return any(isinstance(node, core.CallGroup) for node in nodes(pattern))


def has_fuzzy(pattern: str) -> bool:
    return any(isinstance(node, core.Fuzzy) for node in nodes(pattern))

