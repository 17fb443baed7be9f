"""The app's pure model: what a link carries (:mod:`.lab_state`), the training settings the
sidebar offers (:mod:`.setting_specs`) and the app's pages (:mod:`.pages`).

Like all of ``bpe`` it never imports Streamlit (``tests/test_docstring_examples.py`` checks), so it is
tested and doctested without a page; ``ui/`` draws it and keeps it in the session.
"""
