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

from ui import words
from ui.look.figure import with_figure
from ui.look.palette import BOUND, CURRENT, MINUS, PLUS, STAR, W_COLOUR
from ui.server import code as component_code
from ui.server import guard
from ui.words import N_, t

EVENTS = ("moved", "added", "flipped", "deleted", "mode")

# The mode buttons: (mode, label). What each does is in HINTS.
MODES = (
    ("plus", N_("add +1")),
    ("minus", N_("add −1")),
    ("flip", N_("flip")),
    ("delete", N_("delete")),
    ("move", N_("move")),
)
HINTS = {  # the line under the buttons: taps on a touch screen, clicks with a mouse
    "touch": {
        "plus": N_("Tap empty space to add a +1 point. Drag a point to move it."),
        "minus": N_("Tap empty space to add a −1 point. Drag a point to move it."),
        "flip": N_("Tap a point to flip its label. Drag a point to move it."),
        "delete": N_("Tap a point to delete it. Drag a point to move it."),
        "move": N_("Tap a point, then tap where it should go. Or drag it."),
    },
    "mouse": {
        "plus": N_(
            "Click empty space to add a +1 point (shift-click: −1). Drag a point to move it."
        ),
        "minus": N_(
            "Click empty space to add a −1 point (shift-click: +1). Drag a point to move it."
        ),
        "flip": N_("Click a point to flip its label. Drag a point to move it. Alt-click deletes."),
        "delete": N_("Click a point to delete it. Drag a point to move it."),
        "move": N_("Click a point, then click where it should go. Or drag it."),
    },
}


def hints() -> dict[str, dict[str, str]]:
    """:data:`HINTS` in this run's language."""
    return {way: {mode: t(h) for mode, h in said.items()} for way, said in HINTS.items()}


def _words() -> dict[str, str]:
    """What the surface says, in this run's language: its script's sentences and its
    page's labels (none in English: the surface falls back to its messages)."""
    said = words.script_words(_JS)
    if said:
        shown = [label for _, label in MODES] + [text for _, text in _LEGEND] + [*_SAID.values()]
        said |= {m: t(m) for m in shown}
    return said


def _swatch(body: str) -> str:
    return f'<svg width="30" height="18" viewBox="-15 -9 30 18" aria-hidden="true">{body}</svg>'


_LEGEND = [
    (_swatch('<circle class="mk plus" r="6"/>'), "+1"),
    (_swatch('<rect class="mk minus" x="-6" y="-6" width="12" height="12"/>'), "−1"),
    (_swatch('<line class="wstar" x1="-14" x2="14"/>'), N_("w*, the largest margin")),
    (_swatch('<rect class="street" x="-14" y="-7" width="28" height="14"/>'), N_("the γ band")),
    (_swatch('<circle class="support" r="7"/>'), N_("support vector")),
    (_swatch('<line class="w" x1="-14" x2="14"/>'), N_("the perceptron's final line")),
    (_swatch('<circle class="wrong" r="7"/>'), N_("still wrong")),
    (_swatch('<path class="radius" d="M-14 8 A 22 22 0 0 1 14 -6"/>'), N_("max ‖x‖")),
]
# the surface's own words, said in the session's language by words.js's translate(): an
# element's data-tr is its text's message, data-tr-label its aria-label's
_SAID = {
    "tools": N_("What a tap on the picture does"),
    "nums": N_("The theorem's numbers"),
    "save": N_("Save the picture"),
    "save_text": N_("Save the picture:"),
}


def _label(message: str) -> str:
    return f'aria-label="{message}" data-tr-label="{message}"'


_HTML = (
    '<div class="mlab">'
    f'<div class="tools" role="toolbar" {_label(_SAID["tools"])}>'
    + "".join(
        f'<button type="button" data-mode="{mode}" aria-pressed="false" data-tr="{label}">'
        f"{label}</button>"
        for mode, label in MODES
    )
    + '</div><div class="status" role="status" aria-live="polite"></div>'
    '<div class="body"><div class="surface"></div>'
    f'<div class="nums" role="group" {_label(_SAID["nums"])}></div></div>'
    '<div class="legend">'
    + "".join(f'<span data-tr="{text}">{icon}{text}</span>' for icon, text in _LEGEND)
    + f'</div><div class="save" role="group" {_label(_SAID["save"])}>'
    f'<span data-tr="{_SAID["save_text"]}">{_SAID["save_text"]}</span>'
    '<button type="button" data-save="svg">SVG</button>'
    '<button type="button" data-save="png">PNG (2×)</button>'
    '<span class="saved" role="status"></span></div></div>'
)

