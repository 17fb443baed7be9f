"""Each step records the ranking a full recount gives: the winner, the tied pairs, the top pairs.

The trainer reads them from count buckets it keeps in order as counts change
(``bpe/training/pair_queue.py``), computes rule keys only when a pair is first ranked, and records the top
pairs as a slice of the tied ones. This recounts every pair before every merge and sorts them by
the rule's sort key in ``bpe/reference.py``, which shares nothing with the trainer.
"""

from hypothesis import given, settings as hypothesis_settings, strategies as st

from bpe import TIE_BREAK_RULES, Corpus, TrainSettings, reference, train
from bpe.training.tiebreak import tie_break_rule


@hypothesis_settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet="aab cd", max_size=80),
    rule=st.sampled_from(list(TIE_BREAK_RULES)),
    top_k=st.integers(0, 14),
    max_ties=st.integers(1, 6),
)
def test_every_step_records_the_ranking_of_a_full_recount(text, rule, top_k, max_ties):
    corpus = Corpus.from_text(text, pretokenizer="gpt2")
    settings = TrainSettings(tie_break=rule, merges=40, min_frequency=1, top_k=top_k, max_ties=max_ties)
    trace = train(corpus, settings)
    words = [(list(word.encode("utf-8")), count) for word, count in corpus.words]
    spelling = {value: bytes([value]) for value in range(256)}
    hf_ids = reference.hugging_face_ids(spelling, "byte")
    key, pick = tie_break_rule(rule).reference
    for step in trace.steps:
        counts = reference.get_stats(words)
        tie = reference.Tie(counts, spelling, hf_ids)
        # within a count the rule's order, then counts from the highest (sorts are stable)
        by_rule = sorted(counts, key=lambda pair: key(pair, tie), reverse=pick is max)
        ranked = sorted(by_rule, key=lambda pair: -counts[pair])
        best = counts[ranked[0]]
        tied = [pair for pair in ranked if counts[pair] == best]

        assert ((step.left, step.right), step.count, step.tie_count) == (ranked[0], best, len(tied))
        assert step.tied == tuple(tied[:max_ties])
        assert [tuple(top) for top in step.top_pairs] == [(*pair, counts[pair]) for pair in ranked[:top_k]]

        words = [(reference.merge(ids, (step.left, step.right), step.new_id), count) for ids, count in words]
        spelling[step.new_id] = spelling[step.left] + spelling[step.right]
