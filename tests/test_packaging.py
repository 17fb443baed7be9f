"""BPE Lab as a learner installs it: ``pip install`` into a fresh virtual environment outside the
checkout, then ``import bpe``, ``bpe-lab --help``, HTML displays of hostile text, and ``bpe-lab app``
serving the installed copy of the app.

The fresh environment gets the engine alone (no ``[app]`` extra, so no Streamlit or pandas): the
notebook displays must work there, and the install stays quick (pip reuses its shared cache). The
checkout is copied first, because pip builds a local project in place (``build/``, ``*.egg-info``).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bpe.cli.app_command import app_script
from bpe.errors import BpeError

from .app_server import running_app
from .machine_speed import scaled

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
HOSTILE_TEXT = "<script>alert(1)</script> <img src=x onerror=alert(2)> hi hi hi"
HOSTILE_NAME = "<svg/onload=alert(3)>"  # no space: a token's spaces are drawn as · and would split it
RAW_ATTACKS = ("<script", "<img", "<svg")
# Runs inside the fresh environment: train on hostile text and print every HTML display as JSON.
DISPLAY_SCRIPT = f"""
import importlib.util, json, bpe
from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.notebook import show, tokenizer_html, trace_html
settings = TrainSettings(merges=8, special_tokens=({HOSTILE_NAME!r},))
trace = train(Corpus.from_text({HOSTILE_TEXT!r}, special_tokens=settings.special_tokens), settings)
tokenizer = Tokenizer.from_trace(trace, name={HOSTILE_NAME!r})
print(json.dumps({{
    "bpe": bpe.__file__,
    "pandas": importlib.util.find_spec("pandas") is not None,
    "trace": trace_html(trace),
    "tokenizer": tokenizer_html(tokenizer),
    "show": show(tokenizer, {HOSTILE_TEXT!r} + {HOSTILE_NAME!r})._repr_html_(),
}}))
"""


def _pins(name: str) -> dict[str, str]:
    """``{package: pinned version}`` of one requirements file (``-r`` lines and comments skipped)."""
    pins = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            package, version = line.split("==")
            pins[package.strip().lower()] = version.strip()
    return pins


def _floors(requirements: list[str]) -> dict[str, str]:
    """``{package: lowest version}`` of ``name>=X`` or ``name>=X,<Y`` requirements."""
    return {package.lower(): version for package, version in (re.fullmatch(r"([\w.-]+)>=([\w.]+)(?:,<[\w.]+)?", r).groups() for r in requirements)}


def test_regex_is_bounded_above_because_the_guard_reads_its_grammar():
    (requirement,) = [r for r in PYPROJECT["project"]["dependencies"] if r.startswith("regex")]
    upper = re.fullmatch(r"regex>=[\w.]+,<([\w.]+)", requirement)
    assert upper, requirement
    assert _version(_pins("requirements-runtime.txt")["regex"]) < _version(upper.group(1))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


# -- the distribution's declarations (no install) -----------------------------------------------
def test_every_locked_runtime_and_data_package_is_declared_at_or_below_its_pin():
    project = PYPROJECT["project"]
    declared = {
        "requirements-runtime.txt": _floors(project["dependencies"]) | _floors(project["optional-dependencies"]["app"]),
        "requirements-data.txt": _floors(project["optional-dependencies"]["data"]),
        "requirements-data-nodeps.txt": _floors(project["optional-dependencies"]["data"]),
    }
    for lock, floors in declared.items():
        for package, pin in _pins(lock).items():
            assert package in floors, f"{package} is pinned in {lock} but not declared in pyproject.toml"
            assert _version(floors[package]) <= _version(pin), f"{package}: pyproject asks for {floors[package]}, {lock} pins {pin}"
    assert list(_floors(project["dependencies"])) == ["regex", "platformdirs"], "the engine needs regex and platformdirs only"


def test_the_console_command_is_the_cli_of_python_m_bpe():
    assert PYPROJECT["project"]["scripts"] == {"bpe-lab": "bpe.cli.commands:main"}


def test_bpe_lab_app_runs_the_checkouts_app_and_prefers_an_installed_copy_beside_bpe(tmp_path):
    assert app_script() == ROOT / "app.py"
    for folder in (tmp_path, tmp_path / "bpe_lab_app"):
        (folder / "pages").mkdir(parents=True)
        (folder / "app.py").write_text("")
    assert app_script(tmp_path) == tmp_path / "bpe_lab_app" / "app.py"


def test_bpe_lab_app_without_the_apps_files_says_how_to_get_them(tmp_path):
    with pytest.raises(BpeError, match=r"cannot find BPE Lab's app.py .*pip install 'bpe-lab\[app\]'"):
        app_script(tmp_path)


# -- a real install ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fresh_install(tmp_path_factory) -> Path:
    """A new venv outside the checkout with ``pip install <copy of the checkout>``; its bin folder."""
    where = tmp_path_factory.mktemp("fresh-install")
    source = where / "bpe-lab-source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "test-artifacts", "build", "*.egg-info",
    ))
    # No pip inside: this environment's pip installs into it (pip --python), which saves the ~20 s
    # of bootstrapping pip into every new venv on a loaded machine.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where / "venv")], check=True, timeout=scaled(120))
    bin_dir = where / "venv" / "bin"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "--disable-pip-version-check",
         "-q", str(source)],
        capture_output=True, text=True, timeout=scaled(480), env=_clean_env(),
    )
    assert install.returncode == 0, install.stdout + install.stderr
    return bin_dir


def _clean_env() -> dict[str, str]:
    """The environment without PYTHONPATH, so nothing from the checkout can be imported by accident."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def _run(bin_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]], capture_output=True, text=True, timeout=scaled(120),
        cwd=bin_dir.parent.parent, env=_clean_env(),
    )


