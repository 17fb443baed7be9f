"""Presenter mode: large type for a projector, as a font scale for chart specs.

The page decides *whether* to present (a session key, ``present=1`` in the URL); this module only
says *how charts look*: :func:`scale_fonts` enlarges every font in a Vega-Lite spec (Altair's
``chart.to_dict()``), since the page's CSS (``ui.page_css.PRESENTER_CSS``, which styles Streamlit's
own markup and so lives with the app) cannot reach the text a chart draws in its own SVG.

    >>> spec = {"mark": {"type": "text", "fontSize": 14}, "encoding": {"y": {"axis": {"labelFontSize": 15}}}}
    >>> scaled = scale_fonts(spec, 2)
    >>> scaled["mark"]["fontSize"], scaled["encoding"]["y"]["axis"]["labelFontSize"]
    (28, 30)
    >>> spec["mark"]["fontSize"]             # the input is left alone (it may be a cached template)
    14
    >>> scaled["config"]["axis"]["labelFontSize"]   # defaults for fonts the spec leaves to Vega-Lite
    22

Scope: charts' looks only. Out of scope: the toggle and the URL (``ui``), the page's CSS
(``ui.page_css``), and layout changes such as a collapsed sidebar (``st.set_page_config``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

PRESENTER_SCALE = 1.6
"""How much larger chart fonts are in presenter mode (a little more than text: charts are read from afar)."""
PRESENTER_STEP_SCALE = 1.35
"""How much taller a band (a bar of the pair chart) is in presenter mode: enough for its larger label
(14 px x 1.6 in a 21 x 1.35 = 28-pixel band), so ten bars fit a 720-pixel screen beside the corpus."""

# Vega-Lite's own defaults for the fonts a spec does not set (axis labels 10, titles 11, ...).
_DEFAULT_FONTS: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "axis": MappingProxyType({"labelFontSize": 11, "titleFontSize": 11}),
    "legend": MappingProxyType({"labelFontSize": 11, "titleFontSize": 11}),
    "header": MappingProxyType({"labelFontSize": 11, "titleFontSize": 11}),
    "title": MappingProxyType({"fontSize": 13}),
    "text": MappingProxyType({"fontSize": 11}),
})

def scale_fonts(spec: Mapping[str, Any], scale: float, *, step_scale: float | None = None) -> dict[str, Any]:
    """A copy of ``spec`` with every font size times ``scale`` and every band ``step`` times
    ``step_scale`` (``scale`` if not given)."""
    scaled = _scale(spec, scale, scale if step_scale is None else step_scale)
    if isinstance(scaled.get("height"), (int, float)):  # a fixed height must make room for the larger title
        scaled["height"] = round(scaled["height"] * scale)
    config = scaled.setdefault("config", {})
    for group, fonts in _DEFAULT_FONTS.items():
        settings = config.setdefault(group, {})
        for key, size in fonts.items():
            settings.setdefault(key, round(size * scale))
    return scaled


_DATA_KEYS = frozenset({"data", "datasets", "params"})
"""Never scaled: rows may have a field named ``step`` (the compression chart's x)."""


def _scale(value: Any, scale: float, step_scale: float) -> Any:
    if isinstance(value, Mapping):
        return {
            key: (
                item if key in _DATA_KEYS
                else round(item * (step_scale if key == "step" else scale)) if _is_size(key, item)
                else _scale(item, scale, step_scale)
            )
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_scale(item, scale, step_scale) for item in value]
    return value


def _is_size(key: str, value: Any) -> bool:
    # subtle: a band's {"step": 30} must grow with its labels, or large labels overlap
    return isinstance(value, (int, float)) and not isinstance(value, bool) and (
        key.endswith("FontSize") or key in ("fontSize", "step")
    )
