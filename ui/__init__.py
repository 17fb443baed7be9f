"""Streamlit glue shared by the pages: session state, the URL, cached training, shared widgets.

Only this package and the page scripts import Streamlit. Everything that can be computed without
it lives in ``bpe`` and is tested there: HTML, charts and tables in :mod:`bpe.views`; the state a
link carries, the settings and the pages in :mod:`bpe.app`.
"""
