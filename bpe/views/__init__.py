"""Pure view-model builders for BPE Lab's pages: HTML strings, DataFrames, Altair charts, DOT.

Nothing here imports Streamlit: every builder is a function of a :class:`~bpe.training.trace.Trace` (plus
small inputs) and is unit-tested on its own. The pages in ``pages/`` only call these and draw.
"""
