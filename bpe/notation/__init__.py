"""How a learner reads tokens and text: as plain text (:mod:`.spelling`) and inside Streamlit's
Markdown (:mod:`.markdown`), and WordPiece's scores (:mod:`.scores`). No HTML here: that is ``bpe.views``.
"""
