"""Hostile input in a real browser: HTML, JavaScript and Markdown payloads typed as a corpus, a
special token, a custom regex, a file name and a link (a hostile value in every link parameter, the
lab's read from the link registry and each page's own from its code) are shown as text and run nothing.

"Run nothing" is checked three ways: no JavaScript dialog opens, the page requests nothing from
any origin but the app's own, and no element the payloads describe exists in the page.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from ui.browser import OWN_SCRIPT

from .hostile_links import hostile, lab_links, page_params, url_path

pytestmark = pytest.mark.browser

ELSEWHERE = "http://127.0.0.2:9"  # a different origin: any request to it means Markdown was rendered
PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<svg onload=alert(3)>",
    '<a href="javascript:alert(4)">click</a>',
    '"><iframe srcdoc="<script>alert(5)</script>"></iframe>',
    "'\"><b id=injected>broken out</b>",
    '" style="position:fixed;inset:0;background:red" x="',
    "</textarea></style></title><b id=injected2>closed</b>",
    f"![pixel]({ELSEWHERE}/corpus.png) [link](javascript:alert(6)) **bold** $x^2$ :red[red]",
]
SPECIAL = "<img src=x onerror=alert(7)>"
CORPUS = "\n".join(PAYLOADS) + f"\n{SPECIAL} the end"
GOOD_REGEX = r"<svg onload=alert(8)>|\w+|[^\w\s]+"
BAD_REGEX = f"(![p]({ELSEWHERE}/regex.png)<img src=x onerror=alert(9)>"
FILE_NAME = f"<img src=x onerror=alert(10)> **name** :red[x].txt"
INJECTED = (
    "img[src='x'], svg[onload], iframe[srcdoc], [onerror], [onload], #injected, #injected2, "
    f"a[href^='javascript'], img[src*='127.0.0.2'], [data-testid='stMain'] script:not([{OWN_SCRIPT}])"
)


@pytest.fixture
def watched(page, app_url, dialogs):
    """The page, plus every dialog it opens (conftest's ``dialogs``) and every request it makes to
    another origin."""
    foreign = []

    def note_foreign(request):
        if not request.url.startswith(app_url):
            foreign.append(request.url)

    page.on("request", note_foreign)
    try:
        yield page
    finally:
        page.remove_listener("request", note_foreign)  # the tab goes on to the next test (conftest.page)
    # No sleep before judging: a payload can only run from an element that carries it, so the
    # elements are the proof; the dialog and request lists catch anything that ran already.
    assert page.locator(INJECTED).count() == 0
    assert dialogs == []
    assert foreign == []


def commit(locator, text: str) -> None:
    locator.fill(text)
    locator.press("Control+Enter")


def custom_regex_box(page):
    """Choose "custom regex" as the pre-tokenizer; return its pattern box once the run that the
    choice started has finished (it writes the choice into the URL last), so nothing redraws the
    box while it is typed in."""
    pretokenizer = page.get_by_role("combobox", name="Pre-tokenizer")
    pretokenizer.click()  # the selectbox filters its list as you type
    pretokenizer.fill("custom regex")
    pretokenizer.press("Enter")
    regex = page.get_by_role("textbox", name="Your split regex")
    expect(regex).to_be_visible(timeout=15_000)
    expect(page).to_have_url(re.compile(r"pretok=regex(:|%3A)"), timeout=15_000)
    return regex


def test_hostile_corpus_special_token_and_regex_are_shown_as_text(watched, app_url):
    page = watched
    page.goto(f"{app_url}/Train?preset=own-text")
    commit(page.get_by_label("Your text (Ctrl+Enter to train on it)"), CORPUS)
    page.get_by_role("button", name="Show more of the corpus").click()  # a step draws a window; all of it, please
    corpus = page.locator(".bpe-tokens").filter(has_text="the·end")
    expect(corpus.first).to_contain_text("<img·src=x·onerror=alert(2)>")
    expect(corpus.first).to_contain_text("<iframe·srcdoc=")

    commit(page.get_by_role("textbox", name="Special tokens (one per line)"), SPECIAL)
    expect(page.locator(".bpe-tokens .bpe-special").first).to_contain_text("onerror=alert(7)")

    regex = custom_regex_box(page)
    error = page.locator('[data-testid="stAlertContentError"]')
    regex.fill(BAD_REGEX)
    regex.press("Enter")
    expect(error.filter(has_text="is not a valid regex")).to_be_visible(timeout=15_000)
    expect(error).to_contain_text(f"![p]({ELSEWHERE}/regex.png)<img src=x onerror=alert(9)>")
    expect(page.get_by_label("Your text (Ctrl+Enter to train on it)")).to_have_value(CORPUS)

    regex.fill(GOOD_REGEX)
    regex.press("Enter")
    expect(error).to_have_count(0)
    page.get_by_role("link", name="Encode & decode").click()
    expect(page.get_by_text(re.compile("special tokens: "))).to_contain_text(SPECIAL)
    expect(page.get_by_text(re.compile(r"pre-tokenizer regex:"))).to_contain_text(GOOD_REGEX)


def test_a_hostile_file_name_is_shown_as_text(watched, app_url):
    page = watched
    page.goto(f"{app_url}/Train?preset=own-text")
    upload = page.locator('[data-testid="stFileUploader"] input[type="file"]')
    upload.set_input_files({"name": FILE_NAME, "mimeType": "text/plain", "buffer": b"caf\xe9 au lait"})
    error = page.locator('[data-testid="stAlertContentError"]')
    expect(error).to_contain_text(f"{FILE_NAME} is not UTF-8 text (byte 3 is 0xe9)")
    upload.set_input_files({"name": FILE_NAME, "mimeType": "text/plain", "buffer": CORPUS.encode()})
    note = page.locator('[data-testid="stAlertContentSuccess"]')
    expect(note).to_contain_text(f"Loaded {FILE_NAME}.")
    page.get_by_role("button", name="Show more of the corpus").click()  # a step draws a window; all of it, please
    expect(page.locator(".bpe-tokens").filter(has_text="the·end").first).to_contain_text("<svg·onload=alert(3)>")
    expect(page.locator('[data-testid="stExpander"] details').first).not_to_have_attribute("open", "")  # it trained: folded
    expect(note).to_be_visible()  # and the note is still there to read, under the box


def test_a_hostile_link_is_shown_as_text(watched, app_url):
    page = watched
    preset = f"<img src=x onerror=alert(11)>![q]({ELSEWHERE}/link.png)"
    page.goto(f"{app_url}/Train?preset={preset}&pretok=regex:{BAD_REGEX}")
    warning = page.locator('[data-testid="stAlertContentWarning"]')
    expect(warning.first).to_contain_text(f"unknown example '{preset}'")
    expect(page.locator(".bpe-narration")).to_contain_text("Before any merge")


SHOWN_IN_MAIN = """text => {
  const main = document.querySelector('[data-testid="stMain"]');
  return !!main && (main.textContent.includes(text)
    || [...main.querySelectorAll("input, textarea")].some(box => box.value.includes(text)));
}"""
"""True once the page's main area shows ``text``, as text or in a box."""


def no_injected_element(page) -> None:
    """The page holds no element a payload describes (checked after each page of a test)."""
    assert page.locator(INJECTED).count() == 0


def test_a_hostile_value_in_every_link_parameter_is_shown_as_text(watched, app_url):
    """Every lab parameter (from the link registry) at once, then each page's own parameters."""
    page = watched
    page.goto(f"{app_url}/Train?" + "&".join(f"{param}={quote(value)}" for param, value in lab_links().items()))
    # The marker, told in a plain sentence (not only in its token chips)
    expect(page.locator(".bpe-why")).to_contain_text(f"plus a {hostile('eow')} marker ending each word")
    warnings = page.locator('[data-testid="stAlertContentWarning"]')
    for param in ("preset", "step", "unit", "pretok"):
        expect(warnings.filter(has_text=hostile(param))).to_have_count(1)
    no_injected_element(page)
    for page_file, params in page_params().items():
        page.goto(f"{app_url}{url_path(page_file)}?" + "&".join(f"{param}={quote(hostile(param))}" for param in sorted(params)))
        main = page.locator('[data-testid="stMain"]')
        expect(main.get_by_role("heading").first).to_be_visible()
        shown = sorted(params - {"present", "tour", "controls"})  # those three are flags: read, never shown
        if shown:  # the page drew what the link carried (Counting lab: its error names the first bad symbol)
            page.wait_for_function(SHOWN_IN_MAIN, arg=hostile(shown[0]), timeout=20_000)
        no_injected_element(page)
