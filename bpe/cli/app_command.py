"""``bpe-lab app`` (``python -m bpe app``): start the Streamlit app, from a checkout or an install.

Scope: finding the app's files and handing them to ``streamlit run``; options after ``--`` go to
Streamlit unchanged. Out of scope: the app itself (``app.py``, ``pages/``, ``ui/``).

    bpe-lab app
    bpe-lab app -- --server.port=8600 --server.headless=true

Where the app is: at the root of a checkout, beside ``bpe/``; installed, in ``bpe_lab_app/``
beside the ``bpe`` package in site-packages (``pyproject.toml`` puts it there). Streamlit reads
``.streamlit/config.toml`` beside the main script and puts the script's folder first on
``sys.path``, so ``import ui`` and the pages are found in the installed copy too.

The engine never imports Streamlit: this module only hands the process over to ``streamlit run``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

from ..errors import BpeError

INSTALLED_APP = "bpe_lab_app"
"""The folder that holds the app in an install (pyproject.toml's package of that name)."""


def app_script(package_root: Path = Path(__file__).resolve().parents[2]) -> Path:
    """``app.py``: in ``bpe_lab_app/`` of an install, else at the checkout's root."""
    for folder in (package_root / INSTALLED_APP, package_root):
        if (folder / "app.py").is_file() and (folder / "pages").is_dir():
            return folder / "app.py"
    raise BpeError(
        f"cannot find BPE Lab's app.py beside the bpe package in {package_root}: "
        "reinstall it with pip install 'bpe-lab[app]', or run it from a checkout"
    )


def _run_app(args: argparse.Namespace) -> None:
    if importlib.util.find_spec("streamlit") is None:
        raise BpeError("the app needs Streamlit, which is not installed: pip install 'bpe-lab[app]'")
    command = [sys.executable, "-m", "streamlit", "run", str(app_script()), *args.streamlit_options]
    # Become Streamlit rather than wait for it: Ctrl+C, a terminate signal and the exit code then
    # reach the server directly, and no wrapper process is left behind when either side stops.
    sys.stdout.flush()
    os.execv(sys.executable, command)


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``app`` subcommand to the CLI's subcommands."""
    app_cmd = commands.add_parser(
        "app", help="start the Streamlit app (needs pip install 'bpe-lab[app]')",
        description="Start BPE Lab's Streamlit app. Options after -- go to streamlit run, "
        "e.g. bpe-lab app -- --server.port=8600",
    )
    app_cmd.add_argument("streamlit_options", nargs="*", metavar="-- STREAMLIT_OPTION",
                         help="passed to streamlit run, e.g. --server.port=8600")
    app_cmd.set_defaults(run=_run_app)
