"""Driving Streamlit's widgets from Playwright as a learner does, for the browser tests."""

from __future__ import annotations


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label``.

    The option's name is typed first, as a learner filters a long list: Streamlit draws only the
    options that fit in the open list (a virtual list), so on a laptop-sized window a later option
    is not on the page until the list is filtered or scrolled.
    """
    page.get_by_role("combobox", name=label, exact=True).click()
    page.keyboard.type(option)
    page.get_by_role("option", name=option, exact=True).click()
