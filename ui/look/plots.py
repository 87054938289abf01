"""Plot primitives every lesson shares: handing Plotly a prebuilt figure, the chart config,
and the scatter of labelled (±1) points."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui import words
from ui.look.geometry import Box
from ui.look.palette import MINUS, PLUS

# ``config`` of every chart: no Plotly logo, and the mouse wheel scrolls the page, never
# zooms a chart (a 3-D scene that takes the wheel traps the reader: the page under it stops)
CHART: dict[str, Any] = {"displaylogo": False, "scrollZoom": False}

_STEM = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def saved_as(stem: str, size: tuple[int, int] | None = None) -> dict[str, Any]:
    """``CHART`` with the tool bar's camera button ("Download plot as a PNG") saving the
    chart at twice its size, for a projector, as ``<stem>.png``: its size on screen, or
    ``size`` (width, height in CSS px) for a chart whose column is narrow (Plotly lays it
    out again at that size, so its legend is not cut). The name is the page's own, never a
    dataset's: letters, digits and hyphens only."""
    if not _STEM.fullmatch(stem):
        raise ValueError(f"a figure's file name is [a-z0-9-] only, not {stem!r}")
    options: dict[str, Any] = {"format": "png", "filename": stem, "scale": 2}
    if size is not None:
        options |= {"width": size[0], "height": size[1]}
    return CHART | {"toImageButtonOptions": options}


