"""Pure helpers of the SGD page: the cone E_p = 0 and the grid of E_p."""

import numpy as np
import pytest

from perceptron_core import make_dataset, perceptron_criterion, train
from ui.sgd.figures import MAX_PATH, Path, half_width, landscape_figure, scaled, surface, zero_cone


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
