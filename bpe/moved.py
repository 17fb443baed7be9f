"""Module paths that moved, still importing: ``import bpe.vocab`` gives ``bpe.tokens.vocab``, with a warning.

The stage folders (issue 41, commit 4627347) moved 57 modules of ``bpe/`` into ``tokens/``,
``text/``, ``encoding/``, ``training/``, ``pretrained/``, ``notation/`` and ``cli/``. A script written
before them (four public test suites ran through adapters doing ``from bpe.vocab import Token``)
keeps working: each old path in :data:`MOVED` is an alias of the module at its new path, the very
same module object (its classes are the same classes, so ``isinstance`` holds and a pickle written
by either path loads), and importing it warns once, a :class:`DeprecationWarning` naming the new
path. The two old modules whose path is now a package's, ``bpe.pretrained`` and ``bpe.cli``, are
kept by their packages re-exporting the old names.

    >>> import warnings, bpe.tokens.vocab
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)  # the first import says "bpe.vocab moved to ..."
    ...     from bpe.vocab import Token
    >>> Token is bpe.tokens.vocab.Token
    True

How: a finder on :data:`sys.meta_path` answers for the old names only; its loader puts the new
module in :data:`sys.modules` under the old name (the import system returns what it finds there).
Out of scope: names that moved between modules (none did; ``tests/test_public_api.py`` checks every
name each old module had).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Mapping
from types import MappingProxyType, ModuleType

MOVED: Mapping[str, str] = MappingProxyType({
    "bpe.byte_level": "bpe.tokens.byte_level",
    "bpe.checking.command": "bpe.cli.check_command",
    "bpe.checking.encode_command": "bpe.cli.check_encoder_command",
    "bpe.chunk_cache": "bpe.encoding.chunk_cache",
    "bpe.cli_app": "bpe.cli.app_command",
    "bpe.cli_args": "bpe.cli.arguments",
    "bpe.cli_dropout": "bpe.cli.dropout_command",
    "bpe.corpus": "bpe.text.corpus",
    "bpe.dropout": "bpe.encoding.dropout",
    "bpe.end_of_word": "bpe.tokens.end_of_word",
    "bpe.extend": "bpe.training.extend",
    "bpe.fast_split": "bpe.text.fast_split",
    "bpe.first_seen": "bpe.training.first_seen",
    "bpe.ids": "bpe.tokens.ids",
    "bpe.language_counts": "bpe.training.language_counts",
    "bpe.local_files": "bpe.text.local_files",
    "bpe.markdown": "bpe.notation.markdown",
    "bpe.merge_cache": "bpe.pretrained.merge_cache",
    "bpe.merge_loop": "bpe.encoding.merge_loop",
    "bpe.model_names": "bpe.pretrained.model_names",
    "bpe.named_pretokenizers": "bpe.text.named_pretokenizers",
    "bpe.objectives": "bpe.training.objectives",
    "bpe.offsets": "bpe.encoding.offsets",
    "bpe.pair_counts": "bpe.training.pair_queue",
    "bpe.pair_merge": "bpe.training.pair_merge",
    "bpe.pair_replace": "bpe.encoding.pair_positions",
    "bpe.pattern_guard": "bpe.text.pattern_guard",
    "bpe.presets": "bpe.training.presets",
    "bpe.pretokenize": "bpe.text.pretokenize",
    "bpe.pretrained_specials": "bpe.pretrained.specials",
    "bpe.pretrained_tokenizer": "bpe.pretrained.pretrained_tokenizer",
    "bpe.regex_reader": "bpe.text.regex_reader",
    "bpe.segmentation": "bpe.encoding.segmentation",
    "bpe.sentencepiece_choice": "bpe.training.sentencepiece_choice",
    "bpe.sentencepiece_mistral": "bpe.text.sentencepiece_mistral",
    "bpe.sentencepiece_script_table": "bpe.text.sentencepiece_script_table",
    "bpe.sentencepiece_scripts": "bpe.text.sentencepiece_scripts",
    "bpe.sentencepiece_split": "bpe.text.sentencepiece_split",
    "bpe.sentencepiece_tokenizer": "bpe.formats.sentencepiece_tokenizer",
    "bpe.settings": "bpe.training.settings",
    "bpe.special_text": "bpe.text.special_text",
    "bpe.spelled_table": "bpe.pretrained.spelled_table",
    "bpe.spelling": "bpe.notation.spelling",
    "bpe.split_rules": "bpe.text.split_rules",
    "bpe.start_state": "bpe.training.start_state",
    "bpe.streaming": "bpe.encoding.streaming",
    "bpe.surrogates": "bpe.text.surrogates",
    "bpe.tiebreak": "bpe.training.tiebreak",
    "bpe.token_table": "bpe.encoding.token_table",
    "bpe.tokenizer": "bpe.encoding.tokenizer",
    "bpe.tokenizer_json": "bpe.encoding.tokenizer_json",
    "bpe.trace": "bpe.training.trace",
    "bpe.trainer": "bpe.training.trainer",
    "bpe.versioned_json": "bpe.encoding.versioned_json",
    "bpe.vocab": "bpe.tokens.vocab",
    "bpe.vocab_compare": "bpe.encoding.vocab_compare",
    "bpe.vocab_health": "bpe.encoding.vocab_health",
})
"""``old module path -> new module path``, from ``git diff -M 4627347^ 4627347 -- bpe``."""


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths of :data:`MOVED` and loads each as its new module."""

    def find_spec(self, fullname: str, path=None, target=None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a blank module, replaced in exec_module

    def exec_module(self, module: ModuleType) -> None:
        new = MOVED[module.__name__]
        # stacklevel 2: the line that imports; warnings skips the import system's frames between
        # (so the warning names the user's line, and shows by default when it is in __main__)
        warnings.warn(f"{module.__name__} moved to {new}: import it from there", DeprecationWarning, stacklevel=2)
        sys.modules[module.__name__] = importlib.import_module(new)


class _Package(ModuleType):
    """``bpe`` itself, whose names an old module path never replaces.

    subtle: importing ``bpe.extend`` sets the attribute ``extend`` of ``bpe`` to the module imported,
    which would replace the function ``bpe.extend`` for everyone after one old script ran. The import
    system tolerates a parent that refuses the attribute (an ``AttributeError``), so ``bpe`` refuses
    it when the old path's name is already one of its own: ``from bpe.extend import extend`` still
    works (it reads the module itself), and ``bpe.extend`` stays the function (so does ``import bpe.extend as
    module``: a script that wants the module imports ``bpe.training.extend``).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if f"{self.__name__}.{name}" in MOVED and isinstance(value, ModuleType) and name in vars(self):
            raise AttributeError(f"{self.__name__}.{name} is a name of its own, not the module at the old path")
        super().__setattr__(name, value)


def install(package: ModuleType) -> None:
    """Put the finder on :data:`sys.meta_path` (once), and keep ``package``'s names (``bpe/__init__.py`` calls it)."""
    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())
    package.__class__ = _Package
