"""Token ids written by a person (the app's decode box, the CLI's ``decode`` arguments) -> ints.

One rule for every place ids are typed: an id is ASCII digits only, at most 18 of them. Python's
``int()`` is far more lenient (it reads ``'٣'`` as 3, ``'1_0'`` as 10 and ``' 7 '`` as 7) and
refuses 4,300-digit strings with a message about a limit nobody asked about. And one rule for an
id or a count given as a value (in a file, a word table, a step): :func:`is_whole_number`.

    >>> parse_ids("[258, 100,258]")
    [258, 100, 258]
    >>> read_id("٣")
    Traceback (most recent call last):
    ...
    bpe.errors.BpeError: cannot read '٣' as a token id: write whole numbers with the digits 0-9, separated by spaces or commas, e.g. 258, 100
"""

from __future__ import annotations

import re

from ..errors import BpeError, UnknownTokenError

MAX_ID_DIGITS = 18
"""No vocabulary comes near 19 digits, and int() of 18 digits is instant."""


def is_whole_number(value: object, *, minimum: int = 0) -> bool:
    """True for an ``int`` of at least ``minimum``; ``bool`` is an int to Python, but not a count or an id.

    >>> [is_whole_number(v) for v in (0, 7, -1, True, 2.0, "3")], is_whole_number(0, minimum=1)
    ([True, True, False, False, False, False], False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def is_digits(text: str) -> bool:
    """True for 1 to 18 ASCII digits: text ``int()`` reads as written, and fast.

    Subtle: ``str.isdigit()`` alone accepts ``'²'`` (which ``int()`` refuses) and ``'٣'`` (which it
    reads as 3); the length keeps ``int()`` off Python's 4,300-digit limit.

    >>> [is_digits(text) for text in ("42", "٣", "²", "1_0", " 7", "", "9" * 19)]
    [True, False, False, False, False, False, False]
    """
    return text.isascii() and text.isdigit() and len(text) <= MAX_ID_DIGITS


def read_id(item: str) -> int:
    """One id: ASCII digits only; anything else raises a teaching :class:`BpeError`."""
    if is_digits(item):
        return int(item)
    if item.startswith("-") and item[1:].isascii() and item[1:].isdigit():
        raise UnknownTokenError(f"{item[:12]} is negative: token ids start at 0")
    if item.isascii() and item.isdigit():
        raise UnknownTokenError(f"unknown token id {item[:12]}…: it has {len(item):,} digits; ids are far smaller")
    shown = item if len(item) <= 40 else item[:40] + "…"
    raise BpeError(
        f"cannot read {shown!r} as a token id: write whole numbers with the digits 0-9, "
        "separated by spaces or commas, e.g. 258, 100"
    )


def parse_ids(text: str) -> list[int]:
    """Ids separated by spaces, commas, semicolons or brackets: ``"258, 100 258" -> [258, 100, 258]``."""
    return [read_id(item) for item in re.split(r"[\s,;\[\]]+", text) if item]
