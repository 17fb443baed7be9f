"""Streamlit glue shared by the pages: session state, the URL, cached training, shared widgets.

Only this package and the page scripts import Streamlit. Everything that can be computed without
it (HTML, charts, tables, URL parsing) lives in :mod:`bpe.views` and is tested there.
"""
