"""The app's pages, each declared once: its file, its title and its icon.

Everything that names a page reads this registry: the page's own setup (browser tab and tour bar,
``ui.render.page_setup``), the sidebar's links, the home page's list of pages and its tour cards, and
the tour's targets (:mod:`bpe.teaching.tour`). A new page is its file in ``pages/`` and one entry in
:data:`PAGES` (``tests/test_page_registry.py`` checks the folder and the registry agree;
``tests/test_app_trust.py`` and ``tests/test_browser_a11y.py`` open every entry).

    >>> TRAIN.file, TRAIN.title, TRAIN.icon, TRAIN.tab_icon
    ('pages/1_Train.py', 'Train, step by step', ':material/school:', '🧮')
    >>> page_for("pages/9_Compare.py").title
    'Compare tokenizers'
    >>> TRAIN.url_name                    # how Streamlit names the page in a URL
    'Train'
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from ..registry import Registry


class Page(NamedTuple):
    """A tuple, so ``for file, title, icon, tab_icon, blurb in PAGES`` reads each entry whole."""

    file: str
    """Relative to the app's root, as ``st.page_link`` and ``st.switch_page`` take it."""
    title: str
    """The sidebar link's label, the browser tab's title and the tour bar's name for it."""
    icon: str
    """A Material Symbols name (``:material/school:``): the sidebar link's and tour cards' icon
    (drawn from the font Streamlit ships)."""
    tab_icon: str
    """An emoji for the browser tab. Not the Material name: Streamlit turns that into a favicon
    fetched from fonts.gstatic.com, a request an offline classroom cannot make and a private one
    must not (tests/test_browser_hostile.py fails on any request to another origin)."""
    blurb: str
    """What the learner finds there, in a line (the home page's list of pages)."""

    @property
    def url_name(self) -> str:
        """The page's URL path as Streamlit derives it from the file name (``9_Compare.py`` -> ``Compare``)."""
        return self.file.rsplit("/", 1)[-1].removesuffix(".py").split("_", 1)[-1]


HOME = Page("app.py", "Home", ":material/home:", "🔤", "what byte-pair encoding is, a guided tour, and the examples.")
TRAIN = Page(
    "pages/1_Train.py", "Train, step by step", ":material/school:", "🧮",
    "the corpus, the settings, and every merge explained.",
)
ENCODE = Page(
    "pages/2_Encode_and_decode.py", "Encode & decode", ":material/swap_horiz:", "🔡",
    "new text through the merges learned up to the current step, and ids back to text.",
)
VOCABULARY = Page(
    "pages/3_Vocabulary.py", "Vocabulary", ":material/menu_book:", "📚",
    "every token, the step that made it, and its merge tree.",
)
QUIZ = Page(
    "pages/4_Predict_the_next_merge.py", "Predict the next merge", ":material/quiz:", "❓",
    "a quiz: guess each merge before it happens, and keep score.",
)
TIE_LAB = Page(
    "pages/5_Tie_break_lab.py", "Tie-break lab", ":material/balance:", "⚖️",
    "one corpus trained under every tie-break rule, side by side.",
)
COUNTING_LAB = Page(
    "pages/6_Counting_lab.py", "Counting lab", ":material/calculate:", "🧮",
    "how often a pair is counted (overlaps included) against how often one merge replaces it.",
)
PRETOKENIZATION_LAB = Page(
    "pages/7_Pre-tokenization_lab.py", "Pre-tokenization lab", ":material/content_cut:", "✂️",
    "one text cut by every split pattern, and what training learns without one.",
)
BYTE_INSPECTOR = Page(
    "pages/8_Byte_inspector.py", "Byte inspector", ":material/memory:", "🔬",
    "the UTF-8 bytes under every character, and tokens that hold only part of one.",
)
COMPARE = Page(
    "pages/9_Compare.py", "Compare tokenizers", ":material/compare:", "⚖️",
    "one text under ours, GPT-2, GPT-4o and imported tokenizers; where two runs part ways.",
)
IMPORT_EXPORT = Page(
    "pages/10_Import_and_export.py", "Import & export", ":material/import_export:", "📦",
    "this tokenizer as minbpe, Hugging Face, tiktoken or GPT-2 files, and theirs in.",
)
CHECK = Page(
    "pages/11_Check_my_BPE.py", "Check my BPE", ":material/fact_check:", "🩺",
    "the merges your own trainer learned against the reference: where they part, and the one mistake (or two) "
    "that makes them.",
)
CHECK_ENCODER = Page(
    "pages/16_Check_my_encoder.py", "Check my encoder", ":material/rule:", "🧪",
    "the ids your own encoder gave some texts against the tokenizer's: where they part, and the mistake that "
    "makes them, on probe texts that tell every classic mistake apart.",
)

WHY = Page(
    "pages/12_Why_tokenization_matters.py", "Why tokenization matters", ":material/lightbulb:", "💡",
    "what language models get wrong because of their tokenizer (spelling, numbers, languages, code, glitch "
    "tokens...), each under ours and every pretrained tokenizer.",
)

EXTEND = Page(
    "pages/13_Extend_a_tokenizer.py", "Extend a tokenizer", ":material/add_circle:", "➕",
    "GPT-2, Qwen or your own run trained on with new text (a language, code): its merges kept, new ones after them.",
)
HEALTH = Page(
    "pages/14_Vocabulary_health.py", "Vocabulary health", ":material/health_and_safety:", "🩻",
    "the tokens a vocabulary never uses, those no text can reach, and why they become glitch tokens.",
)
PARITY_LAB = Page(
    "pages/15_Parity-aware_lab.py", "Parity-aware lab", ":material/diversity_3:", "🌍",
    "one sentence in 16 languages: classic BPE beside parity-aware BPE, which lets the worst-served language "
    "choose each merge, step by step.",
)

LINEAGE = Page(
    "pages/17_Lineage.py", "Lineage", ":material/account_tree:", "🌳",
    "two tokenizers' merge lists rank by rank: where one extends the other, what each adds, and the family tree "
    "of the pretrained ones.",
)
MIXTURE = Page(
    "pages/18_What_was_it_trained_on.py", "What was it trained on?", ":material/pie_chart:", "🥧",
    "a tokenizer's training mix of languages and code, read back from its merges by a linear program: first on "
    "runs with a known answer, then on real tokenizers.",
)

SUBWORDS = Page(
    "pages/19_Why_subwords.py", "Why subwords", ":material/segment:", "🧩",
    "before the first merge: words leave [UNK]s, characters and bytes make long sequences, merges sit between; "
    "and WordPiece's score, which picks merges another way.",
)

PAGES: tuple[Page, ...] = (
    HOME, SUBWORDS, TRAIN, ENCODE, VOCABULARY, QUIZ, TIE_LAB, COUNTING_LAB, PRETOKENIZATION_LAB, BYTE_INSPECTOR, COMPARE,
    IMPORT_EXPORT, CHECK, CHECK_ENCODER, WHY, EXTEND, HEALTH, PARITY_LAB, LINEAGE, MIXTURE,
)
"""Every page, in the sidebar's order (Streamlit's own list is hidden in config.toml: it would call Home "app")."""

_BY_FILE: Registry[Page] = Registry("page", PAGES, key=attrgetter("file"))


def page_for(file: str) -> Page:
    """The page whose file is ``file`` (``pages/1_Train.py``); a file not registered is a ``KeyError``."""
    return _BY_FILE[file]
