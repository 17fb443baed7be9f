"""Each step records the ranking a full recount gives: the winner, the tied pairs, the top pairs.

The trainer reads them from count buckets it keeps in order as counts change
(``bpe/pair_counts.py``), computes rule keys only when a pair is first ranked, and records the top
pairs as a slice of the tied ones. This recounts every pair before every merge and sorts them by
the rule's definition, sharing nothing with the trainer but the merge-replay of ``naive_bpe``.
"""

from hypothesis import given, settings as hypothesis_settings, strategies as st

from bpe import Corpus, TrainSettings, train
from tests.naive_bpe import merge_pair

# rule -> (the order of pairs at one count, from the README's definitions; greatest wins)
RULES = {
    "smallest-ids": (lambda spelling, pair: pair, False),
    "lexicographic-min": (lambda spelling, pair: (spelling[pair[0]], spelling[pair[1]], pair), False),
    "lexicographic-max": (lambda spelling, pair: (spelling[pair[0]], spelling[pair[1]], pair), True),
}


def recount(words: list[list[int]], freqs: list[int]) -> dict[tuple[int, int], int]:
    counts: dict[tuple[int, int], int] = {}
    for ids, freq in zip(words, freqs):
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


@hypothesis_settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet="aab cd", max_size=80),
    rule=st.sampled_from(sorted(RULES)),
    top_k=st.integers(0, 14),
    max_ties=st.integers(1, 6),
)
def test_every_step_records_the_ranking_of_a_full_recount(text, rule, top_k, max_ties):
    corpus = Corpus.from_text(text, pretokenizer="gpt2")
    settings = TrainSettings(tie_break=rule, merges=40, min_frequency=1, top_k=top_k, max_ties=max_ties)
    trace = train(corpus, settings)
    words = [list(word.encode("utf-8")) for word, _ in corpus.words]
    freqs = [count for _, count in corpus.words]
    spelling = [bytes([value]) for value in range(256)]
    key, greatest_wins = RULES[rule]
    for step in trace.steps:
        counts = recount(words, freqs)
        # within a count the rule's order, then counts from the highest (sorts are stable)
        by_rule = sorted(counts, key=lambda pair: key(spelling, pair), reverse=greatest_wins)
        ranked = sorted(by_rule, key=lambda pair: -counts[pair])
        best = counts[ranked[0]]
        tied = [pair for pair in ranked if counts[pair] == best]

        assert ((step.left, step.right), step.count, step.tie_count) == (ranked[0], best, len(tied))
        assert step.tied == tuple(tied[:max_ties])
        assert [tuple(top) for top in step.top_pairs] == [(*pair, counts[pair]) for pair in ranked[:top_k]]

        words = [merge_pair(ids, step.left, step.right, step.new_id) for ids in words]
        spelling.append(spelling[step.left] + spelling[step.right])
