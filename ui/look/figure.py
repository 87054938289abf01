"""Saving a chart the page draws as SVG, as an SVG or a PNG file (``figure.js``).

``figure.js`` is a plain script that a component drawing an SVG carries in front of its own
module (:func:`with_figure`), so the file saved is drawn by the page's own code;
``figure_fonts.js``, after the module, lends the PNG the page's fonts (it fetches them, so
the lecture's offline file, which fetches nothing, goes without it).
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent
FIGURE_JS = (_HERE / "figure.js").read_text(encoding="utf-8")
FONTS_JS = (_HERE / "figure_fonts.js").read_text(encoding="utf-8")


def with_figure(module: str, *, fonts: bool = True) -> str:
    """A component's JavaScript module with ``figure.js``'s functions in front of it and,
    with ``fonts``, ``figure_fonts.js`` after it."""
    return FIGURE_JS + "\n" + module + ("\n" + FONTS_JS if fonts else "")
