"""A page's own link parameter, declared once: its name, how a link's text becomes a value (and
why a text cannot), the value a link without it means, and how the value is written back.

The lab's parameters (the example, the settings, the step) are :class:`~bpe.app.setting_specs.SettingSpec`
entries read by :class:`~bpe.app.lab_state.LabState`; everything else a link carries (a card, a
text, a merge of the walk, presenter mode, the lesson) is a :class:`LinkParam`. The declarations of
every page sit in one registry (``ui/links.py``, which can name the teaching data a choice offers),
and one reader and one writer in ``ui/url.py`` use them, so a page never spells a parameter, and
the hostile-link tests send each declared one a hostile value.

    >>> card = choice("card", ("spelling", "numbers"), about="the card shown")
    >>> card.parse("numbers"), card.show("numbers")
    ('numbers', 'numbers')
    >>> card.parse("glitch")
    Traceback (most recent call last):
    ...
    bpe.errors.SettingsError: card must be one of spelling, numbers, got 'glitch'
    >>> merge = whole_number("merge", 0, about="the merge shown")  # its last merge is the run's, given when read
    >>> merge.parse("7", high=10)
    7
    >>> merge.parse("11", high=10)
    Traceback (most recent call last):
    ...
    bpe.errors.SettingsError: merge must be a whole number from 0 to 10, got '11'
    >>> words = text("text", 5, about="the text counted")
    >>> words.show("bana"), words.show("a" * 201)    # a text past LINKED_TEXT_CHARS stays out of the link
    ('bana', None)
    >>> words.parse("banana")
    Traceback (most recent call last):
    ...
    bpe.app.links.LinkValueCut: text has 6 characters: the page keeps the first 5

Scope: the declaration and the text <-> value codecs. Out of scope: which session value a parameter
sets and the warning on the page (``ui/url.py``), and the registry (``ui/links.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..errors import SettingsError
from .setting_specs import flag as flag_codec, show_flag, whole

T = TypeVar("T")

LINKED_TEXT_CHARS = 200
"""A text longer than this stays out of the address bar (a link is for sharing, not for storing)."""


class LinkValueCut(SettingsError):
    """A link's value that is usable once cut (a text past its page's limit): the message says so,
    and :attr:`kept` is what the page keeps."""

    def __init__(self, message: str, kept: Any) -> None:
        super().__init__(message)
        self.kept = kept


@dataclass(frozen=True)
class LinkParam(Generic[T]):
    """One parameter of a page's link (see the module's docstring)."""

    name: str
    """Its name in the query string; no two parameters of a page share one (``ui/links.py`` checks)."""
    decode: Callable[..., T]
    """A link's text -> the value; a bad text raises :class:`~bpe.errors.SettingsError` naming
    the parameter (:class:`LinkValueCut`: usable, cut). Keyword bounds a page knows only when it
    reads (``high=``: the run's last merge) are passed on."""
    show: Callable[[T], str | None] = str
    """The value -> its text in the link, ``None``: left out (a long text); ``decode(show(v)) == v``."""
    default: Any = None
    """The value a link without the parameter means: written back only when the value differs
    (``None``: always written)."""
    about: str = ""
    """What it holds, for a reader of the registry and of ``docs/links.md``."""
    options: Callable[[], Collection[str]] | None = field(default=None, compare=False)
    """For a choice, what it offers (the hostile-link tests send one of them beside a bad value)."""

    def parse(self, raw: str, **bounds: Any) -> T:
        return self.decode(raw, **bounds)

    def written(self, value: T) -> str | None:
        """``value``'s text in the link, or ``None`` when the link leaves it out (its default, a long text)."""
        if self.default is not None and value == self.default:
            return None
        return self.show(value)


def choice(name: str, options: Collection[str] | Callable[[], Collection[str]], *, default: str | None = None,
           about: str = "") -> LinkParam[str]:
    """One of ``options`` (a callable: read when a link is, so a registry's later entries count)."""
    offered = options if callable(options) else (lambda: options)

    def decode(raw: str) -> str:
        if raw not in offered():
            raise SettingsError(f"{name} must be one of {', '.join(offered())}, got {raw!r}")
        return raw
    return LinkParam(name, decode, default=default, about=about, options=offered)


def whole_number(name: str, low: int, high: int | None = None, *, default: int | None = None,
                 about: str = "") -> LinkParam[int]:
    """A whole number from ``low`` to ``high`` (``None``: the page gives its ``high=`` when it reads)."""
    def decode(raw: str, *, high: int | None = high) -> int:
        return whole(name, low, high)(raw)
    return LinkParam(name, decode, default=default, about=about)


def text(name: str, max_chars: int, *, about: str = "") -> LinkParam[str]:
    """A short text: a longer one is cut to ``max_chars`` (and said); one past
    :data:`LINKED_TEXT_CHARS` stays out of the link."""
    def decode(raw: str) -> str:
        if len(raw) > max_chars:
            raise LinkValueCut(f"{name} has {len(raw):,} characters: the page keeps the first {max_chars:,}", raw[:max_chars])
        return raw
    return LinkParam(name, decode, show=lambda value: value if len(value) <= LINKED_TEXT_CHARS else None, about=about)


def flag(name: str, *, default: bool = False, about: str = "") -> LinkParam[bool]:
    """``1`` or ``0``; written only when it differs from ``default``."""
    return LinkParam(name, flag_codec(name), show=show_flag, default=default, about=about)


def pattern(name: str, check: Callable[[str], bool], expected: str, *, about: str = "") -> LinkParam[str]:
    """A text ``check`` accepts (``expected`` says what it must be: "1 to 12 letters or digits")."""
    def decode(raw: str) -> str:
        if not check(raw):
            shown = raw[:40] + ("…" if len(raw) > 40 else "")
            raise SettingsError(f"{name} must be {expected}, got {shown!r}")
        return raw
    return LinkParam(name, decode, about=about)


def codec(name: str, decode: Callable[[str], T], show: Callable[[T], str], expected: str, *,
          default: T | None = None, about: str = "") -> LinkParam[T]:
    """A value of its own kind: ``decode`` raises ``ValueError`` or ``KeyError`` on a bad text."""
    def checked(raw: str) -> T:
        try:
            return decode(raw.strip())
        except (ValueError, KeyError):
            raise SettingsError(f"{name} must be {expected}, got {raw[:40]!r}") from None
    return LinkParam(name, checked, show=show, default=default, about=about)
