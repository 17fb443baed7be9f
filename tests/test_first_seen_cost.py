"""The first-seen index rescans a word at most once per merge, however many pairs the merge makes
there: with the ``none`` split a whole text is one word, and a rescan per created pair made
training a long text take minutes (16 merges of python-docs: 281 s)."""

from bpe import Corpus, TrainSettings, train
from bpe.training.first_seen import FirstSeenIndex

# One word holding many distinct pairs around the pair merged first ("th"), so each merge creates
# dozens of new pairs in that one word.
LONG_TEXT = " ".join(f"th{chr(97 + i % 26)}{chr(97 + i * 7 % 26)}" for i in range(2_000))


def test_a_merge_rescans_the_one_long_word_once_not_once_per_created_pair(monkeypatch):
    scans = []
    original = FirstSeenIndex._first_offsets
    monkeypatch.setattr(FirstSeenIndex, "_first_offsets", lambda self, ids: scans.append(len(ids)) or original(self, ids))
    merges = 10
    trace = train(Corpus.from_text(LONG_TEXT, pretokenizer="none"),
                  TrainSettings(pretokenizer="none", tie_break="first-seen", merges=merges))
    assert len(trace.steps) == merges
    assert trace.steps[0].tie_count == 1 and (trace.steps[0].left, trace.steps[0].right) == (ord("t"), ord("h"))
    # one scan to build the index, then at most two per merge (the rewritten word, and a search)
    assert len(scans) <= 1 + 2 * merges, f"{len(scans)} scans of the word for {merges} merges"
