"""The Compare, Import & export pages and the encode page's tokenizer choice, run headless with AppTest."""

import html
import re

import pytest
from streamlit.testing.v1 import AppTest

from bpe import PRESETS, Tokenizer, train
from bpe.formats import FORMATS, export_tokenizer

from .apptest_support import ENCODE, errors, open_page, plain, stat, unescape_markdown
from .peers import tiktoken_encoding
from .shared_tokenizers import shared_pretrained

COMPARE = "pages/9_Compare.py"
PORT = "pages/10_Import_and_export.py"
SENNRICH_TEXT = " lowest newer wider"


def table(at: AppTest, column: str):
    """The first dataframe with ``column``, as a DataFrame."""
    found = [frame.value for frame in at.dataframe if column in frame.value.columns]
    assert found, f"no dataframe has a {column!r} column"
    return found[0]


def sennrich_at(step: int) -> Tokenizer:
    return Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings), step=step)


def upload(at: AppTest, format: str, files: dict[str, str], name: str = "") -> AppTest:
    """Choose ``format``, upload ``files`` and press Import, as a user would."""
    at.selectbox(key="w.import_format").set_value(format).run()
    at.file_uploader(key="w.import_files").set_value([(file, text.encode("utf-8"), "text/plain") for file, text in files.items()]).run()
    at.text_input(key="w.import_name").set_value(name)
    return at.button(key="w.import").click().run()


# -- compare ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["sennrich", "wikipedia", "hf-course", "cs336", "own-text", "own-table"])
def test_the_compare_page_renders_for_every_kind_of_example(preset):
    at = open_page(COMPARE, preset=preset, step="3")
    assert not at.exception and not errors(at)
    assert len(table(at, "bytes per token")) == 3  # ours after all its merges, GPT-2, GPT-4o


def test_the_summary_names_the_step_only_beside_a_tokenizer_the_step_moves():
    at = open_page(COMPARE, preset="sennrich")  # ours after all 10 merges, GPT-2, GPT-4o
    summary = next(c.value for c in at.caption if "(change them in the sidebar" in c.value)
    assert "step 0 of 10" not in summary and "10 merges" in summary
    at.multiselect(key="w.compare_with").set_value(["ours", "gpt2"]).run()
    assert any("step 0 of 10" in c.value for c in at.caption)


def test_in_presenter_mode_the_counts_are_a_table_in_the_pages_type():
    at = open_page(COMPARE, preset="sennrich", present="1")
    counts = next(element.value for element in at.html if "characters per token" in element.value)
    assert counts.startswith('<table class="bpe-table">')  # sized by the page's rem, not the grid's fixed 14 px
    assert '<td>GPT-2 (50,257 tokens)</td><td class="bpe-number">50,257</td><td class="bpe-number">3</td>' in counts
    assert not [frame for frame in at.dataframe if "bytes per token" in frame.value.columns]


def test_each_clicker_text_of_the_compare_lesson_is_kept_in_the_link():
    at = open_page(COMPARE, preset="sennrich")
    at.button(key="w.clicker.next").click().run()  # the first Why card's text: 'strawberry'
    assert at.query_params["text"] == "strawberry"
    again = open_page(COMPARE, preset="sennrich", text="strawberry")
    assert again.session_state["bpe.compare_text"] == "strawberry"
    assert 'data-at="1"' in next(element.value for element in again.html if "bpe-clicker" in element.value)


