"""The Extend page on a SentencePiece model (Mistral v3): why its vocabulary grows by more than its
new merges, which formats hold the extended model, and its ``.model`` offered for download.

Expected values come from the engine's own API (``extend``, ``growth``, each format's
``export_problem``), never from the page's output.
"""

from __future__ import annotations

from bpe.formats import FORMATS
from bpe.teaching.extension import NEW_TEXTS, growth
from bpe.training.extend import extend

from .apptest_support import errors, open_page, unescape_markdown
from .shared_tokenizers import shared_pretrained

EXTEND = "pages/13_Extend_a_tokenizer.py"
AMHARIC = NEW_TEXTS["amh"].text


def test_an_extended_mistral_says_why_it_grew_which_formats_hold_it_and_offers_its_model():
    at = open_page(EXTEND, **{"from": "mistral-v3", "new": "amh", "add": "150"})
    assert not at.exception and not errors(at)
    old = shared_pretrained("mistral-v3")
    trace = extend(old, AMHARIC, merges=150)
    grown = growth(trace)
    assert grown.characters and grown.first_id == old.n_vocab == 32_768  # Amharic's characters were byte pieces
    captions = [unescape_markdown(caption.value) for caption in at.caption]
    assert any(grown.sentence() in caption for caption in captions), captions
    trade_off = [info.value for info in at.info if "embedding" in info.value]
    assert trade_off and f"The {grown.new_tokens:,} new tokens take ids 32,768 to {32_767 + grown.new_tokens:,}" in trade_off[0]
    extended = old.continued(trace)
    holds = [entry.title for entry in FORMATS.values() if entry.export_problem(extended) is None]
    assert holds == ["BPE Lab JSON", "SentencePiece .model"]
    said = [unescape_markdown(markdown.value) for markdown in at.markdown]
    assert f"**Holds it:** {', '.join(holds)}." in "\n".join(said)
    files = {button.label for button in at.get("download_button")}
    assert {"tokenizer.model", "tokenizer.bpe-lab.json"} <= files
    refusals = [unescape_markdown(info.value) for info in at.info]
    assert any(line.startswith("Hugging Face tokenizer.json cannot hold a char-level tokenizer: BPE Lab writes the byte-level "
                               "layout only") for line in refusals)
