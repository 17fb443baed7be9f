"""The public API holds across a refactor: the surface is pinned, and the paths of earlier releases import.

* :func:`test_the_public_surface_is_the_pinned_one`: every name of the documented modules
  (``tests/public_api.DOCUMENTED``), its kind and signature, and each class's methods, equal
  ``tests/public_api.txt``; a name removed, moved or re-signed fails here (refresh the file with
  ``python -m tests.public_api`` after a deliberate change, and say it in ``docs/api.md``).
* :func:`test_every_name_exported_before_the_stage_folders_still_imports`: every name each module
  of ``bpe/`` exported before the stage folders (``tests/api_before_stage_folders.txt``, read from
  commit 4627347^ with ``git show``) resolves from that module's path today.
* the adapters: scripts written against that API, as the four public test suites run on BPE Lab
  (minbpe's, tiktoken's, rustbpe's, rasbt's) call it, run in a fresh interpreter and work, each moved
  path saying where it went.
"""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import re
import subprocess
import sys
import warnings
from collections import defaultdict

import pytest

import bpe
from bpe.moved import MOVED

from .public_api import BEFORE_FILE, DOCUMENTED, ROOT, SURFACE_FILE, module_names, read_lines, surface

API_DOC = ROOT / "docs" / "api.md"


def test_the_public_surface_is_the_pinned_one():
    pinned, now = read_lines(SURFACE_FILE), surface()
    gone = sorted(set(pinned) - set(now))
    new = sorted(set(now) - set(pinned))
    assert (gone, new) == ([], []), (
        "the public surface changed: a name removed or moved breaks every script that imports it (keep it: "
        "re-export it, or alias its module in bpe/moved.py); after a deliberate change run "
        "`python -m tests.public_api` and update docs/api.md"
    )


def test_bpe_exports_what_a_user_needs_from_each_stage():
    """The names the README and docs/api.md show, each from ``bpe`` itself (issue 49)."""
    needed = {
        "load_pretrained", "encoding_for_model", "extend", "vocabulary_health", "segment", "decode_with_offsets",
        "StreamDecoder", "Dropout", "sample_segmentations", "import_tokenizer", "export_tokenizer", "check_merges",
        "check_encoder", "Registry", "train", "Tokenizer", "Trace",
    }
    assert needed <= set(bpe.__all__)
    assert len(bpe.__all__) == len(set(bpe.__all__))
    assert all(hasattr(bpe, name) for name in bpe.__all__)


@pytest.mark.parametrize("module_name", DOCUMENTED)
def test_every_documented_name_is_in_the_api_page(module_name):
    page = API_DOC.read_text(encoding="utf-8")
    assert f"`{module_name}`" in page
    missing = [name for name in module_names(module_name) if not re.search(rf"`[\w.]*\b{re.escape(name)}\b", page)]
    assert missing == [], f"docs/api.md does not name {missing} of {module_name}"


def _before() -> dict[str, list[str]]:
    names = defaultdict(list)
    for line in read_lines(BEFORE_FILE):
        module, *name = line.split()
        names[module] += name
    return dict(names)


BEFORE = _before()


def test_the_frozen_list_is_the_whole_tree_before_the_stage_folders():
    assert len(BEFORE) == 151 and sum(map(len, BEFORE.values())) == 1081  # 152 files, __main__ aside
    assert {"bpe.vocab", "bpe.pretrained", "bpe.tokenizer", "bpe.trace", "bpe.cli"} <= BEFORE.keys()
    assert {"load_pretrained", "PRETRAINED", "ALIASES"} <= set(BEFORE["bpe.pretrained"])


