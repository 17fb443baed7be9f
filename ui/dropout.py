"""Encode & decode's BPE-dropout section: one word (or phrase) encoded many times, its segmentations
counted, each drawn as chips (``bpe.views.dropout``), with the probability of skipping a merge, the
number of samples, the seed and the owner's rule as controls kept in the link (``dropout``,
``samples``, ``seed``, ``droprule``: the same link draws the same samples).

A sample is a pure function of the tokenizer, the text, p, the number of samples, the seed and the
rule, so it is built once for the whole server (``ui.shared_views``), like an encode.
"""

from __future__ import annotations

from types import MappingProxyType

import streamlit as st

from bpe.encoding.dropout import DROPOUT_RULES, Dropout, sample_segmentations
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.limits import MAX_DROPOUT_CHARS, MAX_DROPOUT_SAMPLES, MAX_DROPOUT_WORK
from bpe.notation.markdown import escape_markdown
from bpe.teaching.reference_code import dropout_lines
from bpe.views.code_panel import CODE_PANEL_CSS, code_panel_html
from bpe.views.dropout import DROPOUT_CSS, default_word, dropout_stats, histogram_html, samples_html
from bpe.views.encoding import ENCODE_MODES
from bpe.views.stats import stats_html

from . import links, url
from .render import show_html
from .shared_views import shared_view, text_key
from .state import SessionValue, widget_key

STEPS = links.DROPOUT_STEPS
"""The values of p a lesson walks (a slider's stops: arrow keys, or a clicker's, step through them)."""
P = SessionValue("dropout_p", links.DROPOUT.default)
SAMPLES = SessionValue("dropout_samples", links.SAMPLES.default)
SEED = SessionValue("dropout_seed", links.SEED.default)
RULE = SessionValue("dropout_rule", links.DROP_RULE.default)
WORD = SessionValue("dropout_word", None)
"""The text sampled; ``None``: the longest word of the text being encoded (``WORD_FOR`` remembers which)."""
WORD_FOR = SessionValue("dropout_word_for", None)
WHOLE_TEXT_SAMPLES = 3
WHOLE_TEXT_CHARS = 300


LINKED = MappingProxyType({links.DROPOUT: P, links.SAMPLES: SAMPLES, links.SEED: SEED, links.DROP_RULE: RULE})
"""Each of the section's link parameters (declared in ``ui/links.py``) and the value it sets."""


def opened() -> bool:
    """Whether the section opens unfolded: a link or the learner set one of its values."""
    return bool(link_params()) or any(url.linked(param) for param in LINKED)


def link_params() -> dict:
    """The section's state for the address bar (each written only when it differs from its default)."""
    return {param: value.get() for param, value in LINKED.items()}


def _new_seed() -> None:
    SEED.set(SEED.get() + 1)


def controls(tokenizer: Tokenizer, rules: list[str]) -> None:
    left, middle, right = st.columns([2, 2, 1.2], vertical_alignment="bottom")
    left.text_input("Word or phrase to sample", max_chars=MAX_DROPOUT_CHARS, **WORD.widget())
    middle.select_slider(
        "p: the chance that each merge is skipped", STEPS, format_func=lambda p: f"{p:g}", **P.widget(options=STEPS),
    )
    right.number_input("Samples", min_value=1, max_value=MAX_DROPOUT_SAMPLES, step=100, **SAMPLES.widget(convert=int))
    seed_column, button_column, rule_column = st.columns([1, 1, 2.2], vertical_alignment="bottom")
    seed_column.number_input("Seed", min_value=0, max_value=2**31, step=1, **SEED.widget(convert=int))
    button_column.button("Draw again", icon=":material/casino:", key=widget_key("dropout", "again"), on_click=_new_seed,
                         help="The next seed: new samples, still reproduced by the link.")
    if len(rules) > 1:
        rule_column.radio(
            "Whose BPE-dropout", rules, horizontal=True, format_func=lambda name: DROPOUT_RULES[name].title,
            **RULE.widget(options=rules),
        )


