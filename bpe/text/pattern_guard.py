"""The checks every user-supplied split pattern passes *before* it is compiled or run.

Why it exists: a split pattern comes from anyone with a link, and three kinds of pattern take a
server's memory while every other session waits:

* **counted repeats**: ``regex.compile`` unrolls them into its program, holding the GIL.
  ``(?:a{65535}){65535}`` asks for about 4.3 billion copies of ``a``: compiling it ran out of
  memory, for seconds, before failing.
* **recursion and group calls** (``(?R)``, ``(?1)``, ``(?&name)``): ``(?R)`` alone made the probe
  ``fullmatch("")`` allocate most of a gigabyte at once; the time limit on a split bounds time, not memory.
* **fuzzy matching** (``{e<=1}``): ``x((?:\\w+\\s?)+(?1)?){e<=2}!|\\S`` took hundreds of megabytes
  splitting a page of text.

A split pattern needs none of the last two, so they are refused; counted repeats are sized. (The
measured figures: docs/measurements.md, under issue 41.)

How: the pattern is parsed here, by ``regex``'s own grammar (its reader is mirrored: in verbose mode
whitespace and ``#`` comments are skipped before every character, even inside ``{1, 3}``; a set
ends where regex ends it, ``\\p{e<=1}`` is a literal ``p`` with a fuzzy constraint). The parser only
has to be right about what it looks for: counted repeats and what they repeat, group calls, fuzzy
constraints and anchors. Whether an escape or a class exists is left to ``regex.compile``, which
refuses a bad pattern before building anything, so where regex would stop with an error the parser
carries on. ``tests/test_pattern_guard_grammar.py`` checks it against regex's own parser.

The size estimate: a character, a property such as ``\\p{L}``, an anchor... counts 1, a class its
members, a sequence or alternation what its parts count, and a counted repeat multiplies what it
repeats by its largest finite bound (``{n}``, ``{n,m}`` -> m, ``{n,}`` -> n; ``*``, ``+``, ``?`` by 1):

    >>> program_size("a{3}b")
    4
    >>> program_size(r"(?:a{1000}){1000}")
    1000000
    >>> program_size(r"\\p{N}{1,3}+| ?\\p{L}+")
    5

The estimate errs high: ``regex`` unrolls the mandatory part of a repeat (its minimum), and we
count the maximum. The limits and the measurements behind them are in :mod:`bpe.limits`;
``benchmarks/regex_compile_cost.py`` measures them again. Deliberately left out: the time a pattern
takes to *match* (catastrophic backtracking), bounded while splitting by ``REGEX_TIMEOUT_S`` in
:mod:`bpe.text.pretokenize`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import PatternError
from ..limits import MAX_PATTERN_CHARS, MAX_PATTERN_DEPTH, MAX_PATTERN_PROGRAM
from .regex_reader import DIGITS, Reader

_FLAGS = frozenset("abefiLmprsuwx") | {"V0", "V1"}
_GLOBAL_FLAGS = frozenset({"V0", "V1", "b", "e", "p", "r"})
"""Flags that apply to the whole pattern wherever they appear: regex parses it again with them."""
_FUZZY_LETTERS = frozenset("deis")  # every fuzzy constraint names errors, insertions, deletions or substitutions


@dataclass(frozen=True)
class PatternShape:
    """What the guard read in a pattern: its estimated program size and where its ``^`` and ``$`` are."""

    size: int
    anchors: tuple[int, ...]
    """Positions of ``^`` and ``$`` outside classes: text anchors to Python's regex, line anchors elsewhere."""


@dataclass
class _Group:
    """An open group: what its finished branches count, the branch being read, and its last item."""

    verbose: bool
    """The verbose flag outside the group, back in force when it closes (if ``restores``)."""
    restores: bool = True
    """subtle: regex does not restore inline flags at the end of a branch reset ``(?|...)`` or of a
    conditional on a lookaround, so ``(?|(?x))a{1 0}`` repeats ``a`` ten times; the parser must agree."""
    done: int = 0
    branch: int = 0
    last: int | None = None
    """What the last item counts, if a quantifier may repeat it."""

    def add(self, size: int) -> None:
        self.branch += size
        self.last = size

    def total(self) -> int:
        return self.done + max(1, self.branch)


class _Restart(Exception):
    """A global flag (``(?V1)``) turned on mid-pattern: regex parses the whole pattern again with it."""

    def __init__(self, flags: frozenset[str]) -> None:
        super().__init__()
        self.flags = flags