def test_gpt2_and_ours_at_step_k_are_counted_side_by_side():
    at = open_page(COMPARE, preset="sennrich", step="10")
    at.multiselect(key="w.compare_with").set_value(["ours", "gpt2"]).run()
    assert not at.exception
    assert at.text_area(key="w.compare_text").value == SENNRICH_TEXT
    rows = table(at, "tokens").set_index("tokenizer")
    assert rows.loc["Ours at step 10", "tokens"] == len(sennrich_at(10).encode(SENNRICH_TEXT)) == 12
    assert rows.loc["GPT-2 (50,257 tokens)", "tokens"] == len(shared_pretrained("gpt2").encode(SENNRICH_TEXT)) == 3
    assert rows.loc["GPT-2 (50,257 tokens)", "bytes per token"] == round(len(SENNRICH_TEXT) / 3, 2)
    shown = [markdown.value for markdown in at.markdown]
    assert "**Ours at step 10** · 12 tokens" in [unescape_markdown(value) for value in shown]
    chips = [element.value for element in at.html if 'class="bpe-tokens"' in element.value]
    assert len(chips) == 2 and re.findall(r'data-id="(\d+)"', chips[1]) == [str(i) for i in shared_pretrained("gpt2").encode(SENNRICH_TEXT)]


def test_new_text_and_a_third_tokenizer_with_another_tie_rule():
    at = open_page(COMPARE, preset="wikipedia", step="2")
    at.text_area(key="w.compare_text").set_value("aaabdaaabac").run()
    at.multiselect(key="w.compare_with").set_value(["ours", "variant", "gpt2"]).run()
    assert not at.exception
    assert at.selectbox(key="w.variant_tie").value == "first-seen"  # the rule that is not the run's
    rows = table(at, "tokens").set_index("tokenizer")["tokens"].to_dict()
    assert rows["Ours at step 2"] == 7  # aa ab a b d aa ab a c -> ZYdZYac... seven tokens
    assert rows["Ours with ties: first-seen · byte · none (step 2)"] == 7  # aaa b d aaa b a c
    at.selectbox(key="w.variant_tie").set_value("lexicographic-max").run()
    assert "Ours with ties: lexicographic-max · byte · none (step 2)" in table(at, "tokens")["tokenizer"].tolist()


def test_the_run_diff_shows_wikipedia_parting_at_merge_2_under_lexicographic_min_and_first_seen():
    at = open_page(COMPARE, preset="wikipedia")
    at.selectbox(key="w.diff_rule_a").set_value("lexicographic-min").run()
    at.selectbox(key="w.diff_rule_b").set_value("first-seen").run()
    assert not at.exception
    assert "The merge lists first differ at merge 2" in [header.value for header in at.subheader]
    told = plain(next(element.value for element in at.html if 'class="bpe-diff"' in element.value))
    assert "they part ways at merge 2" in told
    assert "It is a tie: both pairs occur 2 times" in told
    assert "lexicographic-min picks 'a' + 'b' because its byte strings are the smallest" in told
    assert "first-seen picks 'aa' + 'a' because it occurs first in the text" in told
    merges = table(at, "merge")
    assert merges["A · lexicographic-min"].tolist() == ["'a' + 'a'", "'a' + 'b'", "'aa' + 'ab'"]
    assert merges["B · first-seen"].tolist() == ["'a' + 'a'", "'aa' + 'a'", "'aaa' + 'b'"]


def test_the_run_diff_says_when_two_rules_learn_the_same_merges():
    at = open_page(COMPARE, preset="wikipedia")
    at.selectbox(key="w.diff_rule_b").set_value("lexicographic-min").run()
    assert "The merge lists never differ" in [header.value for header in at.subheader]


# -- export -----------------------------------------------------------------------------------------
def test_a_byte_level_run_offers_a_download_for_every_file_and_each_zip():
    at = open_page(PORT, preset="sennrich", step="5")
    assert not at.exception and not errors(at)
    labels = [button.label for button in at.download_button]
    offered = [entry for entry in FORMATS.values() if entry.export_problem(sennrich_at(5)) is None]
    assert labels == [
        label for entry in offered for label in (*entry.file_names, *(["both as .zip"] if len(entry.file_names) > 1 else []))
    ]
    assert labels[:4] == ["tokenizer.bpe-lab.json", "tokenizer.model", "tokenizer.vocab", "both as .zip"]
    assert all(button.proto.url.startswith("/mock/media/") for button in at.download_button)