def dropout_section(tokenizer: Tokenizer, text: str, anchor: tuple, *, mode: str) -> None:
    """The controls, the sample's numbers, the histogram, three samples of the whole text and the code.
    ``anchor``: what the tokenizer comes from, to share the samples on; ``mode``: how the page reads
    special-token text (a key of :data:`bpe.views.encoding.ENCODE_MODES`)."""
    specials = ENCODE_MODES[mode]
    url.read_links(LINKED)
    if WORD.get() is None or WORD_FOR.get() != text_key(text):
        WORD.set(default_word(tokenizer, text))
        WORD_FOR.set(text_key(text))
    rules = [name for name, rule in DROPOUT_RULES.items() if rule.unavailable(tokenizer) is None]
    controls(tokenizer, rules)
    rule = RULE.among(rules)
    st.caption(
        f"**{DROPOUT_RULES[rule].title}'s rule:** {escape_markdown(DROPOUT_RULES[rule].summary)} "
        f"({escape_markdown(DROPOUT_RULES[rule].used_by)})."
        + ("" if len(rules) > 1 else " SentencePiece's rule runs on SentencePiece-style tokenizers (the sentencepiece split).")
    )
    word, p, seed = WORD.get() or " ", P.get(), SEED.get()
    try:
        symbols = sum(len(walk.initial) for walk in tokenizer.encode_walkthrough(word, **specials)) or 1
        samples = max(1, min(SAMPLES.get(), MAX_DROPOUT_WORK // symbols))
        sample = shared_view(*anchor, "dropout", mode, text_key(word), p, samples, seed, rule, build=lambda: sample_segmentations(
            tokenizer, word, p=p, samples=samples, seed=seed, rule=rule, **specials,
        ))
    except BpeError as error:
        st.error(f"**Cannot sample this text:** {escape_markdown(error)}", icon="🛑")
        return
    if samples < SAMPLES.get():
        st.caption(f"This text has {symbols:,} starting symbols: {samples:,} samples are the most a page draws for it.")
    show_html(f'{DROPOUT_CSS}<div class="bpe-dropout-stats">{stats_html(dropout_stats(sample))}</div>{histogram_html(sample, tokenizer)}')
    st.caption(
        "Each row is one way the samples cut the text, most frequent first; the bar is its share of the samples. "
        "*exact* is its probability, worked out by following every draw the rule can make (short words only): "
        "a few hundred samples wander around it. BPE-dropout trains a model on such varied cuts (Provilkov et al., "
        "2020), though the samples favour a few of them (Cognetta et al., 2024)."
    )
    whole = text[:WHOLE_TEXT_CHARS]
    runs = shared_view(*anchor, "dropout text", mode, text_key(whole), p, seed, rule,
                       build=lambda: _whole_text(tokenizer, whole, p, seed, rule, specials))
    if runs:
        st.markdown(f"**{WHOLE_TEXT_SAMPLES} samples of the text being encoded**" + (" (its first 300 characters)" if len(text) > WHOLE_TEXT_CHARS else ""))
        show_html(samples_html(runs, tokenizer))
    # a toggle, not an expander: a folded expander's content is still built and sent, and it would nest in the page's
    if st.toggle("The code: bpe/reference.py's BPE-dropout loop, over one sample of the word", key=widget_key("dropout", "code")):
        dropout = Dropout(tokenizer, p=p, seed=seed, rule=rule)
        chunks = [chunk for chunk in dropout.chunks(word, **specials) if len(chunk) > 1] or [tuple(sample.plain)]
        show_html(CODE_PANEL_CSS + code_panel_html(dropout_lines(dropout, chunks[0], tokenizer.token_text),
                                                   label="bpe/reference.py, the BPE-dropout loop"))
        st.caption(
            "`encode_chunk_dropout` is Hugging Face's loop written plainly; the fast one is tested against it draw for draw, "
            "and each rule against its owner's library (tests/test_dropout.py)."
        )


def _whole_text(tokenizer: Tokenizer, text: str, p: float, seed: int, rule: str, specials: dict) -> list[list[int]]:
    """A few samples of ``text``, one after another from one seed (empty if it cannot be encoded)."""
    try:
        dropout = Dropout(tokenizer, p=p, seed=seed, rule=rule)
        chunks = dropout.chunks(text, **specials)
    except BpeError:
        return []
    return [dropout.merge(chunks) for _ in range(WHOLE_TEXT_SAMPLES)]
