"""One shape for every extension point: a read-only table of entries by name, with one look-up.

A tie-break rule, a file format, a pretrained tokenizer, a pre-tokenizer... is each one entry of one
:class:`Registry`. The registry is a read-only :class:`~collections.abc.Mapping` (module-level data
is shared by every user of the app, so nothing may change it), in the order its entries are
listed (menus list them so). Its one look-up, :meth:`Registry.lookup`, raises the registry's own
error class with the message every registry used to write for itself:

    >>> from dataclasses import dataclass
    >>> from bpe.errors import SettingsError
    >>> @dataclass(frozen=True)
    ... class Rule:
    ...     name: str
    >>> RULES = Registry("tie-break rule", (Rule("first-seen"), Rule("lexicographic-min")), error=SettingsError)
    >>> list(RULES), RULES["first-seen"], "coin-flip" in RULES
    (['first-seen', 'lexicographic-min'], Rule(name='first-seen'), False)
    >>> RULES.lookup("coin-flip")
    Traceback (most recent call last):
    bpe.errors.SettingsError: unknown tie-break rule 'coin-flip': use one of first-seen, lexicographic-min

``registry[name]`` stays a plain mapping's look-up (a ``KeyError``, so ``in`` and ``.get`` work as
for any mapping); :meth:`~Registry.lookup` is for names that come from a user. A name listed twice
is a :class:`~bpe.errors.RegistryError` when the module is imported, never an entry silently
replaced. Aliases (``gpt-4o`` for ``o200k_base``) are read by :meth:`~Registry.lookup` only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Generic, TypeVar

from .errors import BpeError, RegistryError

__all__ = ["Registry"]

T = TypeVar("T")

_by_name: Callable[[object], str] = attrgetter("name")


class Registry(Mapping[str, T], Generic[T]):
    """``name -> entry`` for one extension point, read-only, in the order the entries are given.

    ``kind`` names what an entry is (``"tie-break rule"``) in the look-up's message; ``key`` reads
    an entry's name (its ``name`` by default); ``aliases`` reads the other names an entry answers to;
    ``error`` is the :class:`~bpe.errors.BpeError` class an unknown name raises; ``others`` says what
    else the caller accepts besides the names (``"regex:PATTERN"``), appended to the message.
    """

    __slots__ = ("kind", "error", "others", "_entries", "_aliases", "_key", "_aliases_of")

    def __init__(
        self, kind: str, entries: Iterable[T], *, key: Callable[[T], str] = _by_name,
        aliases: Callable[[T], Iterable[str]] | None = None, error: type[BpeError] = BpeError, others: str = "",
    ) -> None:
        self.kind, self.error, self.others = kind, error, others
        self._key, self._aliases_of = key, aliases
        self._entries: dict[str, T] = {}
        self._aliases: dict[str, str] = {}
        for entry in entries:
            name = key(entry)
            self._claim(name, f"{kind} {name!r} is listed twice")
            self._entries[name] = entry
        for name, entry in self._entries.items():
            for alias in aliases(entry) if aliases else ():
                self._claim(alias, f"{kind} alias {alias!r} (of {name!r}) is already a name")
                self._aliases[alias] = name

    def _claim(self, name: str, why: str) -> None:
        if name in self._entries or name in self._aliases:
            raise RegistryError(why)

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}: {', '.join(self._entries)})"

    @property
    def aliases(self) -> Mapping[str, str]:
        """``alias -> name``: the other names :meth:`lookup` answers to (a read-only view)."""
        return MappingProxyType(self._aliases)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name :meth:`lookup` accepts: the entries' names, then the aliases."""
        return (*self._entries, *self._aliases)

    def lookup(self, name: str) -> T:
        """The entry called ``name`` (or aliased so); an unknown name raises the registry's error,
        which lists the names to use instead."""
        entry = self._entries.get(self._aliases.get(name, name)) if isinstance(name, str) else None
        if entry is None:
            others = f" or {self.others}" if self.others else ""
            raise self.error(f"unknown {self.kind} {name!r}: use one of {', '.join(self.names)}{others}")
        return entry

    def with_entries(self, *entries: T) -> Registry[T]:
        """A new registry with ``entries`` added after these (this one is unchanged): a test's toy
        entry, or a user's own rule. A name already here is a :class:`~bpe.errors.RegistryError`."""
        return Registry(self.kind, (*self._entries.values(), *entries), key=self._key, aliases=self._aliases_of,
                        error=self.error, others=self.others)