def test_a_char_level_run_explains_why_only_our_format_can_hold_it():
    at = open_page(PORT, preset="hf-course")
    assert [button.label for button in at.download_button] == ["tokenizer.bpe-lab.json"]
    reasons = [unescape_markdown(info.value) for info in at.info]
    byte_level = [reason for reason in reasons if "cannot hold a char-level tokenizer" in reason]
    assert len(reasons) == len(FORMATS) - 1  # every format but ours says why not
    assert len(byte_level) == sum(entry.byte_level_only for entry in FORMATS.values())
    # subword-nmt holds characters, but with its marker only; SentencePiece split by its own rules only
    codes, model = sorted(set(reasons) - set(byte_level), key=lambda reason: not reason.startswith("subword-nmt"))
    assert codes.startswith("subword-nmt") and "end-of-word marker </w>" in codes
    assert model.startswith("SentencePiece .model holds tokenizers of the char unit split by 'sentencepiece'")


# -- import -----------------------------------------------------------------------------------------
def test_an_uploaded_tokenizer_json_is_kept_and_offered_on_compare_and_encode():
    ours = sennrich_at(10)
    at = open_page(PORT, preset="sennrich")
    upload(at, "hf", export_tokenizer(ours, format="hf"), name="my sennrich")
    assert not at.exception and not errors(at)
    assert "Imported **my sennrich**" in unescape_markdown(at.success[0].value)
    (kept,) = at.session_state["bpe.imported"]
    assert kept.name == "my sennrich" and Tokenizer.from_json(kept.json()).encode(SENNRICH_TEXT) == ours.encode(SENNRICH_TEXT)

    at.switch_page(COMPARE).run()
    assert "Imported: my sennrich" in at.multiselect(key="w.compare_with").options
    at.multiselect(key="w.compare_with").set_value(["gpt2", "imported:my sennrich"]).run()
    rows = table(at, "tokens").set_index("tokenizer")["tokens"].to_dict()
    assert rows == {"GPT-2 (50,257 tokens)": 3, "Imported: my sennrich": 12}

    at.switch_page(ENCODE).run()
    at.selectbox(key="w.encode_with").set_value("imported:my sennrich").run()
    assert not at.exception and stat(at, "Tokens") == "12"


def test_gpt2_files_need_both_and_then_import_under_a_unique_name():
    files = export_tokenizer(sennrich_at(4), format="gpt2")
    at = open_page(PORT, preset="sennrich")
    upload(at, "gpt2", {"encoder.json": files["encoder.json"]})
    assert "got 1 file(s)" in unescape_markdown(errors(at)[0]) and not at.exception
    assert at.session_state["bpe.imported"] == ()
    upload(at, "gpt2", files, name="pair")
    upload(at, "gpt2", dict(reversed(list(files.items()))), name="pair")  # the order of the files does not matter
    assert [item.name for item in at.session_state["bpe.imported"]] == ["pair", "pair (2)"]
    at.button(key="w.remove.pair").click().run()
    assert [item.name for item in at.session_state["bpe.imported"]] == ["pair (2)"]


def test_import_waits_for_the_files_upload():
    """A click on Import while a big file is still uploading came in a run without the file, and the
    note saying so was gone with the upload's own run: nothing seemed to happen. The button waits."""
    at = open_page("pages/10_Import_and_export.py", preset="sennrich")
    assert at.button(key="w.import").disabled
    at.file_uploader(key="w.import_files").set_value([("vocab.json", b"{}", "text/plain")]).run()
    assert not at.button(key="w.import").disabled


