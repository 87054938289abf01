"""ui.look.plots: the one way a prebuilt figure reaches Plotly, and the labelled scatter.

The first tests drive Streamlit's own ``st.plotly_chart`` (its marshalling, not a copy of
it) and fail if an upgrade stops handing our dict over as built: if it calls something
other than our ``to_dict``, or builds (and so validates) a new ``go.Figure`` from the dict.
"""

from __future__ import annotations

import gc
import json
import weakref

import numpy as np
import plotly.graph_objects as go
import pytest
import streamlit as st
from plotly.basedatatypes import BaseFigure
from streamlit.delta_generator import DeltaGenerator

from ui.look.palette import MINUS, PLUS
from ui.look.plots import CHART, as_figure, labelled_points

SPEC = {
    "data": [
        {"type": "scatter", "x": [0.0, 1.5], "y": [2.0, -1.0], "mode": "markers", "name": "a"},
        {"type": "scatter", "x": [1.0], "y": [1.0], "mode": "lines", "name": "b"},
    ],
    "layout": {"height": 333, "xaxis": {"range": [-1, 2]}},
    "frames": [{"name": "1", "data": [{"x": [0.5, 1.0]}], "traces": [0]}],
}


@pytest.fixture
def spy(monkeypatch):
    """Counts go.Figure constructions and calls of our to_dict; keeps what is sent."""
    seen = {"figures": 0, "to_dict": 0, "protos": []}
    init = BaseFigure.__init__

    def counting_init(self, *args, **kwargs):
        seen["figures"] += 1
        init(self, *args, **kwargs)

    def capture(self, name, proto, *args, **kwargs):
        seen["protos"].append((name, proto))
        return self

    monkeypatch.setattr(BaseFigure, "__init__", counting_init)
    monkeypatch.setattr(DeltaGenerator, "_enqueue", capture)
    return seen


def test_plotly_chart_sends_our_dict_as_built_through_our_to_dict(spy, monkeypatch):
    fig = as_figure(SPEC)
    own = type(fig).to_dict

    def counted(self):
        spy["to_dict"] += 1
        return own(self)

    monkeypatch.setattr(type(fig), "to_dict", counted)
    built = spy["figures"]
    st.plotly_chart(fig, config=CHART, key="kit_plots_test")
    assert spy["to_dict"] == 1, "st.plotly_chart no longer asks the figure for its dict"
    assert spy["figures"] == built, "st.plotly_chart built a go.Figure: Plotly validated it"
    ((name, proto),) = spy["protos"]
    assert name == "plotly_chart"
    assert json.loads(proto.spec) == SPEC  # sent as built: frames, no template added
    assert json.loads(proto.config) == CHART


def test_the_spy_sees_the_slow_path_a_plain_dict_takes(spy):
    """The guard above can fail: a dict (what an upgrade might reduce ours to) is rebuilt."""
    st.plotly_chart(SPEC, key="kit_plots_dict")
    assert spy["figures"] >= 1
    ((_, proto),) = spy["protos"]
    assert "template" in json.loads(proto.spec)["layout"]  # Plotly's validation added it


def test_as_figure_is_a_figure_that_holds_the_dict_itself():
    fig = as_figure(SPEC)
    assert isinstance(fig, go.Figure)
    assert fig.to_dict() is SPEC
    go.Figure(fig.to_dict())  # and the dict is valid Plotly


def test_as_figure_builds_no_reference_cycle_but_is_a_whole_figure_on_demand():
    """The dict goes when the page lets go of the figure, without the cyclic collector
    (a go.Figure is a cycle, and would hold a 3,600-list chart through every
    generation); asked for anything but its dict, it is an ordinary (empty) go.Figure."""

    class Marker:
        pass

    marker = Marker()
    alive = weakref.ref(marker)
    spec = {"data": [{"type": "scatter", "x": [0.0], "meta": marker}], "layout": {}}
    del marker
    gc.disable()
    try:
        fig = as_figure(spec)
        assert fig.to_dict() is spec
        del spec, fig
        assert alive() is None, "the figure's dict outlived it: a reference cycle"
    finally:
        gc.enable()
    fig = as_figure(SPEC)
    assert fig.layout.to_plotly_json() == go.Figure().layout.to_plotly_json()
    assert fig.to_dict() is SPEC and not hasattr(fig, "no_such_attribute")
    assert repr(fig)  # Plotly's own repr works on it


def test_labelled_points_split_by_label_with_colour_and_shape():
    X = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]])
    y = np.array([1, -1, 1, -1])
    plus, minus = labelled_points(
        X, y, index=True, hover="y = {label}: %{x}", name="train {label}", legendgroup="g"
    )
    assert plus["x"] == [0.0, 4.0] and plus["y"] == [1.0, 5.0] and plus["customdata"] == [0, 2]
    assert minus["x"] == [2.0, 6.0] and minus["y"] == [3.0, 7.0] and minus["customdata"] == [1, 3]
    assert (plus["marker"]["color"], minus["marker"]["color"]) == (PLUS, MINUS)
    assert plus["marker"]["symbol"] != minus["marker"]["symbol"]  # colour is not the only cue
    assert (plus["name"], minus["name"]) == ("train +1", "train −1")
    assert (plus["hovertemplate"], minus["hovertemplate"]) == ("y = +1: %{x}", "y = −1: %{x}")
    assert plus["legendgroup"] == minus["legendgroup"] == "g"
    go.Figure({"data": [plus, minus]})  # valid Plotly


