"""The code panel on Train and Encode: the lines of bpe/reference.py a step runs, with the values the
reference itself computes at that step (not the page's own figures)."""

from __future__ import annotations

import html

from bpe import PRESETS, Tokenizer, reference, train

from .apptest_support import ENCODE, TRAIN, open_page


def code_html(at) -> str:
    found = [element.value for element in at.html if 'class="bpe-code"' in element.value]
    assert len(found) == 1
    return html.unescape(found[0])


def test_trains_code_tab_shows_the_loop_with_the_merge_the_reference_makes():
    at = open_page(TRAIN, preset="wikipedia", step="2")
    at.session_state["w.tables"] = "The code"
    at.run()
    assert not at.exception
    shown = code_html(at)
    preset = PRESETS["wikipedia"]
    made = reference.train(dict(preset.corpus().words), 2, tie_break=preset.settings.tie_break)
    assert repr(made[1]) in shown  # Merge(pair=(97, 98), count=2, new_id=257)
    assert "pair = break_tie(tied, Tie(stats, vocab, hf), tie_break)" in shown
    assert '"lexicographic-min": (spelling, min),' in shown


def test_encodes_code_panel_follows_the_chosen_chunk_and_merge():
    at = open_page(ENCODE, preset="sennrich", step="10", text=" lowest")
    assert not at.exception
    trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    ranks = {(left, right): new_id for left, right, new_id in Tokenizer.from_trace(trace).merges}
    ids = list(b" lowest")
    merges = at.selectbox(key="w.code.merge").options
    assert len(merges) >= 2
    for index in range(len(merges)):  # each merge as the reference's own loop applies it
        at.selectbox(key="w.code.merge").set_value(index).run()
        pair = min(reference.get_stats([(ids, 1)]), key=lambda p: ranks.get(p, float("inf")))
        ids = reference.merge(ids, pair, ranks[pair])
        shown = code_html(at)
        assert f"pair = {pair}:" in shown and f"ids = {ids}" in shown and "chunk ' lowest'" in shown
