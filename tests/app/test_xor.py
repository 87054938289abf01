"""The Beyond linear page through AppTest: XOR never stops, the witness, the feature map,
the lifted points that coincide, the remedies' lines that coincide, and plain numbers."""

import json
import re

import numpy as np
import pytest
from apptest_helpers import assert_plain_numbers, markdown, open_app, open_page, plain_perceptron
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset
from ui.xor import runs, view


def beyond(query: dict[str, str] | None = None) -> AppTest:
    return open_page("pages/xor.py", query)


def test_xor_corners_never_converge_and_the_cycle_is_named():
    at = beyond({"xor_epochs": "20"})
    error = " ".join(e.value for e in at.error)
    assert "XOR corners" in error and "in 20 epochs" in error
    cycle = next(i.value for i in at.info if "A cycle" in i.value)
    assert "repeat exactly every" in cycle and "steps (" in cycle
    table = at.dataframe[0].value  # the cycle's weight vectors, counted from 1
    assert list(table["in the cycle"]) == list(range(1, len(table) + 1))
    assert f"the same {len(table)} weight vectors for ever" in cycle


def test_the_witness_is_the_centre_of_the_xor_square():
    at = beyond()
    latex = " ".join(x.value for x in at.latex)
    assert r"z &= (0,\ 0)" in latex
    assert "no bound" in markdown(at)


@pytest.mark.parametrize(
    ("fmap", "verdict"),
    [("identity", "does not converge"), ("product", "converges"), ("quadratic", "converges")],
)
def test_which_feature_maps_make_xor_separable(fmap, verdict):
    at = beyond({"xor_map": fmap})
    assert f"the perceptron **{verdict}**" in markdown(at)


def test_the_kernel_perceptron_agrees_with_the_explicit_map():
    text = markdown(beyond())
    assert "the same steps" in text and "NOT" not in text
    assert "same prediction on 2,000 of 2,000" in text


def test_a_separable_dataset_has_no_witness_and_converges():
    at = beyond({"xor_data": "shared", "data_name": "separable"})
    assert any("separable" in s.value for s in at.success)
    assert not at.info  # no cycle


def test_a_tampered_feature_map_falls_back_with_a_notice():
    at = open_app(query={"xor_map": "cubic"})
    assert not at.exception
    assert any("xor_map" in w.value for w in at.warning)


def figure(at: AppTest, key: str) -> dict:
    """The Plotly figure the page drew with this widget key, as the browser gets it."""
    (chart,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)


@pytest.mark.parametrize(
    "query",
    [
        {},  # XOR's corners
        {"xor_data": "shared", "data_name": "xor", "data_n": "500", "xor_epochs": "200"},
        {"xor_data": "shared", "data_name": "noisy", "data_n": "300", "xor_map": "identity"},
    ],
)
def test_every_number_is_plain_no_exponent_and_no_negative_zero(query):
    shown = assert_plain_numbers(beyond(query))  # no e+, no −0.00, no hyphen minus, ...
    if query:  # a big run: its counts are written with thousands separators
        assert re.search(r"\d{1,3},\d{3} mistakes in \d+ epochs", shown), shown


def test_the_3d_view_marks_the_points_that_land_on_one_spot_and_says_why():
    at = beyond()
    fig = figure(at, "xor_3d")
    points = [t for t in fig["data"] if t["type"] == "scatter3d" and t["name"].startswith("y =")]
    assert sum(len(t["x"]) for t in points) == 4  # four points drawn...
    spots = {
        (round(x, 3), round(y, 3), round(z, 3))
        for t in points
        for x, y, z in zip(t["x"], t["y"], t["z"], strict=True)
    }
    assert len(spots) == 2  # ...on two spots
    (ring,) = [t for t in fig["data"] if t["name"] == "several points on one spot"]
    assert ring["marker"]["symbol"] == "circle-open" and ring["text"] == ["2 points", "2 points"]
    assert {
        (round(x, 3), round(y, 3), round(z, 3))
        for x, y, z in zip(ring["x"], ring["y"], ring["z"], strict=True)
    } == spots
    note = markdown(at)
    assert "**4 points, 2 markers.** UMass CMPSCI 689's φ(x) = (x₁², √2·x₁x₂, x₂²)" in note
    assert "(1, 1) and (\u22121, \u22121) both land on (1, 1.41, 1)" in note
    assert "(1, \u22121) and (\u22121, 1) both land on (1, \u22121.41, 1)" in note
    assert "each spot holds points of one label only" in note