def test_labelled_points_in_3d_and_rounded():
    Z = np.array([[0.123456, 1.0, 2.0], [3.0, 4.0, 5.654321]])
    plus, minus = labelled_points(Z, np.array([1.0, -1.0]), kind="scatter3d", digits=2)
    assert plus["type"] == "scatter3d" and plus["z"] == [2.0] and plus["x"] == [0.12]
    assert minus["z"] == [5.65]
    assert "customdata" not in plus and "hovertemplate" not in plus
    go.Figure({"data": [plus, minus]})


def test_saved_as_names_the_file_and_asks_for_twice_the_size():
    from ui.look.plots import saved_as

    config = saved_as("perceptron-xor-norm-w")
    assert config["toImageButtonOptions"] == {
        "format": "png",
        "filename": "perceptron-xor-norm-w",
        "scale": 2,
    }
    assert {k: config[k] for k in CHART} == CHART  # the page's defaults kept
    sized = saved_as("perceptron-xor-norm-w", (640, 400))["toImageButtonOptions"]
    assert (sized["width"], sized["height"], sized["scale"]) == (640, 400, 2)
    assert "toImageButtonOptions" not in CHART  # and CHART itself untouched
    for bad in ("Perceptron", "a b", "../x", "x.png", "", "-x", "x-", "<b>"):
        with pytest.raises(ValueError, match="a-z0-9-"):
            saved_as(bad)


def test_the_projector_theme_thickens_a_copy_and_leaves_the_cached_figure_as_it_was(
    monkeypatch,
):
    """In presenter mode with the projector theme, lines and marks grow; the figure passed
    in (a cached one, drawn again at the next run) is not changed, so nothing grows twice."""
    from ui.look import plots

    monkeypatch.setattr(plots, "_presenting", lambda: True)
    monkeypatch.setattr(plots, "_projector", lambda: True)
    cached = {
        "data": [
            {"type": "scatter", "mode": "lines", "x": [0, 1], "y": [0, 1]},
            {"type": "scatter", "mode": "markers", "marker": {"size": 8, "color": "red"}},
            {"type": "scatter", "mode": "lines", "line": {"width": 3, "dash": "dot"}},
            {"type": "heatmap", "z": [[1]]},
        ],
        "layout": {},
    }
    before = json.dumps(cached["data"])
    for _ in range(2):  # two runs of the page
        drawn = plots.as_figure(cached).to_dict()["data"]
        assert drawn[0]["line"]["width"] == pytest.approx(2 * plots.PROJECTOR_LINE)
        assert drawn[1]["marker"] == {"size": 8 * plots.PROJECTOR_MARK, "color": "red"}
        assert drawn[2]["line"] == {"width": 3 * plots.PROJECTOR_LINE, "dash": "dot"}
        assert drawn[3] == {"type": "heatmap", "z": [[1]]}
    assert json.dumps(cached["data"]) == before
    monkeypatch.setattr(plots, "_projector", lambda: False)  # the lecturer turned it off
    assert plots.as_figure(cached).to_dict()["data"] == cached["data"]


def test_presenter_mode_sizes_a_copy_and_a_legend_under_the_chart_moves_down_once(monkeypatch):
    """The projector's 17 px text and the legend under the chart moved down by as much, on
    a copy: the cached figure a session out of presenter mode draws next keeps Plotly's
    sizes, and a second presenter run moves the legend no further."""
    from ui.look import plots

    cached = {
        "data": [{"type": "scatter", "x": [0], "y": [0]}],
        "layout": {"legend": {"orientation": "h", "y": -0.2}, "xaxis": {"title": "t"}},
    }
    before = json.dumps(cached["layout"])
    monkeypatch.setattr(plots, "_presenting", lambda: True)
    for _ in range(2):
        layout = plots.as_figure(cached).to_dict()["layout"]
        assert layout["legend"]["y"] == pytest.approx(-0.2 * plots.PROJECTOR_PX / 12)
        assert layout["xaxis"]["tickfont"] == {"size": plots.PROJECTOR_PX}
    monkeypatch.setattr(plots, "_presenting", lambda: False)
    layout = plots.as_figure(cached).to_dict()["layout"]
    assert layout["legend"] == {"orientation": "h", "y": -0.2}
    assert "tickfont" not in layout["xaxis"] and "font" not in layout
    assert json.dumps({k: v for k, v in cached["layout"].items() if k != "dragmode"}) == before
