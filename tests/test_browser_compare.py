"""Compare, download and upload in a real browser (Debian's Chromium via Playwright, live server).

Waits are on content the action changes (Playwright's auto-retrying ``expect``).
"""

import re

import pytest
from playwright.sync_api import expect

from bpe import PRESETS, Tokenizer, train
from bpe.formats import export_tokenizer

from .conftest import FIRST_LOAD_MS, PROJECTOR
from .multilingual import ARTICLE_1
from .streamlit_widgets import choose


pytestmark = pytest.mark.browser

SAMPLES = [" lowest newer wider", "the newest and the widest, lower still", "héllo wörld € 2024"]


def sennrich_at(step: int) -> Tokenizer:
    return Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings), step=step)


def test_compare_shows_gpt2_beside_ours_and_where_two_runs_part(page, app_url, picture):
    page.goto(f"{app_url}/Compare?preset=wikipedia&step=3")
    expect(page.get_by_role("heading", name="Compare tokenizers")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"] canvas').first).to_be_visible()
    expect(page.get_by_text("GPT-2 (50,257 tokens) · 6 tokens")).to_be_visible()  # aa ab da a ab ac
    expect(page.get_by_text("Ours after all 3 merges · 5 tokens")).to_be_visible()  # X d X a c (the last step: 3)
    expect(page.locator(".bpe-cuts mark.bpe-cut").first).to_be_visible()  # where GPT-2, GPT-4o and ours cut differently
    expect(page.locator('[data-testid="stVegaLiteChart"] canvas').first).to_be_visible()  # what each number costs
    expect(page.get_by_role("heading", name="The merge lists first differ at merge 2")).to_be_visible()
    expect(page.locator(".bpe-diff")).to_contain_text("lexicographic-min picks 'a' + 'b' because")

    choose(page, "Run B: tie-break rule", "hf")
    expect(page.get_by_role("heading", name="The merge lists never differ")).to_be_visible()
    choose(page, "Run B: tie-break rule", "lexicographic-max")
    expect(page.get_by_role("heading", name="The merge lists first differ at merge 2")).to_be_visible()
    expect(page.locator(".bpe-diff")).to_contain_text("lexicographic-max picks 'aa' + 'a' because")
    page.locator(".bpe-diff").scroll_into_view_if_needed()
    picture(page, "compare", full_page=True)


def test_a_downloaded_tokenizer_json_loads_in_hugging_face_and_encodes_like_ours(page, app_url, tmp_path):
    from tokenizers import Tokenizer as HfTokenizer

    page.goto(f"{app_url}/Import_and_export?preset=sennrich&step=10")
    button = page.locator('[data-testid="stDownloadButton"]').filter(has_text=re.compile(r"^\W*\w*\W*tokenizer\.json$"))
    expect(button).to_have_count(1)
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value
    assert download.suggested_filename == "sennrich-step10-tokenizer.json"
    path = tmp_path / "tokenizer.json"
    download.save_as(path)
    theirs = HfTokenizer.from_str(path.read_text(encoding="utf-8"))
    ours = sennrich_at(10)
    for sample in SAMPLES:
        assert theirs.encode(sample).ids == ours.encode(sample), sample


def test_uploaded_gpt2_files_become_a_tokenizer_on_the_compare_page(page, app_url, tmp_path, picture):
    files = export_tokenizer(sennrich_at(10), format="gpt2")
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))

    page.goto(f"{app_url}/Import_and_export?preset=sennrich&step=10")
    expect(page.get_by_role("heading", name="Import a tokenizer")).to_be_visible()
    choose(page, "Format", "GPT-2 encoder.json + vocab.bpe")
    expect(page.get_by_text("Upload both encoder.json and vocab.bpe.")).to_be_visible()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(paths)
    expect(page.get_by_test_id("stFileChipName")).to_have_count(2)
    name = page.get_by_label("Name it")
    name.fill("sennrich via gpt2 files")
    name.press("Enter")
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported sennrich via gpt2 files: 266 tokens, 10 merges.")).to_be_visible()
    picture(page, "import-export", full_page=True)

    page.get_by_role("link", name="Compare tokenizers").click()
    expect(page.get_by_role("heading", name="Compare tokenizers")).to_be_visible()
    choose(page, "Tokenizers (two to five)", "Imported: sennrich via gpt2 files")
    expect(page.get_by_text("Imported: sennrich via gpt2 files · 12 tokens")).to_be_visible()
    expect(page.get_by_text("Ours after all 10 merges · 12 tokens")).to_be_visible()


LESSON_TEXT = " ".join([ARTICLE_1[0][:70], ARTICLE_1[2][:60], ARTICLE_1[4][:60], ARTICLE_1[8][:30], "In 2024 it cost 12,345.67 €, 👋🏽 naïve café"])


@pytest.mark.screenshots
@pytest.mark.parametrize("presenting", [False, True], ids=["laptop-1366x768", "presenter-1280x720"])
def test_pictures_of_llama_3_mistral_v7_and_gpt4o_on_one_multilingual_text_and_on_numbers(page, app_url, picture, presenting):
    """Found by their models' names, as a learner would; the pictures: chips, the marked stretches, the heatmap."""
    if presenting:
        page.set_viewport_size(PROJECTOR)
    page.goto(f"{app_url}/Compare?preset=sennrich" + ("&present=1" if presenting else ""))
    box = page.get_by_role("textbox", name="Text to compare (Ctrl+Enter to apply)")
    box.fill(LESSON_TEXT)
    box.press("Control+Enter")
    for model, found in (("llama-3.1-8b", "Llama 3"), ("mistral-large-2411", "Mistral v7")):
        name = page.get_by_role("textbox", name="…or type a model's name")
        name.fill(model)
        name.press("Enter")
        expect(page.get_by_text(f"{model} uses {found}'s tokenizer")).to_be_visible(timeout=FIRST_LOAD_MS)
    for label in ("Ours after all 10 merges", "GPT-2 (50,257 tokens)"):
        page.get_by_role("button", name=f"Remove {label}").click()
        expect(page.get_by_role("button", name=f"Remove {label}")).to_have_count(0)
    columns = page.locator('[data-testid="stColumn"]:has(.bpe-tokens)')
    expect(columns).to_have_count(3, timeout=FIRST_LOAD_MS)
    for shown, count in (("GPT-4o (200,000 tokens)", 1), ("Llama 3 (128,256 tokens)", 1), ("Mistral v7 (32,768 tokens)", 1), ("GPT-2", 0)):
        expect(columns.filter(has_text=shown)).to_have_count(count, timeout=FIRST_LOAD_MS)
    expect(page.locator('[data-stale="true"]')).to_have_count(0)
    where = "presenter-1280x720" if presenting else "laptop-1366x768"
    top = "el => el.scrollIntoView({block: 'start'})"
    page.locator(".bpe-tokens").first.evaluate(top)
    picture(page, f"compare-llama3-mistral7-gpt4o-chips-{where}")
    expect(page.locator(".bpe-cuts mark.bpe-cut", has_text="202")).to_have_count(1)
    page.get_by_role("heading", name="Where they cut differently").evaluate(top)
    picture(page, f"compare-llama3-mistral7-gpt4o-cuts-{where}")
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart.locator("canvas")).to_be_visible()
    chart.evaluate(top)
    picture(page, f"compare-llama3-mistral7-gpt4o-numbers-{where}")
