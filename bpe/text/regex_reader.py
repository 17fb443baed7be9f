r"""regex's grammar at the level of characters: how its parser reads an escape and a class.

Scope: :class:`Reader`, which walks a pattern as ``regex``'s own reader does (in verbose mode,
whitespace and ``#`` comments before each character are skipped, even inside ``{1, 3}``), reads an
escape or a class to its end exactly where regex ends it, and says what it counts toward the
compiled program (a class counts its members). Out of scope: groups, alternatives, quantifiers and
flags (:mod:`bpe.text.pattern_guard`), and whether an escape or a class is valid: ``regex.compile``
refuses a bad one before building anything, so where regex would stop with an error the reader
carries on. subtle: that is why a failed property such as ``\p{e<=1}`` is read as regex reads it,
a literal ``p`` followed by what comes next (here a fuzzy constraint, which the guard refuses).

    >>> reader = Reader(r"\p{L}{2}")
    >>> reader.get() == "\\", reader.escape(in_set=False), reader.text[reader.pos:]
    (True, 1, '{2}')
    >>> reader = Reader(r"[a-z\d]+")
    >>> reader.get(), reader.char_class(), reader.text[reader.pos:]
    ('[', 4, '+')
"""

from __future__ import annotations

import string
from collections.abc import Callable
from types import MappingProxyType

from ..errors import PatternError
from ..limits import MAX_PATTERN_DEPTH

DIGITS = frozenset(string.digits)
_OCTAL = frozenset(string.octdigits)
_HEX = frozenset(string.hexdigits)
_ALNUM = frozenset(string.ascii_letters + string.digits)
_PROPERTY_NAME = _ALNUM | frozenset(" &_-.")
_PROPERTY_VALUE = _ALNUM | frozenset(" &_-./")
_CHARACTER_NAME = _ALNUM | frozenset(" -")
_HEX_ESCAPES = MappingProxyType({"x": 2, "u": 4, "U": 8})
_SET_OPERATORS = ("||", "~~", "&&", "--")  # only with the V1 flag


