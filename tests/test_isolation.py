"""Module-level state is shared by every user of one app server, so the engine keeps none that
can change: a session can never see or alter another session's data through a module global."""

import importlib
import pkgutil

import pytest

import bpe

MUTABLE_CONTAINERS = (dict, list, set, bytearray)
ENGINE_MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(bpe.__path__, "bpe.") if "__main__" not in name)


@pytest.mark.parametrize("module_name", ENGINE_MODULES)
def test_engine_module_globals_are_immutable(module_name):
    module = importlib.import_module(module_name)
    mutable = [
        name for name, value in vars(module).items()
        if not name.startswith("__") and isinstance(value, MUTABLE_CONTAINERS)
    ]
    assert mutable == [], f"{module_name} has mutable module-level state: {mutable}"


def test_preset_word_tables_cannot_be_changed_by_one_session():
    with pytest.raises(TypeError):
        bpe.PRESETS["cs336"].word_counts["low"] = 99
    with pytest.raises(TypeError):
        bpe.PRESETS["mine"] = bpe.PRESETS["cs336"]  # a registry is read-only