_CSS = f"""
.mlab {{ font-family: var(--st-font, sans-serif); color: var(--st-text-color, #31333f);
  max-width: 900px; container-type: inline-size; }}
.mlab .tools {{ display: flex; flex-wrap: wrap; gap: 4px; margin-bottom: 2px; }}
.mlab .tools button {{ flex: 1 1 0; min-width: 3.6em; min-height: 40px; padding: 4px 6px;
  font: inherit; font-size: 0.9375rem; color: inherit; background: #fff; border: 1px solid #c4c4c8;
  border-radius: 8px; cursor: pointer; }}
.mlab .tools button[aria-pressed="true"] {{ background: #31333f; color: #fff;
  border-color: #31333f; font-weight: 600; }}
.mlab .tools button[aria-pressed="true"]::before {{ content: "✓ "; }}
.mlab button:focus-visible {{ outline: 3px solid #1c6dd0; outline-offset: 2px; }}
.mlab .surface {{ max-width: var(--fit, none); }} /* presenter mode: canvas.js fitScreen */
.mlab .surface svg {{ width: 100%; height: auto; display: block;
  touch-action: manipulation; user-select: none; -webkit-user-select: none; }}
.mlab.busy .surface {{ cursor: progress; }}
.mlab .bg {{ fill: #ffffff; stroke: #c9c9c9; cursor: crosshair; }}
.mlab[data-mode="flip"] .bg, .mlab[data-mode="delete"] .bg {{ cursor: default; }}
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
.mlab[data-mode="delete"] .pt, .mlab[data-mode="flip"] .pt {{ cursor: pointer; }}
.mlab .pt.dragging {{ cursor: grabbing; }}
.mlab .pt.plus .mark {{ fill: {PLUS}; }}
.mlab .pt.minus .mark {{ fill: {MINUS}; }}
.mlab .pt .mark {{ stroke: #fff; stroke-width: 1.2; }}
.mlab .pt .glyph {{ fill: #fff; font-weight: 700; text-anchor: middle; pointer-events: none; }}
.mlab .pt .support {{ fill: none; stroke: {STAR}; stroke-width: 2.5; }}
.mlab .pt .wrong {{ fill: none; stroke: {CURRENT}; stroke-width: 3; stroke-dasharray: 3 2; }}
.mlab .pt:hover .mark, .mlab .pt.dragging .mark, .mlab .pt.picked .mark {{ stroke: #000;
  stroke-width: 2.5; }}
.mlab .pt.picked .mark {{ stroke-dasharray: 4 2; stroke-width: 3.5; }}
.mlab .banner {{ font-size: 15px; font-weight: 600; fill: {MINUS}; paint-order: stroke;
  stroke: #fff; stroke-width: 5px; }}
.mlab .nums {{ display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 4px;
  margin-top: 4px; }}
.mlab .num {{ border: 1px solid #e3e3e6; border-radius: 8px; padding: 3px 6px;
  min-width: 0; }}
.mlab .num .k {{ font-size: 0.8125rem; color: #555; line-height: 1.2;
  overflow-wrap: anywhere; }} /* a longer language's label wraps, never cut */
.mlab .num .v {{ font-size: 1.375rem; font-weight: 600; line-height: 1.2;
  font-variant-numeric: tabular-nums; overflow-wrap: normal; }}
.mlab .num .d {{ font-size: 0.8125rem; font-variant-numeric: tabular-nums; color: #555; }}
.mlab .num .d.good {{ color: #1e7b34; }}
.mlab .num .d.bad {{ color: #b3261e; }}
.mlab .status {{ min-height: 2.6em; font-size: 0.9375rem; margin: 2px 0; line-height: 1.3; }}
.mlab .status.hint {{ color: #555; }}
.mlab .status.error {{ color: #8a4b00; font-weight: 600; }}
.mlab .status.error::before {{ content: "⚠ "; }}
.mlab .legend {{ display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 0.8125rem; color: #444;
  margin-top: 4px; }}
.mlab .legend span {{ display: inline-flex; align-items: center; gap: 3px; }}
.mlab .legend .mk.plus {{ fill: {PLUS}; }}
.mlab .legend .mk.minus {{ fill: {MINUS}; }}
.mlab .legend .wstar {{ stroke: {STAR}; stroke-width: 3; }}
.mlab .legend .w {{ stroke: {W_COLOUR}; stroke-width: 3; stroke-dasharray: 6 3; }}
.mlab .legend .support {{ fill: none; stroke: {STAR}; stroke-width: 2.5; }}
.mlab .legend .wrong {{ fill: none; stroke: {CURRENT}; stroke-width: 3; stroke-dasharray: 3 2; }}
.mlab .save {{ display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px;
  margin-top: 6px; font-size: 0.8125rem; color: #444; }}
.mlab .save button {{ font: inherit; font-size: 0.8125rem; color: inherit; background: #fff;
  border: 1px solid #c4c4c8; border-radius: 8px; padding: 4px 12px; min-height: 40px;
  cursor: pointer; }}
@container (min-width: 500px) {{ /* wide: the numbers beside the picture, in view with it */
  .mlab .body {{ display: grid; grid-template-columns: minmax(0, var(--fit, 1fr)) 9em;
    gap: 8px; align-items: start; }}
  .mlab .nums {{ grid-template-columns: 1fr; margin-top: 0; }}
}}
@media (max-width: 640px) {{
  .mlab .tools button {{ font-size: 0.875rem; padding: 4px 2px; min-width: 0; }}
  .mlab .num .v {{ font-size: 1.125rem; }}
  .mlab .num .k, .mlab .num .d {{ font-size: 0.75rem; }}
}}
"""

_JS = Path(__file__).with_name("canvas.js").read_text(encoding="utf-8")
_component = component_code.component(
    "perceptron.margin_canvas",
    html=_HTML,
    css=_CSS,
    # figure.js's functions first: Save the picture draws the file from the one on the page;
    # then words.js's tr, which the surface says its sentences with
    js=with_figure(words.SCRIPT + "\n" + _JS),
    isolate_styles=True,
)


def canvas(
    scene: dict[str, Any],
    *,
    key: str,
    on_edit: Callable[[str, Any], None],
    on_refuse: Callable[[str], None],
    fit: bool = False,
) -> None:
    """Draw ``scene`` and call ``on_edit(event, payload)`` once per gesture; with ``fit``
    (presenter mode) the picture is no taller than the screen below its top.

    ``on_edit`` runs as a widget callback, before the page script reruns, for the
    first event of a browser message only, and only if its payload is the size of
    a gesture (``ui.server.guard``); ``on_refuse(sentence)`` runs for one that is not.
    """
    callbacks = guard.component_callbacks(st.session_state, key, EVENTS, on_edit, on_refuse)
    _component(
        key=key,
        data={**scene, "hints": hints(), "fit": fit, "words": _words()},
        **callbacks,
    )


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