def test_a_broken_file_is_an_error_message_and_a_hostile_name_stays_text():
    at = open_page(PORT, preset="sennrich")
    upload(at, "hf", {"tokenizer.json": "{not json"}, name="x")
    assert not at.exception and errors(at) and errors(at)[0].startswith("**Cannot import:**")
    hostile = "<img src=x onerror=alert(1)> ![a](http://e.com/a.png)"
    upload(at, "ours", export_tokenizer(sennrich_at(2), format="ours"), name=hostile)
    assert not at.exception
    shown = [markdown.value for markdown in at.markdown if "onerror" in markdown.value]
    assert shown and not any(re.search(r"(?<!\\)[<\[!]", value.replace("**", "")) for value in shown)
    assert unescape_markdown(shown[0]).startswith(f"**{hostile}**")


# -- encode with GPT-2 ------------------------------------------------------------------------------
def test_the_encode_page_walks_gpt2_through_its_merges_and_caps_the_chunks():
    at = open_page(ENCODE, preset="sennrich", step="3")
    assert at.selectbox(key="w.encode_with").value == "ours"
    at.selectbox(key="w.encode_with").set_value("gpt2").run()
    text = " lowest newer wider" * 20
    at.text_area(key="w.encode_text").set_value(text).run()
    assert not at.exception and not errors(at)
    assert stat(at, "Tokens") == f"{len(shared_pretrained('gpt2').encode(text)):,}"
    walk = plain(next(element.value for element in at.html if "bpe-walk-head" in element.value))
    assert "merge 19: e + s → es" in walk and "merge 8761: ·low + est → ·lowest" in walk  # GPT-2's own ranks
    # the walkthrough follows the text up to its last space before MAX_WALK_CHARS = 200 (character 197):
    # ten copies of the three chunks, then " lowest": 31 chunks, 25 drawn
    assert walk.count("chunk “") == 25 and "… and 6 more chunks" in walk
    at.button[[button.label for button in at.button].index("Try half a character (e2 82)")].click().run()
    gpt2 = shared_pretrained("gpt2")
    byte_ids = [next(i for i, token in gpt2.tokens.items() if token.data == bytes([value])) for value in b"\xe2\x82"]
    assert at.text_input(key="w.decode_ids").value == ", ".join(map(str, byte_ids)) != "226, 130"


def test_the_step_slider_is_shown_only_beside_a_tokenizer_it_moves():
    at = open_page("pages/9_Compare.py", preset="sennrich")  # ours after all 10 merges, GPT-2, GPT-4o
    assert not [slider for slider in at.slider if slider.key == "w.step.compare"]
    at.multiselect(key="w.compare_with").set_value(["ours", "gpt2"]).run()
    assert at.slider(key="w.step.compare").value == 0 and not at.exception


# -- where they disagree, what numbers cost, a model's name ----------------------------------------
def owner_cut_stretches(text: str, names: list[str]) -> list[str]:
    """The stretches tiktoken's own GPT-2 and GPT-4o cut differently (between the cuts both make)."""
    ends = []
    for name in names:
        encoding = tiktoken_encoding(name)
        lengths = [len(encoding.decode_single_token_bytes(i)) for i in encoding.encode(text)]
        ends.append({sum(lengths[:k]) for k in range(1, len(lengths))})
    data, shared = text.encode(), sorted({0, len(text.encode())} | set.intersection(*ends))
    return [data[a:b].decode() for a, b in zip(shared, shared[1:]) if len({frozenset(c for c in e if a < c < b) for e in ends}) > 1]


