"""What a hosted copy must do, checked in an environment holding exactly what the host installs.

Streamlit Community Cloud and a Hugging Face Space install ``requirements.txt`` and run
``streamlit run app.py`` from the checkout (``docs/hosting.md``). Run with that environment's Python,
from the checkout: ``python -m tests.hosted_check`` (``tests/test_hosting.py`` builds such an
environment and runs it). It prints one line per check and exits 1 at the first that fails:

* every pretrained tokenizer's files are found in the installed data packages and are the files
  their owners trained with (their sha256 checked);
* every page of the app opens without an exception, and the Encode page encodes with GPT-2 and
  Compare shows GPT-2's tokens, as on a laptop.

It needs only what the host has: Streamlit's own ``streamlit.testing`` (no pytest, no browser).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = " lowest newer wider"
GPT2_IDS = [9016, 15064, 10595]  # tiktoken's r50k_base (GPT-2) for TEXT


def _check(what: str, ok: bool, detail: str = "") -> None:
    print(f"{'ok' if ok else 'FAILED'}: {what}{f' ({detail})' if detail else ''}", flush=True)
    if not ok:
        sys.exit(1)


def main() -> None:
    os.environ.setdefault("BPE_LAB_CACHE_DIR", tempfile.mkdtemp(prefix="bpe-lab-hosted-"))  # no per-user state
    sys.path.insert(0, str(ROOT))
    from streamlit.testing.v1 import AppTest

    from tests.apptest_support import stat

    from bpe.app.pages import PAGES
    from bpe.pretrained.registry import PRETRAINED, load_pretrained, read_checked

    for name in PRETRAINED:
        contents, paths = read_checked(name)
        _check(f"{name}'s files are installed", bool(contents), ", ".join(path.name for path in paths))
    gpt2 = load_pretrained("gpt2").encode(TEXT)
    _check("GPT-2 encodes as tiktoken", gpt2 == GPT2_IDS, str(gpt2))

    def opened(page: str, **query: str) -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
        for key, value in query.items():
            at.query_params[key] = value
        if page != "app.py":
            at.switch_page(page)
        return at.run()

    for page in PAGES:
        at = opened(page.file)
        _check(f"{page.title} opens", not at.exception, "; ".join(str(error.value) for error in at.exception))
    at = opened("pages/2_Encode_and_decode.py", preset="sennrich")
    at.selectbox(key="w.encode_with").set_value("gpt2").run()
    at.text_area(key="w.encode_text").set_value(TEXT).run()
    tokens = stat(at, "Tokens")
    _check("Encode & decode encodes with GPT-2", not at.exception and tokens == str(len(GPT2_IDS)), f"Tokens: {tokens}")
    at = opened("pages/9_Compare.py", preset="sennrich")
    shown = " ".join(str(element.value) for element in at.markdown) + " ".join(str(element.value) for element in at.html)
    _check("Compare shows GPT-2 beside ours", not at.exception and "GPT-2" in shown)


if __name__ == "__main__":
    main()