@dataclass
class _Parser:
    pattern: str
    flags: frozenset[str]
    reader: Reader = field(init=False)
    groups: list[_Group] = field(init=False)
    anchors: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reader = Reader(self.pattern, v1="V1" in self.flags)
        self.groups = [_Group(verbose=False)]

    def shape(self) -> PatternShape:
        read = self.reader
        while char := read.get():
            group, at = self.groups[-1], read.pos - 1
            if char == ")":
                if len(self.groups) == 1:
                    break  # unbalanced: regex refuses the pattern
                self.groups.pop()
                if group.restores:
                    read.verbose = group.verbose
                self.groups[-1].add(group.total())
            elif char == "|":
                group.done, group.branch, group.last = group.done + max(1, group.branch), 0, None
            elif char == "\\":
                group.add(read.escape(in_set=False))
            elif char == "(":
                self._paren(at)
            elif char == "[":
                group.add(read.char_class())
            elif char in "?*+":
                self._repeat(group, 1)
            elif char == "{":
                self._brace(group, at)
            else:
                if char in "^$":
                    self.anchors.append(at)
                group.add(1)
        while len(self.groups) > 1:  # unclosed groups (regex refuses them): count what they hold
            self.groups[-2].add(self.groups.pop().total())
        return PatternShape(self.groups[0].total(), tuple(self.anchors))

    # -- quantifiers and braces -----------------------------------------------------------------
    def _repeat(self, group: _Group, bound: int) -> None:
        read = self.reader
        before = read.pos
        if read.get() not in ("?", "+"):  # lazy or possessive
            read.pos = before
        if group.last is not None:  # else "nothing to repeat": regex refuses the pattern
            group.branch += group.last * (bound - 1)
            group.last = None

    def _brace(self, group: _Group, at: int) -> None:
        read = self.reader
        after = read.pos
        low = read.get_while(DIGITS.__contains__)
        if read.match(","):
            high = read.get_while(DIGITS.__contains__)
            bound = int(high) if high else int(low or 0)
        else:
            bound = int(low) if low else -1
        if bound >= 0 and read.match("}"):
            self._repeat(group, max(1, bound))
            return
        read.pos = after
        letters = set()
        while (char := read.get()) and char != "}":
            letters.add(char)
        if letters & _FUZZY_LETTERS:
            raise PatternError(
                f"the custom pattern uses fuzzy matching ({self.pattern[at:read.pos][:20]} at character {at}), which "
                "can take gigabytes of memory while matching; a split pattern never needs it: remove it (a brace "
                "that is not a count like {2,3} reads as a fuzzy constraint; write a literal brace as \\{)"
            )
        read.pos = after
        group.add(1)  # a literal brace

    # -- groups -------------------------------------------------------------------------------
    def _open(self, *, restores: bool = True) -> None:
        self.groups.append(_Group(verbose=self.reader.verbose, restores=restores))
        if len(self.groups) - 1 > MAX_PATTERN_DEPTH:
            raise PatternError(too_deep())

    def _call(self, at: int) -> PatternError:
        shown = self.pattern[at:self.pattern.find(")", at) + 1 or len(self.pattern)][:20]
        return PatternError(
            f"the custom pattern calls a group or itself ({shown} at character {at}): recursion such as (?R), "
            "(?1) or (?&name) can take gigabytes of memory while matching, and a split pattern never needs it; "
            "remove it"
        )

    def _paren(self, at: int) -> None:
        read = self.reader
        after = read.pos
        char = read.get(raw=True)
        if char == "*":
            if read.name()[:1].isalpha():  # a verb such as (*SKIP)
                read.match(")")
                self.groups[-1].add(1)
                return
        elif char == "?":
            self._extension(at)
            return
        read.pos = after
        self._open()

    def _extension(self, at: int) -> None:
        """What follows ``(?``, as regex's ``parse_paren`` reads it."""
        read = self.reader
        after = read.pos
        char = read.get(raw=True)
        if char == "<":
            before = read.pos
            if read.get() not in ("=", "!"):  # not a lookbehind: a named group
                read.pos = before
                read.name()
                read.match(">")
            self._open()
        elif char in ("=", "!", ">", "|"):  # lookahead, atomic group, branch reset
            self._open(restores=char != "|")
        elif char == "P":
            kind = read.get()
            if kind in (">", "&"):
                raise self._call(at)
            read.name()
            if kind == "<":
                read.match(">")
                self._open()
            else:  # (?P=name), a backreference
                read.match(")")
                self.groups[-1].add(1)
        elif char == "R" or char in DIGITS or char == "&" or (char in ("+", "-") and read.peek() in DIGITS):
            raise self._call(at)
        elif char == "#":
            while (char := read.get(raw=True)) and char != ")":
                if char == "\\":
                    read.get(raw=True)
        elif char == "(":
            self._conditional()
        else:
            read.pos = after
            self._flags()

    def _conditional(self) -> None:
        """``(?(1)yes|no)``, ``(?(name)yes|no)`` or ``(?(?=look)yes|no)``: one group holding yes and no."""
        read = self.reader
        before = read.pos
        lookaround = False
        if read.get() == "?":
            kind = read.get()
            lookaround = (read.get() if kind == "<" else kind) in ("=", "!")
            self._open(restores=False)
        else:
            read.pos = before
            read.name()
            read.match(")")
            self._open()
        self.groups[-1].done = 2  # subtle: regex's tree counts an empty yes and an absent no as a part each
        if lookaround:
            self._open()  # the lookaround that decides

    def _flags(self) -> None:
        read = self.reader
        on = self._flag_set()
        off = self._flag_set() if read.match("-") else frozenset()
        if (on & _GLOBAL_FLAGS) - self.flags:
            raise _Restart(self.flags | (on & _GLOBAL_FLAGS))
        if read.match(":"):
            self._open()
        elif not read.match(")"):
            return  # "unknown extension": regex refuses the pattern
        read.verbose = (read.verbose or "x" in on) and "x" not in off

    def _flag_set(self) -> frozenset[str]:
        read, flags = self.reader, set()
        while True:
            before = read.pos
            flag = read.get()
            if flag == "V":
                flag += read.get()
            if flag not in _FLAGS:
                read.pos = before
                return frozenset(flags)
            flags.add(flag)


