"""Every extension point is one :class:`bpe.registry.Registry`: read-only, one look-up, one error.

The registries are found, not listed: every module of ``bpe`` is imported and its globals read, so a
new registry is checked with no edit here, and a table of entries written the old way (a plain
mapping of dataclasses) fails :func:`test_every_table_of_entries_is_a_registry`. :data:`REGISTRIES`
pins the ones that exist today, so one turned back into a plain mapping (or removed) fails too.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

import bpe
from bpe.errors import BpeError, FormatError, PatternError, RegistryError, SettingsError, SpecialTokenError
from bpe.registry import Registry

REGISTRIES = {
    "bpe.analysis.samples.CATEGORIES": ("category", BpeError),
    "bpe.app.lessons.LESSONS": ("lesson", BpeError),
    "bpe.app.lessons.STOPS": ("stop", BpeError),
    "bpe.app.pages._BY_FILE": ("page", BpeError),
    "bpe.app.setting_specs.SETTING_BY_NAME": ("setting", SettingsError),
    "bpe.checking.encode_rules.ENCODER_MISTAKES": ("encoder mistake", BpeError),
    "bpe.checking.mistakes.MISTAKES": ("mistake", BpeError),
    "bpe.checking.normalization.NORMALIZATIONS": ("normalization", BpeError),
    "bpe.checking.ties.TIE_EFFECTS": ("tie rule", BpeError),
    "bpe.encoding.dropout.DROPOUT_RULES": ("dropout rule", SettingsError),
    "bpe.encoding.segmentation.SEGMENTATIONS": ("segmentation", BpeError),
    "bpe.formats.files.FORMATS": ("format", FormatError),
    "bpe.pretrained.registry.PRETRAINED": ("pretrained tokenizer", BpeError),
    "bpe.teaching.operations.OPERATIONS": ("operation", BpeError),
    "bpe.teaching.why_tokenization.PHENOMENA": ("card", BpeError),
    "bpe.text.named_pretokenizers.PRETOKENIZERS": ("pre-tokenizer", PatternError),
    "bpe.text.special_text.SPECIAL_TEXT_MODES": ("special-token mode", SpecialTokenError),
    "bpe.tokens.end_of_word.END_OF_WORD_MODES": ("end-of-word mode", SettingsError),
    "bpe.training.objectives.OBJECTIVES": ("objective", SettingsError),
    "bpe.training.presets.PRESETS": ("preset", BpeError),
    "bpe.training.tiebreak.TIE_BREAK_RULES": ("tie-break rule", SettingsError),
    "bpe.views.handout.PAPERS": ("paper size", BpeError),
    "bpe.views.handout_tasks.TASKS": ("handout task", BpeError),
}
"""``module.NAME -> (kind, error class)`` of every registry defined today."""
NOT_REGISTRIES = {
    "bpe.analysis.samples.CATEGORIES": ("category", BpeError),
    "bpe.app.lab_state._OWN_DEFAULTS": "the settings each source of text starts from, not entries of an extension point",
    "bpe.teaching.extension.NEW_TEXTS": "texts a link names (a language's sentence, some code), data rather than entries",
}
"""Module-level mappings of records that are not registries, and why."""


def _engine_modules():
    for _, name, _ in pkgutil.walk_packages(bpe.__path__, "bpe."):
        if "__main__" not in name:
            yield importlib.import_module(name)


def _assigned(module) -> set[str]:
    """The names a module assigns at its top level (an imported name is not one of them)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    targets = [node.target for node in tree.body if isinstance(node, ast.AnnAssign)]
    targets += [target for node in tree.body if isinstance(node, ast.Assign) for target in node.targets]
    return {target.id for target in targets if isinstance(target, ast.Name)}


def _defined_registries() -> dict[str, Registry]:
    """``module.NAME -> registry`` where each registry is defined (not where it is imported)."""
    return {
        f"{module.__name__}.{name}": value
        for module in _engine_modules() for name in _assigned(module)
        if isinstance(value := getattr(module, name, None), Registry)
    }


def test_the_registries_are_the_ones_pinned():
    found = {where: (registry.kind, registry.error) for where, registry in _defined_registries().items()}
    assert found == REGISTRIES


def test_every_table_of_entries_is_a_registry():
    plain = []
    for module in _engine_modules():
        for name, value in vars(module).items():
            where = f"{module.__name__}.{name}"
            if isinstance(value, Registry) or not isinstance(value, Mapping) or not value or where in NOT_REGISTRIES:
                continue
            kinds = {type(entry) for entry in value.values()}
            record = next(iter(kinds))
            if len(kinds) == 1 and (dataclasses.is_dataclass(record) or hasattr(record, "_fields")):
                plain.append(where)
    assert sorted(set(plain)) == []


REGISTRY_IDS = sorted(REGISTRIES)


