"""The margin lab's drawing surface: a ``st.components.v2`` component of our own.

Inline SVG and pointer events (``canvas.js``, shipped with the app: no CDN, no
third-party component). The browser only draws what Python computed (see
``margin_figures.canvas_scene``) and reports one event per gesture; Python
applies it with the pure reducer in ``edits``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from ui.kit import guard
from ui.kit.palette import BOUND, CURRENT, MINUS, PLUS, STAR, W_COLOUR

EVENTS = ("moved", "added", "flipped", "deleted")


def _swatch(body: str) -> str:
    return f'<svg width="30" height="18" viewBox="-15 -9 30 18" aria-hidden="true">{body}</svg>'


_LEGEND = [
    (_swatch('<circle class="mk plus" r="6"/>'), "+1"),
    (_swatch('<rect class="mk minus" x="-6" y="-6" width="12" height="12"/>'), "−1"),
    (_swatch('<line class="wstar" x1="-14" x2="14"/>'), "w*, the largest margin"),
    (_swatch('<rect class="street" x="-14" y="-7" width="28" height="14"/>'), "the γ band"),
    (_swatch('<circle class="support" r="7"/>'), "support vector"),
    (_swatch('<line class="w" x1="-14" x2="14"/>'), "the perceptron's final line"),
    (_swatch('<circle class="wrong" r="7"/>'), "still wrong"),
    (_swatch('<path class="radius" d="M-14 8 A 22 22 0 0 1 14 -6"/>'), "max ‖x‖"),
]
_HTML = (
    '<div class="mlab"><div class="surface"></div>'
    '<div class="info" aria-live="polite">Hover over a point to see its margins.</div>'
    '<div class="legend">'
    + "".join(f"<span>{icon}{text}</span>" for icon, text in _LEGEND)
    + "</div></div>"
)

_CSS = f"""
.mlab {{ font-family: var(--st-font, sans-serif); color: var(--st-text-color, #31333f); }}
.mlab .surface svg {{ width: 100%; max-width: 760px; height: auto; display: block;
  touch-action: none; user-select: none; -webkit-user-select: none; }}
.mlab.busy .surface {{ cursor: progress; }}
.mlab .bg {{ fill: #ffffff; stroke: #c9c9c9; cursor: crosshair; }}
.mlab.delete-mode .bg {{ cursor: not-allowed; }}
.mlab .grid line {{ stroke: #ececec; stroke-width: 1; }}
.mlab .grid line.axis {{ stroke: #9a9a9a; stroke-width: 1.2; }}
.mlab .grid text {{ font-size: 12px; fill: #6b6b6b; }}
.mlab .grid text.axlabel {{ font-size: 15px; font-style: italic; fill: #31333f; }}
.mlab .street {{ fill: {STAR}; fill-opacity: 0.13; stroke: none; }}
.mlab .radius {{ fill: none; stroke: {BOUND}; stroke-width: 1.5; stroke-dasharray: 2 4; }}
.mlab line.wstar {{ stroke: {STAR}; stroke-width: 3; }}
.mlab line.band {{ stroke: {STAR}; stroke-width: 1.5; stroke-dasharray: 7 5; }}
.mlab line.w {{ stroke: {W_COLOUR}; stroke-width: 3; stroke-dasharray: 12 6; }}
.mlab text.tag {{ font-size: 13px; font-weight: 600; paint-order: stroke; stroke: #fff;
  stroke-width: 4px; dominant-baseline: middle; }}
.mlab text.tag.wstar, .mlab text.tag.band {{ fill: {STAR}; }}
.mlab text.tag.w {{ fill: {W_COLOUR}; }}
.mlab .pt {{ cursor: grab; }}
.mlab.delete-mode .pt {{ cursor: pointer; }}
.mlab .pt.dragging {{ cursor: grabbing; }}
.mlab .pt.plus .mark {{ fill: {PLUS}; }}
.mlab .pt.minus .mark {{ fill: {MINUS}; }}
.mlab .pt .mark {{ stroke: #fff; stroke-width: 1.2; }}
.mlab .pt .glyph {{ fill: #fff; font-size: 14px; font-weight: 700; text-anchor: middle;
  pointer-events: none; }}
.mlab .pt .support {{ fill: none; stroke: {STAR}; stroke-width: 2.5; }}
.mlab .pt .wrong {{ fill: none; stroke: {CURRENT}; stroke-width: 3; stroke-dasharray: 3 2; }}
.mlab .pt .hit {{ fill: transparent; stroke: none; }}
.mlab .pt:hover .mark, .mlab .pt.dragging .mark {{ stroke: #000; stroke-width: 2; }}
.mlab .banner {{ font-size: 15px; font-weight: 600; fill: {MINUS}; paint-order: stroke;
  stroke: #fff; stroke-width: 5px; }}
.mlab .legend {{ display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 13px; color: #444; }}
.mlab .legend span {{ display: inline-flex; align-items: center; gap: 3px; }}
.mlab .legend .mk.plus {{ fill: {PLUS}; }}
.mlab .legend .mk.minus {{ fill: {MINUS}; }}
.mlab .legend .wstar {{ stroke: {STAR}; stroke-width: 3; }}
.mlab .legend .w {{ stroke: {W_COLOUR}; stroke-width: 3; stroke-dasharray: 6 3; }}
.mlab .legend .support {{ fill: none; stroke: {STAR}; stroke-width: 2.5; }}
.mlab .legend .wrong {{ fill: none; stroke: {CURRENT}; stroke-width: 3; stroke-dasharray: 3 2; }}
.mlab .info {{ min-height: 1.4em; font-size: 14px; color: #555; margin-top: 2px; }}
"""

_component = st.components.v2.component(
    "perceptron_lab_margin_canvas",
    html=_HTML,
    css=_CSS,
    js=(Path(__file__).with_name("canvas.js")).read_text(encoding="utf-8"),
    isolate_styles=True,
)


def canvas(
    scene: dict[str, Any],
    *,
    key: str,
    on_edit: Callable[[str, Any], None],
    on_refuse: Callable[[str], None],
) -> None:
    """Draw ``scene`` and call ``on_edit(event, payload)`` once per gesture.

    ``on_edit`` runs as a widget callback, before the page script reruns, for the
    first event of a browser message only, and only if its payload is the size of
    a gesture (``kit.guard``); ``on_refuse(sentence)`` runs for one that is not.
    """
    callbacks = guard.component_callbacks(st.session_state, key, EVENTS, on_edit, on_refuse)
    _component(key=key, data=scene, **callbacks)


_panel = st.components.v2.component(
    "perceptron_lab_svg_panel",
    html='<div class="svgbox"></div>',
    css=".svgbox svg { width: 100%; height: auto; display: block; }",
    js="""export default function (component) {
  const { data, parentElement } = component;
  const box = parentElement.querySelector(".svgbox");
  if (box && data) box.innerHTML = data.svg;  // markup built in Python from numbers only
}""",
    isolate_styles=True,
)


def svg_panel(svg: str, *, key: str) -> None:
    """Show SVG markup built by a pure builder (our own numbers, no user text)."""
    _panel(key=key, data={"svg": svg})