def test_random_points_have_no_ring_and_no_note():
    at = beyond({"xor_data": "shared", "data_name": "noisy", "data_n": "60"})
    fig = figure(at, "xor_3d")
    assert all(t["name"] != "several points on one spot" for t in fig["data"])
    assert "markers.**" not in markdown(at)


def block_ids(at: AppTest) -> list[str]:
    """The ids of every container on the page (a keyed one's id ends with its key)."""
    found, stack = [], [at._tree]
    while stack:
        node = stack.pop()
        if type(node).__name__ == "Block":
            found.append(node.proto.id)
        children = getattr(node, "children", {})
        stack.extend(children.values() if isinstance(children, dict) else children)
    return found


def test_the_still_3d_view_lets_the_page_scroll_until_the_student_turns_it():
    at = beyond()
    styles = [c.proto.component_name for c in at.get("bidi_component")]
    assert f"perceptron_style_{view.STILL}" in styles  # the CSS, without st.html
    assert any(b.endswith(view.STILL) for b in block_ids(at))  # the chart inside its reach
    assert view.CSS.startswith(f".st-key-{view.STILL} .gl-container")
    assert "pointer-events: none" in view.CSS
    (chart,) = [c for c in at.get("plotly_chart") if "xor_3d" in c.proto.id]
    config = json.loads(chart.proto.config)
    assert config["scrollZoom"] is False and config["displayModeBar"] is False
    assert any("stands still" in c.value for c in at.caption)
    at.toggle(key="xor_turn_3d").set_value(True).run()
    assert not at.exception
    assert not any(b.endswith(view.STILL) for b in block_ids(at))  # out of the CSS's reach
    (chart,) = [c for c in at.get("plotly_chart") if "xor_3d" in c.proto.id]
    assert json.loads(chart.proto.config)["scrollZoom"] is True  # asked for: the wheel zooms
    scene = json.loads(chart.proto.spec)["layout"]["scene"]
    assert scene["dragmode"] == "turntable"  # a drag turns it, whatever the 2-D charts do
    assert any("Drag to rotate" in c.value for c in at.caption)


def test_pocket_and_averaged_lines_both_show_where_they_coincide():
    at = beyond()
    errors = runs.remedies(100, 0, 0.1, 30)  # the page's: seed 0, 10 % noise, 30 epochs
    fig = figure(at, "xor_remedies")
    by = {t["hovertemplate"].split("<extra>")[1].split("<")[0]: t for t in fig["data"]}
    pocket, averaged = by["pocket"], by["averaged"]
    np.testing.assert_allclose(pocket["y"], 100 * errors["pocket"], atol=0.01)
    np.testing.assert_allclose(averaged["y"], 100 * errors["averaged"], atol=0.01)
    same = int(np.isclose(errors["pocket"], errors["averaged"], rtol=0, atol=1e-12).sum())
    assert same > 0  # equal errors: the pocket would hide under the averaged line
    # drawn so both show: the pocket a wide band underneath, the averaged a dotted line on top
    names = [t["hovertemplate"].split("<extra>")[1].split("<")[0] for t in fig["data"]]
    assert names.index("pocket") < names.index("averaged")
    assert pocket["line"]["width"] >= 3 * averaged["line"]["width"]
    assert averaged["line"]["dash"] == "dot" and pocket["line"].get("dash", "solid") == "solid"
    note = next(c.value for c in at.caption if "Lines on top of each other" in c.value)
    epochs = len(errors["pocket"])
    counted = "all 30 epochs" if same == epochs else f"{same} of {epochs} epochs"
    assert f"pocket and averaged in {counted}" in note