def test_compare_marks_the_stretches_gpt2_and_gpt4o_cut_differently_and_prices_every_number():
    text = "In 2024 the naïve <model> cost 12,345 tokens"
    at = open_page(COMPARE, preset="sennrich")
    at.text_area(key="w.compare_text").set_value(text).run()
    at.multiselect(key="w.compare_with").set_value(["gpt2", "o200k_base"]).run()
    assert not at.exception and not errors(at)
    (marked,) = [element.value for element in at.html if 'class="bpe-cuts"' in element.value]
    assert [html.unescape(found) for found in re.findall(r'<mark class="bpe-cut"[^>]*>([^<]*)</mark>', marked)] == (
        owner_cut_stretches(text, ["gpt2", "o200k_base"])
    )
    assert "&lt;model&gt;" in marked  # the text is escaped around the marks
    assert table(at, "spread")["spread"].max() >= 1

    costs = table(at, "all numbers").set_index("tokenizer")
    for name, label in (("gpt2", "GPT-2 (50,257 tokens)"), ("o200k_base", "GPT-4o (200,000 tokens)")):
        counts = [len(tiktoken_encoding(name).encode(str(number))) for number in range(1000)]
        assert costs.loc[label, "1 token"] == counts.count(1) and costs.loc[label, "all numbers"] == sum(counts)
    digits = [frame.value for frame in at.dataframe if list(frame.value.columns) == ["tokenizer", "tokens"]][0]
    assert digits.set_index("tokenizer")["tokens"].to_dict() == {
        "by place value (right to left)": "1 | 234 | 567", "GPT-2 (50,257 tokens)": "123 | 45 | 67", "GPT-4o (200,000 tokens)": "123 | 456 | 7",
    }


def test_a_models_name_adds_the_tokenizer_it_uses_and_an_unknown_one_lists_the_known_names():
    at = open_page(COMPARE, preset="sennrich")
    at.text_input(key="w.model_name").set_value("meta-llama/Llama-3.1-8B-Instruct").run()
    assert not at.exception
    assert at.multiselect(key="w.compare_with").value[-1] == "llama3"
    assert "Llama 3 (128,256 tokens)" in table(at, "tokens")["tokenizer"].tolist()
    assert "meta-llama/Llama-3.1-8B-Instruct uses Llama 3's tokenizer: 128,256 tokens" in unescape_markdown(at.info[0].value)
    at.text_input(key="w.model_name").set_value("gemma-2b").run()
    assert "no tokenizer known for the model 'gemma-2b'" in unescape_markdown(at.warning[0].value)
    assert at.multiselect(key="w.compare_with").value[-1] == "llama3"  # nothing else changed


def test_the_encode_page_takes_a_models_name_too():
    at = open_page(ENCODE, preset="sennrich")
    at.text_input(key="w.model_name").set_value("gpt-oss-20b").run()
    assert not at.exception and not errors(at)
    assert at.selectbox(key="w.encode_with").value == "o200k_harmony"
    assert "gpt-oss-20b uses gpt-oss's tokenizer" in unescape_markdown(at.info[0].value)


def test_a_pretrained_tokenizer_still_loading_gets_a_column_that_says_so_then_its_chips(monkeypatch):
    """Compare opens on GPT-2 and GPT-4o: on a cold server GPT-4o may still be loading when the page
    draws; its column says so, and the page reruns when it is ready (the loader holds it back here)."""
    import threading

    import ui.tokenizers

    release, loaded = threading.Event(), ui.tokenizers.load_pretrained
    monkeypatch.setattr(ui.tokenizers, "load_pretrained", lambda name: release.wait(60) and loaded(name) if name == "o200k_base" else loaded(name))
    ui.tokenizers._loader().ready(["gpt2"], wait_s=120)
    monkeypatch.setattr(ui.tokenizers, "FIRST_SCREEN_WAIT_S", 0.5)
    at = open_page(COMPARE, preset="sennrich")
    assert not at.exception and not errors(at)
    shown = [unescape_markdown(markdown.value) for markdown in at.markdown]
    assert "**GPT-4o (200,000 tokens)** · loading…" in shown
    assert any(caption.value.startswith(":material/hourglass_top: Reading GPT-4o (200,000 tokens)") for caption in at.caption)
    assert "**GPT-2 (50,257 tokens)** · 3 tokens" in shown  # drawn meanwhile
    release.set()
    ui.tokenizers._loader().get("o200k_base")
    at.run()
    shown = [unescape_markdown(markdown.value) for markdown in at.markdown]
    assert "**GPT-4o (200,000 tokens)** · 3 tokens" in shown and not any("loading…" in text for text in shown)