@pytest.mark.parametrize("module_name", sorted(BEFORE))
def test_every_name_exported_before_the_stage_folders_still_imports(module_name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # which paths warn: the next test, in a fresh process
        module = importlib.import_module(module_name)
    missing = [name for name in BEFORE[module_name] if not hasattr(module, name)]
    assert missing == []
    if module_name in MOVED:
        assert module is importlib.import_module(MOVED[module_name])  # the same module: its classes are the same


def test_each_moved_path_warns_once_naming_its_new_path():
    script = (
        "import importlib, warnings\n"
        "from bpe.moved import MOVED\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    for old in MOVED:\n"
        "        importlib.import_module(old)\n"
        "        importlib.import_module(old)\n"  # the second import finds it in sys.modules: no warning
        "for warning in caught:\n"
        "    if warning.category is not ImportWarning:\n"  # bpe refusing bpe.extend's module as its name (bpe/moved.py)
        "        print(warning.category.__name__, warning.message)\n"
    )
    lines = _python(script).stdout.splitlines()
    assert lines == [f"DeprecationWarning {old} moved to {new}: import it from there" for old, new in MOVED.items()]
    assert len(MOVED) == 57 and MOVED["bpe.vocab"] == "bpe.tokens.vocab"


def test_the_warning_points_at_the_line_that_imports():
    result = _python("import warnings\nwarnings.simplefilter('default')\nfrom bpe.trace import Trace\n",
                     name="an_old_script.py")
    assert "an_old_script.py:3: DeprecationWarning: bpe.trace moved to bpe.training.trace" in result.stderr


ADAPTERS = {
    "minbpe": """
from bpe.corpus import Corpus
from bpe.settings import TrainSettings
from bpe.tokenizer import Tokenizer
from bpe.trainer import train
from bpe.vocab import Token

text = "aaabdaaabac"
trace = train(Corpus.from_text(text, pretokenizer="none"), TrainSettings(pretokenizer="none", merges=3))
tokenizer = Tokenizer.from_trace(trace)
assert tokenizer.decode(tokenizer.encode(text)) == text
assert isinstance(tokenizer.tokens[256], Token)
print(tokenizer.encode(text), [tokenizer.token_text(step.new_id) for step in trace.steps])
""",
    "tiktoken": """
from bpe.offsets import decode_with_offsets
from bpe.pretrained import PRETRAINED, load_pretrained
from bpe.errors import SpecialTokenError

gpt2 = load_pretrained("gpt2")
ids = gpt2.encode("hello world<|endoftext|>", allowed_special="all")
try:
    gpt2.encode("<|endoftext|>")
except SpecialTokenError:
    refused = True
print(ids, decode_with_offsets(gpt2, ids[:2]), refused, "gpt2" in PRETRAINED)
""",
    "rustbpe": """
from bpe.corpus import Corpus
from bpe.presets import PRESETS
from bpe.settings import TrainSettings
from bpe.tiebreak import TIE_BREAK_RULES
from bpe.trainer import train
from bpe.tokenizer import Tokenizer

settings = TrainSettings(pretokenizer="gpt4", merges=5, tie_break="lexicographic-max")
trace = train(Corpus.from_text("hello hello world hello", pretokenizer="gpt4"), settings)
print(list(Tokenizer.from_trace(trace).encode_iterable(["hel", "lo wor", "ld"])), "first-seen" in TIE_BREAK_RULES,
      sorted(PRESETS)[0])
""",
    "rasbt": """
from bpe.pretrained import load_pretrained
from bpe.formats import to_gpt2
import io

from bpe.streaming import read_text_chunks

gpt2 = load_pretrained("gpt-2")
encoder_json, vocab_bpe = to_gpt2(gpt2)
print(len(gpt2.encode("The quick brown fox")), list(gpt2.encode_iterable(read_text_chunks(io.BytesIO(b"Hi there"), name="a file"))),
      vocab_bpe.splitlines()[0])
""",
}
"""Scripts in the shape of the four public suites' adapters, written against the API before the stage folders."""
EXPECTED = {
    "minbpe": "[258, 100, 258, 97, 99] ['aa', 'aaa', 'aaab']",
    "tiktoken": "[31373, 995, 50256] ('hello world', [0, 5]) True True",
    "rustbpe": None,  # printed below from today's API
    "rasbt": "4 [17250, 612] #version: 0.2",
}


def _python(script: str, *, name: str = "adapter.py", tmp=None) -> subprocess.CompletedProcess:
    folder = tmp or ROOT / "test-artifacts"
    folder.mkdir(exist_ok=True)
    path = folder / f"{os.getpid()}-{name}"
    path.write_text(script, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        result = subprocess.run([sys.executable, "-W", "default::DeprecationWarning", str(path)], capture_output=True,
                                text=True, env=environment, cwd=folder, timeout=600)
    finally:
        path.unlink()
    assert result.returncode == 0, result.stderr
    return result


def _rustbpe_now() -> str:
    from bpe import TIE_BREAK_RULES, PRESETS, Corpus, Tokenizer, TrainSettings, train
    settings = TrainSettings(pretokenizer="gpt4", merges=5, tie_break="lexicographic-max")
    trace = train(Corpus.from_text("hello hello world hello", pretokenizer="gpt4"), settings)
    return f"{Tokenizer.from_trace(trace).encode('hello world')} {'first-seen' in TIE_BREAK_RULES} {sorted(PRESETS)[0]}"


@pytest.mark.parametrize("suite", sorted(ADAPTERS))
def test_an_adapter_written_against_the_api_before_the_stage_folders_runs(suite, tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_LAB_CACHE_DIR", str(tmp_path / "cache"))  # no per-user state
    result = _python(ADAPTERS[suite], name=f"{suite}_adapter.py", tmp=tmp_path)
    assert result.stdout.strip() == (EXPECTED[suite] or _rustbpe_now())
    moved = [old for old in MOVED if re.search(rf"^from {re.escape(old)} import", ADAPTERS[suite], re.MULTILINE)]
    for old in moved:
        assert f"DeprecationWarning: {old} moved to {MOVED[old]}: import it from there" in result.stderr
    assert "bpe.pretrained moved" not in result.stderr  # a package now, whose names are its own: no warning


def test_the_api_pages_examples_run_as_shown():
    failures, tried = doctest.testfile(str(API_DOC), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert (failures, tried > 20) == (0, True)


def test_an_old_module_path_never_replaces_a_name_of_bpe_itself():
    result = _python("import bpe.extend\nimport bpe\nfrom bpe.extend import extension_settings\n"
                     "print(bpe.extend.__module__, extension_settings.__module__)\n")
    assert result.stdout.split() == ["bpe.training.extend", "bpe.training.extend"]  # the function, and the module's names


def test_no_two_public_classes_of_the_engine_share_a_name():
    defined = defaultdict(set)
    for module in (importlib.import_module(name) for name in sorted(_engine_module_names())):
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == module.__name__ and not name.startswith("_"):
                defined[name].add(module.__name__)
    assert {name: sorted(where) for name, where in defined.items() if len(where) > 1} == {}


def _engine_module_names() -> list[str]:
    return [name for _, name, _ in pkgutil.walk_packages(bpe.__path__, "bpe.") if "__main__" not in name]


RENAMED = {
    ("bpe.encoding.dropout", "Segmentation"): "SampledSegmentation",
    ("bpe.checking.normalization", "Normalization"): "LearnerNormalization",
}
"""Classes renamed so that no two share a name (issue 49), each old name still answering."""


@pytest.mark.parametrize(("module_name", "old"), sorted(RENAMED))
def test_a_renamed_class_still_answers_to_its_old_name_with_a_warning(module_name, old):
    module = importlib.import_module(module_name)
    with pytest.warns(DeprecationWarning, match=f"^{module_name}.{old} is now {RENAMED[module_name, old]}$"):
        assert getattr(module, old) is getattr(module, RENAMED[module_name, old])
    with pytest.raises(AttributeError):
        module.NoSuchName  # noqa: B018  (any other missing name is still an AttributeError)