def test_the_runs_that_never_stop_are_three_charts_that_stack_on_a_phone():
    at = beyond()
    curves = [c for c in at.get("plotly_chart") if "xor_curves" in c.proto.id]
    assert len(curves) == 3  # one per column: side by side, or one under the other
    titles = [m.value for m in at.markdown if m.value.startswith("**") and m.value.endswith("**")]
    for title in ("mistakes in each epoch", "mistakes so far", "‖w‖ after each mistake"):
        assert f"**{title}**" in titles


def test_every_chart_saves_a_png_at_twice_its_size_named_by_the_page():
    """Plotly's own camera button saves each 2-D chart (the cycle's three curves first) as a
    PNG at 2× under a name of the page's ([a-z0-9-]), never a dataset's; so does the 3-D
    view once it turns (standing still it has no tool bar)."""
    at = beyond({"xor_data": "shared", "data_name": "xor"})
    names = {}
    for chart in at.get("plotly_chart"):
        config = json.loads(chart.proto.config)
        if "xor_3d" in chart.proto.id:
            assert "toImageButtonOptions" not in config and config["displayModeBar"] is False
            continue
        options = config["toImageButtonOptions"]
        assert options["format"] == "png" and options["scale"] == 2
        assert re.fullmatch(r"perceptron-xor-[a-z0-9-]+", options["filename"])
        assert config["scrollZoom"] is False and config["displaylogo"] is False
        names[chart.proto.id.split("-")[-1]] = options["filename"]
        if "xor_curves" in chart.proto.id:  # a third of the page: laid out again for a slide
            assert (options["width"], options["height"]) == (640, 400)
        else:  # as on screen
            assert "width" not in options and "height" not in options
    assert sorted(names.values()) == sorted(
        [
            "perceptron-xor-mistakes-per-epoch",
            "perceptron-xor-mistakes-so-far",
            "perceptron-xor-norm-w",
            "perceptron-xor-no-line",
            "perceptron-xor-boundary-quadratic",
            "perceptron-xor-pocket-averaged",
        ]
    )
    at.toggle(key="xor_turn_3d").set_value(True).run()
    (chart,) = [c for c in at.get("plotly_chart") if "xor_3d" in c.proto.id]
    assert json.loads(chart.proto.config)["toImageButtonOptions"]["filename"] == (
        "perceptron-xor-lifted"
    )


def test_a_separable_lift_stopped_at_the_epoch_limit_is_not_said_never_to_converge():
    """Blobs 2.0 apart, spread 0.6, n = 40, seed 9, with the identity map: separable, but
    the perceptron (bias, w = 0, the given order) needs 280 epochs; the page runs 30."""
    X, y = make_dataset("blobs", n=40, seed=9, distance=2.0, spread=0.6)
    M, done, _, _ = plain_perceptron(np.column_stack([X, np.ones(len(X))]), y, 30)
    assert not done  # not done after 30 epochs: M is a lower bound
    at = open_app(
        "pages/xor.py",
        {"xor_data": "shared", "xor_map": "identity"},
        {"data_custom": (X, y, "blobs")},
    )
    assert not at.exception
    text = markdown(at)
    assert "does not converge" not in text
    assert f"the perceptron **has not converged yet**: at least {M} mistakes in 30 epochs" in text
    headings = [h.value for h in at.header]
    assert "1. It never stops" not in headings and "2. Why: no line exists" not in headings
    assert "2. Here a line exists" in headings  # the headings say what these data do


def test_the_kernel_sentence_says_when_its_count_stopped_at_the_epoch_limit():
    X, y = make_dataset("blobs", n=40, seed=9, distance=2.0, spread=0.6)
    at = open_app(
        "pages/xor.py", {"xor_data": "shared", "xor_epochs": "5"}, {"data_custom": (X, y, "blobs")}
    )
    assert not at.exception
    check = runs.kernel_check(X, y, 5)
    assert not check["converged"]  # 37 mistakes in 13 epochs when run to the end
    assert f"{check['kernel_mistakes']} mistakes in 5 epochs, not converged yet" in markdown(at)
