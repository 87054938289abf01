"""Pure helpers of the SGD page: the cone E_p = 0, the grid of E_p, and the figures."""

import math

import numpy as np
import pytest

from perceptron_core import (
    LOSSES,
    loss_step,
    make_dataset,
    minibatch_train,
    perceptron_criterion,
    train,
)
from ui.look.numbers import AXIS, D3
from ui.sgd.figures import (
    MAX_PATH,
    RUN_DASHES,
    Path,
    half_width,
    landscape_figure,
    losses_figure,
    scaled,
    schedule_figure,
    surface,
    zero_cone,
)


@pytest.mark.parametrize(
    ("name", "seed"), [("separable", 0), ("separable", 3), ("four_points", 0), ("blobs", 1)]
)
def test_the_drawn_cone_is_where_the_criterion_is_zero(name, seed):
    X, y = make_dataset(name, seed=seed)
    lo, hi = zero_cone(X, y)
    assert 0 < hi - lo < np.pi
    inside = np.linspace(lo, hi, 50)[1:-1]
    outside = np.concatenate([np.linspace(hi, lo + 2 * np.pi, 100)[1:-1]])
    ray = lambda t: np.column_stack([np.cos(t), np.sin(t)])  # noqa: E731
    assert (perceptron_criterion(ray(inside), X, y, bias=False) == 0).all()
    assert (perceptron_criterion(ray(outside), X, y, bias=False) > 0).all()


def test_no_cone_when_no_line_through_the_origin_separates():
    X, y = make_dataset("xor", n=40, seed=0)
    assert zero_cone(X, y) is None


def test_the_surface_scales_with_eta_as_the_criterion_does():
    X, y = make_dataset("separable", seed=2)
    base = surface(X, y, half_width([np.array([[0.0, 0.0], [3.0, -1.0]])]), 21)
    assert base.r == pytest.approx(3.45)
    big = surface(X, y, 10 * base.r, 21)
    np.testing.assert_allclose(scaled(base, 10).values, big.values, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(scaled(base, 10).axis, big.axis)


def test_a_long_path_is_drawn_in_part_but_ends_at_the_final_w():
    X, y = make_dataset("xor", n=200, seed=0)
    run = train(X, y, bias=False, max_epochs=40)
    assert run.n_mistakes > MAX_PATH
    s = surface(X, y, half_width([run.weights]), 21)
    fig = landscape_figure(s, [Path("run", run.weights, "green")], X, y)
    line, ends = (t for t in fig["data"] if t.get("legendgroup") == "run")
    assert len(line["x"]) == MAX_PATH + 1
    assert f"first {MAX_PATH} of {run.n_mistakes} updates" in line["name"]
    assert ends["x"][-1] == pytest.approx(run.w[0], abs=1e-4)
    assert ends["y"][-1] == pytest.approx(run.w[1], abs=1e-4)
    assert not any(t.get("fill") for t in fig["data"])  # XOR: no cone E_p = 0 to shade


def test_coinciding_runs_are_drawn_so_both_show():
    """A mini-batch of 1 is the online run: on the schedule and on the landscape the two
    coincide, so they differ by dash (and width), not by colour alone."""
    X, y = make_dataset("separable", n=40, seed=0)
    online = minibatch_train(X, y, batch_size=1, bias=False, max_epochs=30)
    same = minibatch_train(X, y, batch_size=1, bias=False, max_epochs=30)
    assert np.array_equal(online.weights, same.weights)
    runs = [("online, b = 1", online, "green"), ("mini-batch, b = 1", same, "orange")]
    for panel in ("mistakes", "updates"):
        a, b = schedule_figure(runs, panel)["data"]
        assert a["y"] == b["y"]  # drawn on top of each other ...
        assert a["line"]["dash"] != b["line"]["dash"]  # ... and told apart
        assert a["line"]["width"] > b["line"]["width"]  # the one under is wider
    paths = [
        Path(label, r.weights, c, d) for (label, r, c), d in zip(runs, RUN_DASHES, strict=False)
    ]
    s = surface(X, y, half_width([p.weights for p in paths]), 21)
    lines = [
        t for t in landscape_figure(s, paths, X, y)["data"] if t.get("mode") == "lines+markers"
    ]
    assert [t["line"]["dash"] for t in lines] == ["solid", "dash"]


def test_each_panel_is_a_figure_of_its_own_with_plain_numbers():
    """The losses and the schedule come one panel per figure (a phone stacks them), with
    hover numbers in ui.look.numbers.D3 and axes without exponents."""
    X, y = make_dataset("separable", n=40, seed=0)
    run = minibatch_train(X, y, batch_size=5, bias=False, max_epochs=30)
    figures = [losses_figure("loss"), losses_figure("step")]
    figures += [schedule_figure([("b = 5", run, "red")], p) for p in ("mistakes", "updates")]
    for fig in figures:
        layout = fig["layout"]
        assert [k for k in layout if k.startswith(("xaxis", "yaxis"))] == ["xaxis", "yaxis"]
        for key in ("xaxis", "yaxis"):
            assert layout[key].items() >= AXIS.items()
        for trace in fig["data"]:
            assert ".3g" not in trace["hovertemplate"]
    loss, step = figures[:2]
    assert loss["layout"]["showlegend"] and not step["layout"]["showlegend"]
    assert f"%{{y:{D3}}}" in loss["data"][0]["hovertemplate"]
    z = np.array(step["data"][0]["x"])
    for trace, key in zip(step["data"], LOSSES, strict=True):  # the step panel is -l'(z)
        np.testing.assert_allclose(trace["y"], loss_step(key, z), atol=1e-4)


def test_the_landscape_never_sends_minus_zero_and_writes_plain_hovers():
    X, y = make_dataset("four_points")
    s = surface(X, y, 2.0, 21)
    fig = landscape_figure(s, [Path("run", np.array([[0.0, 0.0], [-1e-9, 2.0]]), "green")], X, y)
    contour = fig["data"][0]
    assert contour["colorbar"].items() >= AXIS.items()
    sent = [v for t in fig["data"] for k in ("x", "y") for v in t.get(k, [])]
    assert all(math.copysign(1, v) > 0 for v in sent if v == 0)  # no -0.0 in the JSON
    assert all(f"{D3}}}" in t["hovertemplate"] for t in fig["data"] if "hovertemplate" in t)
