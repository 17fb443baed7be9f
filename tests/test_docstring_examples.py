"""The worked examples in the engine's docstrings are run, so they can never drift from the code."""

import doctest
import importlib
import pkgutil
import re

import pytest

import bpe

ENGINE_MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(bpe.__path__, "bpe.") if not name.endswith("__main__")
)


@pytest.mark.parametrize("module_name", ENGINE_MODULES)
def test_docstring_examples_in_module_hold(module_name):
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_engine_never_imports_streamlit():
    for module_name in ENGINE_MODULES:
        source = importlib.util.find_spec(module_name).origin
        with open(source, encoding="utf-8") as file:
            assert not re.search(r"^\s*(import|from)\s+streamlit\b", file.read(), re.MULTILINE), module_name