class _Prebuilt(go.Figure):  # type: ignore[misc]  # plotly ships no types: go.Figure is Any
    """A figure that hands over its dict as built.

    Streamlit 1.67's ``st.plotly_chart`` turns a ``go.Figure`` into JSON through
    ``to_dict()`` and counts it as validated; a plain dict it would first validate by
    building a ``go.Figure`` from it (~0.8 s for a figure with 200 animation frames).
    ``go.Figure(spec, _validate=False)`` is no substitute: it still builds every trace
    and frame as Plotly objects, and ``to_dict`` copies them back (~10x this path).
    ``tests/ui/look/test_look_plots.py`` fails if a Streamlit upgrade takes another path.

    The (empty) ``go.Figure`` underneath is built only when something other than
    ``to_dict`` asks for it (``fig.layout``, ``repr``, ...). A ``go.Figure`` is a
    reference cycle (its layout points back at it), so one built on every chart keeps
    the dict it holds (the lecture's Plotly chart has 3,600 lists and dicts) alive
    until Python's cyclic collector finds it, carried through every generation (with
    the ``go.Figure`` built for nothing: 10-15 % of the server's time in full reruns
    of that page, measured). Without the cycle the dict goes as soon as the page
    lets go of it.
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        self.__dict__["_spec"] = spec  # not BaseFigure.__setattr__: nothing built yet

    def to_dict(self) -> dict[str, Any]:
        return self._spec  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        """Any other attribute of a ``go.Figure``: build the empty figure, once, first."""
        state = self.__dict__
        if "_built" in state:  # built, or being built: a missing attribute is missing
            raise AttributeError(name)
        state["_built"] = True
        go.Figure.__init__(self)
        return getattr(self, name)


def as_figure(spec: dict[str, Any]) -> go.Figure:
    """Wrap a figure dict for ``st.plotly_chart`` without Plotly's slow validation.

    A drag does not zoom unless the figure asks for it (``layout.dragmode``): on a phone a
    chart in Plotly's default zoom mode takes every swipe that starts on it, so a page of
    charts cannot be scrolled. Zoom and pan stay in the chart's tool bar.

    In presenter mode (the session's ``app_presenter``) every text of the chart, the axes'
    ticks and the legend included, is ``PROJECTOR_PX``, and a legend under the chart sits
    lower by as much; with the projector theme on too (``app_projector``), lines are
    ``PROJECTOR_LINE`` and marks ``PROJECTOR_MARK`` times as thick (all on a new dict:
    ``spec`` may be a cached figure's, drawn again next run).

    The chart writes its numbers as the session's language does (Plotly's ``separators``:
    a decimal comma in French, German and Spanish), on a copy of the layout too.
    """
    layout = spec.setdefault("layout", {})
    if isinstance(layout, dict):
        layout.setdefault("dragmode", False)
        decimal, group = words.symbols(words.language())
        if decimal != "." and "separators" not in layout:
            layout = {**layout, "separators": decimal + group}
            spec = {**spec, "layout": layout}
        if _presenting():
            # on a copy: ``spec`` may be a cached figure, drawn next for a session out of
            # presenter mode, or again in presenter mode (where nothing may grow twice)
            layout = {**layout}
            _projector_type(layout)
            spec = {**spec, "layout": layout}
            if _projector() and isinstance(spec.get("data"), list):
                spec = {**spec, "data": [_projector_marks(trace) for trace in spec["data"]]}
    return _Prebuilt(spec)


# The projector theme: on a washed-out projector a 2 px line and a 6 px mark are hard to
# see from the back row; these scale Plotly's (2 px and 6 px unless a trace says otherwise)
PROJECTOR_LINE = 1.75
PROJECTOR_MARK = 1.5
_LINED = {"scatter", "scattergl", "scatterpolar", "scatter3d"}


def _projector_marks(trace: Any) -> Any:
    """``trace`` with its line and markers thicker (a copy; other traces as they are)."""
    if not isinstance(trace, dict) or trace.get("type", "scatter") not in _LINED:
        return trace
    out = dict(trace)
    mode = str(trace.get("mode", "lines+markers"))
    line: dict[str, Any] = trace["line"] if isinstance(trace.get("line"), dict) else {}
    if "lines" in mode or "line" in trace:
        width = line.get("width", 2)
        if isinstance(width, int | float):
            out["line"] = {**line, "width": width * PROJECTOR_LINE}
    marker: dict[str, Any] = trace["marker"] if isinstance(trace.get("marker"), dict) else {}
    if "markers" in mode:
        size = marker.get("size", 6)
        if isinstance(size, int | float):
            out["marker"] = {**marker, "size": size * PROJECTOR_MARK}
        elif isinstance(size, list):
            out["marker"] = {**marker, "size": [v * PROJECTOR_MARK for v in size]}
    return out


# Plotly's text in presenter mode, in px (Plotly's own sizes do not follow the page's rem):
# 12 px ticks are 1.7 % of a 720 px projector's height, under what the back row reads
PROJECTOR_PX = 17


def _projector_type(layout: dict[str, Any]) -> None:
    """Every axis's ticks, the legend and the rest of the text at ``PROJECTOR_PX`` (the
    chart's theme names the ticks' size itself, so each of the figure's axes is set)."""
    size = {"size": PROJECTOR_PX}
    layout["font"] = {**layout.get("font", {}), **size}
    legend = {**layout.get("legend", {}), "font": size}
    y = legend.get("y")
    if legend.get("orientation") == "h" and isinstance(y, int | float) and y < 0:
        # a legend under the chart: the ticks and the axis's title above it grow from
        # Plotly's 12 px, and so does the room they need (else the title runs into it)
        legend["y"] = y * PROJECTOR_PX / 12
    layout["legend"] = legend
    for axis, mine in list(layout.items()):  # the figures' own axes (each has AXIS's format)
        if axis.startswith(("xaxis", "yaxis")) and isinstance(mine, dict):
            layout[axis] = {**mine, "tickfont": {**mine.get("tickfont", {}), **size}}


def _presenting() -> bool:
    """Whether the session on show is in presenter mode (False outside a page's run)."""
    return bool(st.session_state.get("app_presenter", False))


def _projector() -> bool:
    """Whether presenter mode draws in the projector theme (the session's setting)."""
    return bool(st.session_state.get("app_projector", True))


# (label, colour, its name in legends and hover texts), +1 first
LABELS = ((1, PLUS, "+1"), (-1, MINUS, "−1"))


def labelled_points(
    X: np.ndarray,
    y: np.ndarray,
    *,
    symbols: tuple[str, str] = ("circle", "x"),
    marker: dict[str, Any] | None = None,
    name: str = "y = {label}",
    hover: str | None = None,
    index: bool = False,
    digits: int | None = None,
    kind: str = "scatter",
    **extra: Any,
) -> list[dict[str, Any]]:
    """One marker trace per label (+1, then −1) of the points X with labels y.

    The labels differ by colour *and* by marker shape (``symbols``: +1's, −1's), so colour
    is never the only cue. ``{label}`` in ``name`` and ``hover`` (a hovertemplate) becomes
    "+1" or "−1"; ``index`` puts each point's row in ``customdata``; ``digits`` rounds the
    coordinates; ``kind="scatter3d"`` draws the third column as z; ``marker`` and ``extra``
    are merged into the marker and the trace.
    """
    coords = np.asarray(X, dtype=float)
    if digits is not None:
        coords = np.round(coords, digits)
    axes = ("x", "y", "z") if kind == "scatter3d" else ("x", "y")
    out = []
    for (label, colour, text), symbol in zip(LABELS, symbols, strict=True):
        sel = y == label
        trace: dict[str, Any] = {"type": kind}
        trace |= {axis: coords[sel, j].tolist() for j, axis in enumerate(axes)}
        trace |= {
            "mode": "markers",
            "marker": {"color": colour, "symbol": symbol, **(marker or {})},
            "name": name.replace("{label}", text),
        }
        if index:
            trace["customdata"] = np.flatnonzero(sel).tolist()
        if hover is not None:
            trace["hovertemplate"] = hover.replace("{label}", text)
        out.append(trace | extra)
    return out


def plane_axes(box: Box) -> dict[str, Any]:
    """The x1 and x2 axes of a data panel over ``box``, at one
    scale: the panel shrinks rather than stretch either axis."""
    return {
        "xaxis": {"range": [box.x0, box.x1], "title": {"text": "x1"}, "constrain": "domain"},
        "yaxis": {
            "range": [box.y0, box.y1],
            "title": {"text": "x2"},
            "scaleanchor": "x",
            "constrain": "domain",
        },
    }