def pattern_shape(pattern: str) -> PatternShape:
    """Parse ``pattern`` (see the module docstring): its size and anchors, or a :class:`PatternError`
    for recursion, fuzzy matching or nesting deeper than :data:`MAX_PATTERN_DEPTH`."""
    flags: frozenset[str] = frozenset()
    while True:
        try:
            return _Parser(pattern, flags).shape()
        except _Restart as restart:
            flags = restart.flags


def program_size(pattern: str) -> int:
    """Estimate the size of ``pattern``'s compiled program (see the module docstring)."""
    return pattern_shape(pattern).size


def check_pattern_cost(pattern: str) -> None:
    """Raise :class:`PatternError` unless ``pattern`` is short, small enough to compile safely, and
    free of recursion and fuzzy matching.

    >>> check_pattern_cost(r"\\w+|\\s")
    >>> check_pattern_cost("(?:a{65535}){65535}")
    Traceback (most recent call last):
    ...
    bpe.errors.PatternError: the custom pattern's counted repeats would compile to about 4,294,836,225 regex steps (the limit is 10,000): compiling takes memory in proportion (1,000,000 took 262 MB; (?:a{65535}){65535}, gigabytes) while everyone else using this server waits. Use + or * instead of big counts (a+ rather than a{1000}), or smaller counts.
    >>> check_pattern_cost("a|(?R)")
    Traceback (most recent call last):
    ...
    bpe.errors.PatternError: the custom pattern calls a group or itself ((?R) at character 2): recursion such as (?R), (?1) or (?&name) can take gigabytes of memory while matching, and a split pattern never needs it; remove it
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        raise PatternError(
            f"the custom pattern has {len(pattern):,} characters, over the limit of {MAX_PATTERN_CHARS:,}: "
            "a split pattern needs a few alternatives, not a list of words; shorten it"
        )
    size = program_size(pattern)
    if size > MAX_PATTERN_PROGRAM:
        raise PatternError(
            f"the custom pattern's counted repeats would compile to about {size:,} regex steps "
            f"(the limit is {MAX_PATTERN_PROGRAM:,}): compiling takes memory in proportion (1,000,000 took "
            "262 MB; (?:a{65535}){65535}, gigabytes) while everyone else using this server waits. "
            "Use + or * instead of big counts (a+ rather than a{1000}), or smaller counts."
        )


def too_deep() -> str:
    return (
        f"the custom pattern nests groups more than {MAX_PATTERN_DEPTH} levels deep: "
        "flatten it (a split pattern rarely needs more than a few levels)"
    )
