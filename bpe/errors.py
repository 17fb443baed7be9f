"""Exceptions the engine raises on bad input, and the one for a mistake in its own registries.

Every input error is a ``ValueError`` subclass whose message says what was wrong *and how to fix
it*, so the CLI can print it as one line and the app can show it on the page unchanged.
"""

from __future__ import annotations


class BpeError(ValueError):
    """Base class of every input error the engine raises (a ``ValueError``)."""


class SettingsError(BpeError):
    """A training setting is out of range or inconsistent (e.g. vocab size below the base)."""


class PatternError(BpeError):
    """A pre-tokenization pattern does not compile, matches the empty string, or took too long."""


class SpecialTokenError(BpeError):
    """Special tokens are malformed, or text contains a special token that was not allowed."""


class UnknownTokenError(BpeError):
    """Ids (or characters) that the tokenizer's vocabulary does not contain."""


class FormatError(BpeError):
    """A trace or tokenizer file is not in a format this version can read."""


class RegistryError(Exception):
    """A registry disagrees with the code that reads it (a pretrained tokenizer's file format with no
    reader, a widget kind with no drawer, a format entry that contradicts itself): a mistake in
    BPE Lab's own source, raised when the module is imported. Not a :class:`BpeError`: no input
    caused it, and nothing should catch it as one."""
