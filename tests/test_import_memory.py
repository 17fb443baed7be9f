"""What imports cost a server in memory: a session keeps them compressed, the server a bounded store of built tables.

The issue's numbers: a 4.8 MB ``.model`` (281k pieces) built is about 120 MiB, a session kept five,
and six imports in two sessions took a server from 54 to 800 MiB. The budgets are in tokens
(``bpe.limits``); these tests shrink them to see them act (``benchmarks/import_budget.py``
measures the server's memory with the real ones).
"""

from __future__ import annotations

from bpe import PRESETS, Tokenizer, train
from bpe.formats import export_tokenizer
from bpe.views.compare import NamedTokenizer
from ui import tokenizers
from ui.tokenizers import BuiltImports

from .apptest_support import ENCODE, open_page, unescape_markdown
from .test_app_compare import PORT, upload


def trained(preset: str) -> Tokenizer:
    return Tokenizer.from_trace(train(PRESETS[preset].corpus(), PRESETS[preset].settings))


def kept(preset: str) -> NamedTokenizer:
    return NamedTokenizer.of(trained(preset), name=preset, origin="a test")


def test_the_built_store_drops_the_least_recently_used_past_its_budget_and_builds_it_again():
    sennrich, wikipedia = kept("sennrich"), kept("wikipedia")  # 266 and 259 tokens
    store = BuiltImports(budget=300)
    first = store.get(sennrich)
    assert store.get(sennrich) is first and store.tokens() == 266  # built once
    store.get(wikipedia)  # over 300: sennrich, the least recently used, goes
    assert store.tokens() == 259
    again = store.get(sennrich)
    assert again is not first and again.to_json() == first.to_json() and store.tokens() == 266


def test_the_one_just_built_stays_even_alone_over_the_budget():
    store = BuiltImports(budget=10)
    tokenizer = store.get(kept("sennrich"))
    assert store.get(kept("sennrich")) is tokenizer and store.tokens() == 266


def test_a_session_keeps_its_imports_compressed_and_drops_the_oldest_past_its_token_budget(monkeypatch):
    monkeypatch.setattr(tokenizers, "IMPORTED_TOKENS_PER_SESSION", 530)
    at = open_page(PORT, preset="sennrich")
    for preset in ("sennrich", "wikipedia", "hf-course"):
        upload(at, "ours", {f"{preset}.json": export_tokenizer(trained(preset), format="ours")["tokenizer.bpe-lab.json"]}, name=preset)
    names = [item.name for item in at.session_state["bpe.imported"]]
    assert names == ["wikipedia", "hf-course"]  # 266 + 259 + 15 pass 530: sennrich, the oldest, went
    assert "To keep at most 5 imports and 530 tokens in this session, sennrich was removed." in unescape_markdown(at.success[0].value)
    assert all(isinstance(item.stored, bytes) for item in at.session_state["bpe.imported"])  # no table in the session
    at.switch_page(ENCODE).run()
    assert "Imported: hf-course" in at.selectbox(key="w.encode_with").options
    at.selectbox(key="w.encode_with").set_value("imported:hf-course").run()  # built from the compressed copy
    assert not at.exception and at.selectbox(key="w.encode_with").value == "imported:hf-course"
