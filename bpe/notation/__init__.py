"""How a learner reads tokens and text: as plain text (:mod:`.spelling`) and inside Streamlit's
Markdown (:mod:`.markdown`). No HTML here: that is ``bpe.views``.
"""
