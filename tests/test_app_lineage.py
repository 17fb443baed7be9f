"""The Lineage and "What was it trained on?" pages, run headless with AppTest.

Expected values come from the engine called here (``lineage``, ``mix_error``), never from the page's
own output; a job that runs in the worker is waited for by its content (the result's table), within
a time limit scaled to the machine.
"""

from __future__ import annotations

import time

import pytest

from bpe import lineage
from bpe.teaching.lineage import LINEAGE_PLACES
from bpe.analysis.mixture import mix_error

from ui.clicker import NEXT

from .apptest_support import errors, open_page, plain, unescape_markdown
from .machine_speed import scaled
from .shared_tokenizers import shared_pretrained

LINEAGE = "pages/17_Lineage.py"
MIXTURE = "pages/18_What_was_it_trained_on.py"


def markdown(at) -> str:
    return "\n".join(unescape_markdown(element.value) for element in at.markdown)


def test_llama3_against_gpt4_says_it_extends_it_by_its_own_ranks():
    at = open_page(LINEAGE, a="cl100k_base", b="llama3", view="ranks")
    assert not at.exception and not errors(at)
    facts = lineage(shared_pretrained("cl100k_base"), shared_pretrained("llama3"))
    assert facts.relation == "b extends a"
    shown = markdown(at)
    assert "extends" in shown and f"{facts.common_prefix:,}" in shown
    assert not {"a", "b", "view"} & set(at.query_params)  # all three the defaults: the link leaves them out


def test_the_new_tokens_view_groups_llama3s_27744_by_kind_with_arabic_among_them():
    at = open_page(LINEAGE, a="cl100k_base", b="llama3", view="new")
    assert not at.exception and not errors(at)
    kinds = at.pills[1].options if len(at.pills) > 1 else []
    assert {"Arabic", "Thai", "Cyrillic"} <= set(kinds), kinds
    assert at.query_params["view"] == "new"


def test_pagedown_walks_every_place_in_order_and_the_link_follows():
    at = open_page(LINEAGE, a="gpt2", b="mistral-v1")
    seen = [at.query_params.get("view", LINEAGE_PLACES[0].key)]
    for _ in LINEAGE_PLACES[1:]:
        at.button(key=NEXT).click().run()
        assert not at.exception and not errors(at)
        seen.append(at.query_params["view"])
    assert seen == [place.key for place in LINEAGE_PLACES]
    assert at.query_params["a"] == "gpt2" and at.query_params["b"] == "mistral-v1"


def test_a_bad_link_says_what_it_must_be_and_keeps_the_page():
    at = open_page(LINEAGE, a="no-such-tokenizer", view="sideways")
    assert not at.exception
    warned = " ".join(warning.value for warning in at.warning)
    assert "a must be one of" in unescape_markdown(warned) and "view must be one of" in unescape_markdown(warned)


def wait_for(at, done, *, seconds: float):
    deadline = time.monotonic() + scaled(seconds)
    while not done(at):
        assert time.monotonic() < deadline, "the job did not finish in time"
        time.sleep(0.5)
        at.run()
    return at


def test_a_known_mix_is_trained_inferred_and_shown_beside_its_truth():
    at = open_page(MIXTURE, mix="eng:50,fra:30,code:20", merges="300")
    assert not at.exception and not errors(at)
    assert at.query_params["mix"] == "eng:50,fra:30,code:20" and at.query_params["merges"] == "300"
    run = next(button for button in at.button if button.label == "Train and infer")
    run.click().run()
    at = wait_for(at, lambda at: any("true share" in frame.value.columns for frame in at.dataframe), seconds=120)
    assert not at.exception and not errors(at)
    frame = next(frame.value for frame in at.dataframe if "true share" in frame.value.columns)
    truth = dict(zip(frame["category"], frame["true share"]))
    inferred = dict(zip(frame["category"], frame["inferred share"]))
    assert truth["English"] == pytest.approx(0.5) and truth["Code"] == pytest.approx(0.2)
    assert mix_error(inferred, truth) <= 0.02
    assert "off by" in plain(markdown(at)) and "3 weighed" in plain(markdown(at))


def test_a_bad_mix_in_the_link_is_one_warning_and_the_default_mix_stays():
    at = open_page(MIXTURE, mix="eng:50,klingon:50")
    assert not at.exception
    assert any("mix must be two or more of" in unescape_markdown(warning.value) for warning in at.warning)
    assert at.query_params["mix"] == "eng:40,fra:20,hin:10,code:30"
