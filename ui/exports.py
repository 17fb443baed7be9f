"""A tokenizer's files for download, one card per format (:mod:`bpe.views.exports` builds the offers):
the Import & export page's for a run at a step, the Extend page's for an extended tokenizer."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bpe.notation.markdown import escape_markdown
from bpe.views.exports import ExportOffer, download_name, holders_line, mime_type

from .state import widget_key


def download_cards(offers: Sequence[ExportOffer], *, stem: str, key: str = "download") -> None:
    """Which formats hold this tokenizer, in one line; then two cards a row: each format's files as
    download buttons, or why it cannot hold this tokenizer."""
    st.markdown(holders_line(offers))
    for row in range(0, len(offers), 2):
        for column, offer in zip(st.columns(2), offers[row:row + 2]):
            with column.container(border=True):
                st.markdown(f"**{offer.title}**")
                st.caption(offer.note)
                if offer.problem:
                    st.info(escape_markdown(offer.problem), icon=":material/block:")
                    continue
                buttons = st.container(horizontal=True)  # wraps onto a second line when the card is narrow
                for name, data in offer.files.items():
                    buttons.download_button(
                        name, data, file_name=download_name(stem, name), mime=mime_type(name),
                        key=widget_key(key, offer.format, name), icon=":material/download:", on_click="ignore",
                    )
                if offer.zip_name:
                    buttons.download_button(
                        "both as .zip", offer.zip_bytes(), file_name=offer.zip_name, mime="application/zip",
                        key=widget_key(key, offer.format, "zip"), icon=":material/folder_zip:", on_click="ignore",
                    )