def _site_packages(bin_dir: Path) -> Path:
    return Path(_run(bin_dir, "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip())


@pytest.fixture(scope="module")
def displays(fresh_install) -> dict:
    """What :data:`DISPLAY_SCRIPT` printed in the fresh environment."""
    result = _run(fresh_install, "python", "-c", DISPLAY_SCRIPT)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_installed_engine_is_imported_from_the_fresh_environment_without_pandas(fresh_install, displays):
    assert Path(displays["bpe"]).is_relative_to(_site_packages(fresh_install))
    assert not displays["pandas"], "the engine's install must not pull in pandas"


def test_bpe_lab_help_lists_the_commands(fresh_install):
    result = _run(fresh_install, "bpe-lab", "--help")
    assert result.returncode == 0, result.stderr
    for command in ("train", "encode", "decode", "export", "import", "app"):
        assert re.search(rf"\b{command}\b", result.stdout.split("positional arguments:")[1]), command


@pytest.mark.parametrize("display, escaped", [
    ("trace", "<td>&lt;</td>"),                # a training word, in the corpus table
    ("tokenizer", html.escape(HOSTILE_NAME)),  # its name in the heading, and its special token
    ("show", html.escape(HOSTILE_NAME)),       # the special token's chip
])
def test_html_displays_escape_hostile_corpus_text_and_names(displays, display, escaped):
    shown = displays[display]
    for attack in RAW_ATTACKS:
        assert attack not in shown
    assert escaped in shown
    # Offline: no tag that loads anything and no address, only inline <style>.
    assert not re.search(r"<(script|link|iframe|img|object|embed)\b|@import|url\(|https?://", shown)


def test_every_engine_package_of_the_checkout_is_installed(fresh_install):
    site = _site_packages(fresh_install)
    engine = {path.relative_to(ROOT) for path in (ROOT / "bpe").rglob("__init__.py")}
    assert {path.relative_to(site) for path in (site / "bpe").rglob("__init__.py")} == engine


def test_the_distribution_carries_the_app_where_bpe_lab_app_finds_it(fresh_install):
    app = _site_packages(fresh_install) / "bpe_lab_app"
    for part in ("app.py", "pages/1_Train.py", "pages/10_Import_and_export.py", "ui/render.py", ".streamlit/config.toml"):
        assert (app / part).is_file(), part
    found = _run(fresh_install, "python", "-c", "from bpe.cli.app_command import app_script; print(app_script())")
    assert Path(found.stdout.strip()) == app / "app.py"


def test_bpe_lab_app_without_streamlit_says_how_to_install_it(fresh_install):
    result = _run(fresh_install, "bpe-lab", "app")
    assert result.returncode == 2
    assert result.stderr.strip() == "error: the app needs Streamlit, which is not installed: pip install 'bpe-lab[app]'"


@pytest.mark.browser
def test_bpe_lab_app_serves_the_installed_copy_of_the_app(fresh_install, page, tmp_path):
    """The fresh install's files, run by this environment's Streamlit (which the install lacks)."""
    from playwright.sync_api import expect

    site = _site_packages(fresh_install)
    with open(tmp_path / "server.log", "w") as log, running_app(
        log, run=(sys.executable, "-m", "bpe", "app", "--"), cwd=tmp_path, env={"PYTHONPATH": str(site)},
    ) as (url, server):
        # `bpe-lab app` became `streamlit run` (same process) on the installed app.py.
        command = Path(f"/proc/{server.pid}/cmdline").read_bytes().decode().split("\0")
        assert command[1:5] == ["-m", "streamlit", "run", str(site / "bpe_lab_app" / "app.py")]
        page.goto(f"{url}/Train?preset=sennrich&step=3")
        expect(page.get_by_text("Merge 3 of 10").first).to_be_visible()
        page.goto(url)
        expect(page.get_by_role("heading", name="BPE Lab: byte-pair encoding, step by step")).to_be_visible()
        # The installed .streamlit/config.toml was read: it hides Streamlit's own page list.
        expect(page.locator('[data-testid="stSidebarNav"]')).to_have_count(0)
