"""A learner's merges file with a line repeated is read with the repeat kept, never refused or thinned.

A repeated merge is what a buggy trainer writes (it merged a pair again: ``bpe/checking/rules.py``),
so Check my BPE must see it. Files shaped like a format's (subword-nmt's codes, GPT-2's
``vocab.bpe``, both ``#version: 0.2`` then a merge a line) would otherwise go to that format's
reader, which drops a repeat (subword-nmt's, as ``apply_bpe`` does) or refuses it (GPT-2's).
(Written against today's ``bpe/checking/learner.py``, which issue 47's owner may move.)
"""

from __future__ import annotations

import pytest

from bpe.checking.learner import read_learner_merges

REPEATED = {
    "subword-nmt codes": ("#version: 0.2\nl o\nlo w</w>\nl o\n", [(b"l", b"o"), (b"lo", b"w</w>"), (b"l", b"o")]),
    "GPT-2 vocab.bpe": ("#version: 0.2\nĠ t\nh e\nĠ t\n", [(b" ", b"t"), (b"h", b"e"), (b" ", b"t")]),
}


@pytest.mark.parametrize("shaped_like", list(REPEATED))
def test_a_repeated_line_is_kept_as_the_learner_wrote_it(shaped_like):
    text, pairs = REPEATED[shaped_like]
    assert list(read_learner_merges(text, name="merges.txt").pairs) == pairs
