"""A hostile value in every link parameter, on the page (AppTest): no traceback, nothing of it drawn
as markup, and each lab parameter's value shown back as text (in a warning, the narration or its box).

The parameters come from the registries (``tests/hostile_links.py``); the real browser, where
script would run, is ``test_browser_hostile.py``. The end-of-word marker goes furthest: a link's
``eow`` is trained with and told in the narration's plain sentences, which are HTML-escaped
(``bpe/views/narration.py``); the view test below fails if that escape is removed.
"""

from __future__ import annotations

import html

import pytest

from bpe.training.presets import PRESETS
from bpe.training.trainer import train
from bpe.views.narration import narrate_step

from .apptest_support import TRAIN, html_with, narration, open_page, plain, unescape_markdown
from .hostile_links import hostile, lab_links, page_params

UNESCAPED = "<svg/onload"


def drawn_markup(at) -> list[str]:
    """Everything the page hands the browser as HTML."""
    return [element.value for element in at.html] + [element.value for element in at.markdown if element.allow_html]


def shown_text(at) -> str:
    """What a reader sees: drawn text, messages and the values in the boxes."""
    parts = [plain(markup) for markup in drawn_markup(at)]
    parts += [unescape_markdown(element.value) for kind in (at.markdown, at.warning, at.error, at.info) for element in kind]
    parts += [str(widget.value) for kind in (at.text_input, at.text_area) for widget in kind]
    return "\n".join(parts)


def test_a_hostile_value_in_every_lab_link_parameter_is_shown_as_text_never_as_markup():
    at = open_page(TRAIN, **lab_links())
    assert not at.exception
    assert not [markup for markup in drawn_markup(at) if UNESCAPED in markup]
    shown = shown_text(at)
    assert [param for param, value in lab_links().items() if value not in shown] == []


def test_an_end_of_word_marker_from_a_link_is_told_in_the_narration_as_text():
    at = open_page(TRAIN, preset="sennrich", eow=hostile("eow"))
    assert not at.exception
    assert hostile("eow") in narration(at)
    assert UNESCAPED not in html_with(at, "bpe-narration")


@pytest.mark.parametrize("page, param", [(page, param) for page, params in page_params().items() for param in sorted(params)])
def test_a_hostile_value_in_each_pages_own_link_parameter_draws_no_markup(page, param):
    at = open_page(page, **{param: hostile(param)})
    assert not at.exception
    assert not [markup for markup in drawn_markup(at) if UNESCAPED in markup]


def test_the_narration_escapes_the_end_of_word_marker_in_its_plain_sentences():
    settings = PRESETS["sennrich"].settings
    marker = hostile("eow")
    trace = train(PRESETS["sennrich"].corpus(), settings.__class__.from_dict({**settings.to_dict(), "end_of_word": marker}))
    for step in (0, 1):
        markup = narrate_step(trace, step).to_html()
        assert UNESCAPED not in markup
    assert html.escape(marker) in narrate_step(trace, 0).to_html()