def _registry(where: str) -> Registry:
    module, name = where.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("where", REGISTRY_IDS)
def test_an_unknown_name_raises_the_registrys_own_error_naming_every_name(where):
    registry = _registry(where)
    kind, error = REGISTRIES[where]
    with pytest.raises(error) as raised:
        registry.lookup("no-such-entry")
    assert str(raised.value).startswith(f"unknown {kind} 'no-such-entry': use one of {', '.join(registry.names)}")
    with pytest.raises(error):
        registry.lookup(["not", "a", "name"])  # a JSON value from a file: the same error, not a TypeError


@pytest.mark.parametrize("where", REGISTRY_IDS)
def test_a_registry_is_read_only_and_every_name_looks_up_its_entry(where):
    registry = _registry(where)
    assert len(registry) > 0
    assert all(registry.lookup(name) is registry[name] for name in registry)
    with pytest.raises(TypeError):
        registry["mine"] = next(iter(registry.values()))  # type: ignore[index]
    assert not hasattr(registry, "__dict__")  # no attribute to put entries in either


LOOKUPS = {
    "bpe.training.tiebreak.tie_break_rule": "bpe.training.tiebreak.TIE_BREAK_RULES",
    "bpe.training.objectives.objective": "bpe.training.objectives.OBJECTIVES",
    "bpe.training.presets.get_preset": "bpe.training.presets.PRESETS",
    "bpe.encoding.dropout.dropout_rule": "bpe.encoding.dropout.DROPOUT_RULES",
    "bpe.formats.files.tokenizer_format": "bpe.formats.files.FORMATS",
    "bpe.pretrained.registry.pretrained_entry": "bpe.pretrained.registry.PRETRAINED",
}
"""The look-up functions that were there before the registry type, kept: each answers as its registry does."""


@pytest.mark.parametrize("function", sorted(LOOKUPS))
def test_each_earlier_look_up_function_still_answers_as_its_registry(function):
    module, name = function.rsplit(".", 1)
    look_up = getattr(importlib.import_module(module), name)
    registry = _registry(LOOKUPS[function])
    first = next(iter(registry))
    assert look_up(first) is registry[first]
    with pytest.raises(REGISTRIES[LOOKUPS[function]][1], match=f"unknown {registry.kind} 'nope': use one of {first}, "):
        look_up("nope")


@dataclass(frozen=True)
class Entry:
    name: str
    aliases: tuple[str, ...] = ()


def test_a_name_listed_twice_is_a_mistake_in_the_source_raised_at_import():
    with pytest.raises(RegistryError, match="rule 'a' is listed twice"):
        Registry("rule", (Entry("a"), Entry("b"), Entry("a")))
    with pytest.raises(RegistryError, match="rule alias 'b' \\(of 'a'\\) is already a name"):
        Registry("rule", (Entry("a", aliases=("b",)), Entry("b")), aliases=lambda entry: entry.aliases)


def test_aliases_are_looked_up_and_listed_after_the_names_but_are_no_keys():
    rules = Registry("rule", (Entry("a", aliases=("first",)), Entry("b")), aliases=lambda entry: entry.aliases,
                     error=SettingsError, others="regex:PATTERN")
    assert rules.lookup("first") is rules["a"] and "first" not in rules and list(rules) == ["a", "b"]
    assert rules.names == ("a", "b", "first") and dict(rules.aliases) == {"first": "a"}
    with pytest.raises(SettingsError, match="^unknown rule 'c': use one of a, b, first or regex:PATTERN$"):
        rules.lookup("c")
    with pytest.raises(TypeError):
        rules.aliases["second"] = "b"  # type: ignore[index]


def test_with_entries_makes_a_new_registry_and_leaves_this_one_as_it_was():
    rules = Registry("rule", (Entry("a"),), error=SettingsError)
    more = rules.with_entries(Entry("b"))
    assert list(more) == ["a", "b"] and list(rules) == ["a"]
    assert more.kind == "rule" and more.error is SettingsError
    with pytest.raises(RegistryError):
        rules.with_entries(Entry("a"))


def test_the_special_token_modes_are_declared_once_and_each_reader_takes_them_from_there():
    from bpe.checking.encode_rules import MODES
    from bpe.text.special_text import SPECIAL_DEFAULTS, SPECIAL_TEXT_MODES
    from bpe.views.encoding import ENCODE_MODES

    assert ENCODE_MODES == {name: mode.encode_args for name, mode in SPECIAL_TEXT_MODES.items()}
    assert MODES == {name: ENCODE_MODES[name] for name in ("allowed", "plain")}  # a refused text has no ids to check
    assert SPECIAL_DEFAULTS == {"special": ("all", "all"), "refuse": (frozenset(), "all"), "plain": (frozenset(), ())}