class Reader:
    """regex's reader of a pattern: in verbose mode, whitespace and ``#`` comments before each character are skipped."""

    def __init__(self, text: str, *, v1: bool = False) -> None:
        self.text, self.pos, self.verbose = text, 0, False
        self.v1 = v1
        """The V1 flag: classes may nest and hold set operations (``[\\w--\\d]``)."""

    def _skip(self, pos: int) -> int:
        text = self.text
        while self.verbose and pos < len(text):
            if text[pos].isspace():
                pos += 1
            elif text[pos] == "#":
                end = text.find("\n", pos)
                pos = len(text) if end < 0 else end
            else:
                break
        return pos

    def get(self, *, raw: bool = False) -> str:
        """The next character ("" at the end); ``raw`` reads it even in verbose mode."""
        pos = self.pos if raw else self._skip(self.pos)
        if pos >= len(self.text):
            self.pos = len(self.text)
            return ""
        self.pos = pos + 1
        return self.text[pos]

    def peek(self) -> str:
        pos = self._skip(self.pos)
        return self.text[pos] if pos < len(self.text) else ""

    def match(self, word: str) -> bool:
        pos = self.pos
        for char in word:
            pos = self._skip(pos)
            if pos >= len(self.text) or self.text[pos] != char:
                return False
            pos += 1
        self.pos = pos
        return True

    def get_while(self, accept: Callable[[str], bool], *, keep_spaces: bool = False) -> str:
        verbose, self.verbose = self.verbose, self.verbose and not keep_spaces
        taken = []
        try:
            while (char := self.peek()) and accept(char):
                taken.append(self.get())
        finally:
            self.verbose = verbose
        return "".join(taken)

    def name(self) -> str:
        """A group name as regex reads one: everything up to ``)`` or ``>``."""
        return self.get_while(lambda char: char not in ")>")

    # -- escapes (after the backslash) ---------------------------------------------------------
    def escape(self, *, in_set: bool) -> int:
        """What an escape counts, its characters read as regex's ``parse_escape`` reads them."""
        read = self
        start = read.pos
        char = read.get(raw=True)
        if char in _HEX_ESCAPES:
            for _ in range(_HEX_ESCAPES[char]):
                before = read.pos
                if read.get() not in _HEX:
                    read.pos = before
                    break
        elif char in ("g", "L") and not in_set:
            before = read.pos
            if read.match("<") and self._valid_name(read.name()) and read.match(">"):
                return read.pos - start  # \g<name>; counted as its characters, as regex reads a bad one
            read.pos = before
        elif char == "N":
            before = read.pos
            if read.match("{"):
                read.get_while(_CHARACTER_NAME.__contains__, keep_spaces=True)
                if read.match("}"):
                    return 1
            read.pos = before
        elif char in ("p", "P"):
            self._property()
        elif char == "R" and not in_set:
            return 8  # a line break: \r\n or one of seven characters
        elif char in DIGITS:
            self._number(char, in_set)
        return 1

    @staticmethod
    def _valid_name(name: str) -> bool:
        return name.isidentifier() or (name.isdigit() and int(name) >= 1)

    def _property(self) -> None:
        r"""``\p{Name}``, ``\p{Name=Value}``, ``\pL``; else the ``p`` is a literal and the reader goes back to it."""
        read = self
        before = read.pos
        char = read.get()
        if char == "{":
            read.match("^")
            self._property_name()
            if read.match("}"):
                return
        elif char and char in "CLMNPSZ":
            return
        read.pos = before

    def _property_name(self) -> None:
        """``Name`` or ``Name=Value`` (also ``Name:Value``), as regex's ``parse_property_name`` reads it."""
        read = self
        read.get_while(_PROPERTY_NAME.__contains__)
        after = read.pos
        if read.get() in (":", "=") and read.get_while(_PROPERTY_VALUE.__contains__).strip():
            after = read.pos
        read.pos = after

    def _number(self, first: str, in_set: bool) -> None:
        read = self
        if in_set or first == "0":  # octal, up to three digits
            for _ in range(2):
                before = read.pos
                if read.get() not in _OCTAL:
                    read.pos = before
                    return
            return
        before = read.pos
        second = read.get()
        if second in DIGITS:
            before = read.pos
            if {first, second} <= _OCTAL and read.get() in _OCTAL:
                return  # three octal digits: a character
        read.pos = before  # a group reference of one or two digits

    # -- classes (after the opening bracket) ----------------------------------------------------
    def char_class(self, *, depth: int = 1) -> int:
        """The members of a class, read with verbose mode off, as regex's ``parse_set`` reads it."""
        if depth > MAX_PATTERN_DEPTH:
            raise PatternError(
                f"the custom pattern nests classes more than {MAX_PATTERN_DEPTH} levels deep: flatten it"
            )
        read = self
        verbose, read.verbose = read.verbose, False
        try:
            read.match("^")
            count = self._set_operand(depth)
            while self.v1 and any(read.match(operator) for operator in _SET_OPERATORS):
                count += self._set_operand(depth)
            read.match("]")
        finally:
            read.verbose = verbose
        return max(1, count)

    def _set_operand(self, depth: int) -> int:
        read = self
        count = self._set_member(depth)
        while read.pos < len(read.text) and not read.text.startswith("]", read.pos):
            if self.v1 and read.text.startswith(_SET_OPERATORS, read.pos):
                break
            count += self._set_member(depth)
        return count

    def _set_member(self, depth: int) -> int:
        read = self
        count = self._set_item(depth)
        after = read.pos
        if not read.match("-"):
            return count
        if self.v1 and read.text.startswith("-", read.pos):
            read.pos = after  # the difference operator --
            return count
        if read.text.startswith("]", read.pos):
            return count + 1  # a literal hyphen at the end
        return count + 1 + self._set_item(depth)  # a range, or a class, a hyphen and a class: counted as three

    def _set_item(self, depth: int) -> int:
        read = self
        if read.match("\\"):
            return self.escape(in_set=True)
        before = read.pos
        if read.match("[:"):  # a POSIX class such as [:alpha:], or else a "[" and a ":"
            read.match("^")
            self._property_name()
            if read.match(":]"):
                return 1
            read.pos = before
        if self.v1 and read.match("["):
            return self.char_class(depth=depth + 1)
        return 1 if read.get() else 0
