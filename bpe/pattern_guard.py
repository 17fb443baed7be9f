"""The cost check every user-supplied split pattern passes *before* it is compiled.

Why it exists: ``regex.compile`` unrolls counted repeats into its program, holding the GIL while it
does. ``(?:a{65535}){65535}`` asks for about 4.3 billion copies of ``a``: compiling it allocated
2 GB in 22 s before failing under a 2 GB address-space cap, and every other session of the server
froze meanwhile. One link carrying that pattern must not take down a class.

How: parse the pattern with ``regex``'s own parser (the same grammar ``regex.compile`` uses, so
classes, escapes, verbose-mode comments and scoped flags cannot fool the count), then estimate the
size of the program it would compile to, without building it:

* a node without parts (a character, a property such as ``\\p{L}``, an anchor...) counts 1, a
  node with parts (a sequence, a group, an alternation, a class) counts what they count;
* a counted repeat multiplies what it repeats by its largest finite bound (``{n}``, ``{n,m}`` -> m,
  ``{n,}`` -> n); ``*``, ``+`` and ``?`` multiply by 1.

So the cost of nested counted repeats is the product of their bounds along the nesting path:

    >>> program_size("a{3}b")
    4
    >>> program_size(r"(?:a{1000}){1000}")
    1000000
    >>> program_size(r"\\p{N}{1,3}+| ?\\p{L}+")
    5

The estimate errs high: ``regex`` unrolls the mandatory part of a repeat (its minimum), and we
count the maximum. subtle: a group call such as ``(?&name)`` counts 1, while ``regex`` compiles the
called group again for each direction and fuzziness it is called in (at most 4 copies); at the
limit that measured 5 MB and 0.1 s, so it is left as is. The limits and the measurements behind them are
in :mod:`bpe.limits`; ``benchmarks/regex_compile_cost.py`` measures them again.

Deliberately left out: the time a pattern takes to *match* (catastrophic backtracking); that is
bounded while splitting, by ``REGEX_TIMEOUT_S`` in :mod:`bpe.pretokenize`.
"""

from __future__ import annotations

import regex
from regex import _regex_core  # subtle: private, pinned in requirements.txt; tests fail if it moves

from .errors import PatternError
from .limits import MAX_PATTERN_CHARS, MAX_PATTERN_DEPTH, MAX_PATTERN_PROGRAM

# Bound at import: if a regex upgrade renames these, BPE Lab fails to start instead of running unguarded.
_Source, _Info, _parse_pattern, _UnscopedFlagSet = (
    _regex_core.Source, _regex_core.Info, _regex_core._parse_pattern, _regex_core._UnscopedFlagSet
)
_Node, _Repeat, _Sequence, _Branch = _regex_core.RegexBase, _regex_core.GreedyRepeat, _regex_core.Sequence, _regex_core.Branch

_CHILD_FIELDS = ("subpattern", "items", "branches", "yes_item", "no_item")
"""The attributes through which ``regex``'s parse nodes hold other nodes."""


def _parse(pattern: str) -> _Node:
    """Parse like ``regex.compile`` does (including its retry for flags such as ``(?x)``)."""
    global_flags = 0
    while True:
        source = _Source(pattern)
        info = _Info(global_flags, source.char_type, {})
        source.ignore_space = bool(info.flags & regex.VERBOSE)
        try:
            return _parse_pattern(source, info)
        except _UnscopedFlagSet:  # a global flag found mid-pattern: parse again with it
            global_flags = info.global_flags


def _children(node: object) -> list[object]:
    children: list[object] = []
    for name in _CHILD_FIELDS:
        value = getattr(node, name, None)
        if isinstance(value, _Node):
            children.append(value)
        elif isinstance(value, (list, tuple)):
            children.extend(item for item in value if isinstance(item, _Node))
    return children


def _repeat_bound(node: object) -> int:
    if not isinstance(node, _Repeat):  # lazy and possessive repeats subclass it
        return 1
    return max(1, node.max_count if node.max_count is not None else node.min_count)


def program_size(pattern: str) -> int:
    """Estimate the size of ``pattern``'s compiled program (see the module docstring).

    Raises :class:`PatternError` if the pattern nests groups deeper than :data:`MAX_PATTERN_DEPTH`
    and ``regex.error`` (or ``ValueError``, for clashing flags) if it does not parse. Walks the
    tree with an explicit stack, so a deep pattern cannot exhaust Python's recursion limit here.
    """
    try:
        root = _parse(pattern)
    except RecursionError as error:
        raise PatternError(_too_deep()) from error
    sizes: dict[int, int] = {}
    stack: list[tuple[object, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, children_done = stack.pop()
        if depth > MAX_PATTERN_DEPTH:
            raise PatternError(_too_deep())
        children = _children(node)
        if not children_done:
            stack.append((node, depth, True))
            level = depth + (not isinstance(node, (_Sequence, _Branch)))  # groups, repeats, lookarounds
            stack.extend((child, level, False) for child in children)
            continue
        # Not pop: the parser shares one node between equal escapes (both \s of \s\s are one object),
        # so a node may be a child twice; every node stays alive, so its id stays its own.
        own = sum(sizes[id(child)] for child in children) if children else 1
        sizes[id(node)] = _repeat_bound(node) * own  # exact: a pattern under the length cap stays a small int
    return sizes[id(root)]


def check_pattern_cost(pattern: str) -> None:
    """Raise :class:`PatternError` unless ``pattern`` is short and small enough to compile safely.

    >>> check_pattern_cost(r"\\w+|\\s")
    >>> check_pattern_cost("(?:a{65535}){65535}")
    Traceback (most recent call last):
    ...
    bpe.errors.PatternError: the custom pattern's counted repeats would compile to about 4,294,836,225 regex steps (the limit is 10,000): compiling takes memory in proportion (1,000,000 took 262 MB; (?:a{65535}){65535}, gigabytes) while everyone else using this server waits. Use + or * instead of big counts (a+ rather than a{1000}), or smaller counts.
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        raise PatternError(
            f"the custom pattern has {len(pattern):,} characters, over the limit of {MAX_PATTERN_CHARS:,}: "
            "a split pattern needs a few alternatives, not a list of words; shorten it"
        )
    try:
        size = program_size(pattern)
    except PatternError:
        raise
    except (regex.error, ValueError):  # e.g. "(" or clashing flags: regex.compile says what is wrong
        return  # subtle: a pattern that does not parse never reaches the costly compile step
    if size > MAX_PATTERN_PROGRAM:
        raise PatternError(
            f"the custom pattern's counted repeats would compile to about {size:,} regex steps "
            f"(the limit is {MAX_PATTERN_PROGRAM:,}): compiling takes memory in proportion (1,000,000 took "
            "262 MB; (?:a{65535}){65535}, gigabytes) while everyone else using this server waits. "
            "Use + or * instead of big counts (a+ rather than a{1000}), or smaller counts."
        )


def _too_deep() -> str:
    return (
        f"the custom pattern nests groups more than {MAX_PATTERN_DEPTH} levels deep: "
        "flatten it (a split pattern rarely needs more than a few levels)"
    )
