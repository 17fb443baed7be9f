"""The links a class room hands out, and their QR codes: the students' join link (on the projector)
and the teacher link (on the teacher's controls only, never on the projector)."""

from __future__ import annotations

import os
from ipaddress import ip_address
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from bpe.app import pages

PUBLIC_URL_SETTING = "BPE_LAB_PUBLIC_URL"
"""The address students' phones reach the app at (``http://192.168.1.20:8501``) when the teacher's
browser runs on the server itself and so shows ``localhost``."""


# -- the join link -----------------------------------------------------------------------------------
def public_base() -> tuple[str, str]:
    """``(base URL students open, a warning or "")``: the address the teacher's browser shows;
    when that names this computer itself (no use to a phone), ``BPE_LAB_PUBLIC_URL`` (which
    ``scripts/serve.sh`` sets to the machine's network address), else that address and a warning."""
    page_url = st.context.url or f"http://{st.context.headers.get('Host', 'localhost:8501')}"
    parts = urlsplit(page_url)
    path = parts.path.rstrip("/")
    if path.endswith("/" + pages.QUIZ.url_name):
        path = path[: -len(pages.QUIZ.url_name) - 1]
    base = f"{parts.scheme or 'http'}://{parts.netloc}{path}"
    host = parts.hostname or ""
    try:
        local = host == "localhost" or host.endswith(".localhost") or ip_address(host).is_loopback
    except ValueError:
        local = False
    if not local:
        return base, ""
    configured = os.environ.get(PUBLIC_URL_SETTING, "").rstrip("/")
    if configured:
        return configured, ""
    return base, (f"{host} is this computer's own name: phones need its network address (scripts/serve.sh "
                  f"prints it; or set {PUBLIC_URL_SETTING}).")


def join_link(code: str) -> str:
    return f"{public_base()[0]}/{pages.QUIZ.url_name}?{urlencode({'room': code})}"


def teacher_link(code: str, token: str) -> str:
    """The link that opens the teacher's controls on another device (it holds the key)."""
    return f"{public_base()[0]}/{pages.QUIZ.url_name}?{urlencode({'room': code, 'teacher': token})}"


def qr_image(link: str) -> str:
    """The QR code of ``link`` as an SVG ``data:`` URI (scaled by CSS: sharp on any projector).
    Error correction M: a phone still reads it with 15 % of it lost to glare or a low camera."""
    return segno.make(link, error="m").svg_data_uri(omitsize=True, border=2)
