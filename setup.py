"""What pyproject.toml cannot say: which packages ship, found rather than listed.

``bpe`` and every package under it are found, so a new engine subpackage ships without an edit
here. The app (``app.py``, ``pages/``, ``ui/`` and ``.streamlit/config.toml`` at the checkout's
root, Streamlit's own layout) is installed as ``bpe_lab_app/``, where ``bpe-lab app`` looks for it
(``bpe/cli/app_command.py``). Subtle: "." as a package folder takes only the root's ``*.py`` (``app.py``)
and the files named in ``package_data``, never ``tests/`` or ``benchmarks/``. The engine's one data
folder, the Declaration's texts (``bpe/analysis/udhr/``), is named there too.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bpe", "bpe.*"]), "bpe_lab_app", "bpe_lab_app.pages", "bpe_lab_app.ui"],
    package_dir={"bpe_lab_app": "."},
    package_data={"bpe_lab_app": [".streamlit/config.toml"], "bpe.analysis": ["udhr/*.txt"]},
)
