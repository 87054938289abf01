"""The lecture figure (pure: a Run in, a Plotly dict out): what a student sees at step t.

The line w_t·(x, 1) = 0 and the arrow w_t, the radius ring, the claims' points, and the
replay's frames, each checked against the run's own numbers.
"""

import re

import numpy as np
import plotly.graph_objects as go
import pytest

from perceptron_core import make_dataset
from ui.kit.model import Run, RunSettings, record_run
from ui.lecture.figures import MAX_CURVE_POINTS, lecture_figure
from ui.lecture.steps import status_line

# (dataset, seed, bias): 7 mistakes with a bias, 5 through the origin, and XOR (no w*)
CASES = [("blobs", 0, True), ("separable", 1, False), ("xor", 0, True)]


def run_of(name: str, seed: int, bias: bool) -> Run:
    X, y = make_dataset(name, n=40, seed=seed)
    return record_run(X, y, RunSettings(bias=bias))


@pytest.fixture(params=CASES, ids=lambda c: f"{c[0]}-{c[1]}-{'bias' if c[2] else 'origin'}")
def run(request) -> Run:
    return run_of(*request.param)


def traces(spec: dict, axis: str = "x") -> dict[str, dict]:
    """The traces of one panel by name (its x axis: x data, x2 Claim 1, x3 Claim 2, x4 the
    squeeze; "w_k·w*" is the name of a trace in Claim 1 and in the squeeze)."""
    return {t["name"]: t for t in spec["data"] if "name" in t and t["xaxis"] == axis}


def view_corners(spec: dict) -> np.ndarray:
    (x0, x1), (y0, y1) = spec["layout"]["xaxis"]["range"], spec["layout"]["yaxis"]["range"]
    return np.array([[x0, y0], [x0, y1], [x1, y0], [x1, y1]])


def steps_of(run: Run) -> list[int]:
    """Every step at which a mistake was just made, the start and the end."""
    n = len(run.trace.steps.index)
    return sorted({0, 1, n, *(int(t) + 1 for t in run.trace.mistake_steps[:, 0])})


def claim_points(spec: dict, axis: str) -> list[float]:
    """The k of every marker drawn in one proof panel (its x axis: x2, x3 or x4)."""
    return [
        k
        for t in spec["data"]
        if t.get("xaxis") == axis and "markers" in t.get("mode", "")
        for k in t["x"]
    ]


def test_the_line_is_where_w_t_is_zero_and_perpendicular_to_w_t(run):
    for t in steps_of(run):
        w = run.trace.w_before(t)
        spec = lecture_figure(run, t)
        line = traces(spec)["line w·x = 0"]
        b = w[2] if run.trace.bias else 0.0
        if not np.any(w[:2]):  # w = 0 (or only a bias): no line to draw
            assert line["x"] == []
            continue
        if line["x"] == []:  # the line misses the view: all of it is on one side
            sides = np.sign(view_corners(spec) @ w[:2] + b)
            assert abs(sides.sum()) == 4, t
            continue
        ends = np.column_stack([line["x"], line["y"]])
        length = np.linalg.norm(ends[1] - ends[0])
        assert len(ends) == 2 and length > 0
        scale = np.linalg.norm(w)
        np.testing.assert_allclose((ends @ w[:2] + b) / scale, 0, atol=1e-3)
        along = (ends[1] - ends[0]) / length
        cos = along @ w[:2] / np.linalg.norm(w[:2])
        assert abs(cos) < 1e-3 + 3e-4 / length  # perpendicular to w (ends drawn to 4 decimals)


def test_the_arrow_starts_at_the_origin_and_points_along_w_t(run):
    for t in steps_of(run):
        w = run.trace.w_before(t)[:2]
        arrow = traces(lecture_figure(run, t))["w"]
        if not np.any(w):
            assert arrow["x"] == [] and arrow["text"] == ["", ""]
            continue
        (x0, x1), (y0, y1) = arrow["x"], arrow["y"]
        assert (x0, y0) == (0.0, 0.0)
        tip = np.array([x1, y1])
        cos = tip @ w / (np.linalg.norm(tip) * np.linalg.norm(w))
        assert cos == pytest.approx(1.0, abs=1e-4)  # drawn to 4 decimals
        scale = np.linalg.norm(tip) / np.linalg.norm(w)
        if arrow["text"][1] == "<b>w</b>":
            assert scale == pytest.approx(1.0, abs=1e-3)  # drawn at its true length
        else:  # shortened to fit, and the label says by how much
            label = arrow["text"][1]
            assert label.startswith("<b>w</b> (×") and label.endswith(")")
            assert float(label[len("<b>w</b> (×") : -1]) == pytest.approx(scale, abs=0.01)
            assert scale < 1


def ring_of(spec: dict) -> dict:
    """The ring around the data (its name says what it is, so it is found by its meta)."""
    (ring,) = [t for t in spec["data"] if t.get("meta") == "radius"]
    return ring


def test_the_ring_has_the_radius_of_the_farthest_point(run):
    ring = ring_of(lecture_figure(run, 0))
    r = np.hypot(ring["x"], ring["y"])
    R = np.linalg.norm(run.X, axis=1).max()
    np.testing.assert_allclose(r, R, atol=1e-3)
    assert ring["x"][0] == ring["x"][-1] and ring["y"][0] == ring["y"][-1]  # closed


def test_through_the_origin_the_ring_is_the_r_of_the_squeeze():
    run = run_of("separable", 1, False)
    spec = lecture_figure(run, 0)
    ring = ring_of(spec)
    squeeze = traces(spec, "x4")["R√k"]  # the curve R√k of the squeeze panel
    k, value = np.array(squeeze["x"][1:]), np.array(squeeze["y"][1:])
    np.testing.assert_allclose(value / np.sqrt(k), run.curves.radius, rtol=1e-3)
    np.testing.assert_allclose(np.hypot(ring["x"], ring["y"]), run.curves.radius, atol=1e-3)


def test_the_points_are_the_data_by_label_with_two_shapes(run):
    spec = lecture_figure(run, 0)
    plus, minus = traces(spec)["y = +1"], traces(spec)["y = −1"]
    for trace, label in ((plus, 1), (minus, -1)):
        sel = run.y == label
        np.testing.assert_allclose(trace["x"], run.X[sel, 0], atol=1e-4)
        np.testing.assert_allclose(trace["y"], run.X[sel, 1], atol=1e-4)
        assert trace["customdata"] == np.flatnonzero(sel).tolist()
    assert plus["marker"]["symbol"] != minus["marker"]["symbol"]


def test_the_stamp_and_the_ring_name_step_t(run):
    n = len(run.trace.steps.index)
    for t in (0, 1, n // 2, n):
        spec = lecture_figure(run, t)
        stamp = next(tr for tr in spec["data"] if tr.get("mode") == "text")
        k = run.trace.mistakes_before(t)
        assert stamp["text"][0].startswith(f"<b>t = {t} · k = {k}</b>")
        shown = [
            tr for tr in spec["data"] if tr.get("name") in ("mistake: w updated", "shown: correct")
        ]
        if t == 0:
            assert not shown
            continue
        (ring,) = shown
        i = int(run.trace.steps.index[t - 1])
        np.testing.assert_allclose([ring["x"][0], ring["y"][0]], run.X[i])
        assert (ring["name"] == "mistake: w updated") == bool(run.trace.steps.mistake[t - 1])


def test_the_claims_show_the_mistakes_up_to_step_t(run):
    """Without a replay: Claim 1 and Claim 2 end at k = the mistakes made before t."""
    for t in steps_of(run):
        spec = lecture_figure(run, t)
        k = run.trace.mistakes_before(t)
        claim1, claim2 = traces(spec, "x2"), traces(spec, "x3")
        ks = claim2["‖w_k‖²"]["x"]
        assert ks[0] == 0 and ks[-1] == k and np.all(np.diff(ks) > 0)
        assert ks == list(range(k + 1)) or len(ks) == MAX_CURVE_POINTS  # long runs are thinned
        W = run.trace.weights[ks]
        np.testing.assert_allclose(claim2["‖w_k‖²"]["y"], np.einsum("kd,kd->k", W, W), atol=1e-4)
        if run.curves is not None:
            assert claim1["w_k·w*"]["x"] == ks
            w_dot = run.curves.w_dot_wstar[ks]
            np.testing.assert_allclose(claim1["w_k·w*"]["y"], w_dot, atol=1e-4)
        else:
            assert "w_k·w*" not in claim1


@pytest.mark.xfail(
    strict=True,
    reason="issue 17: the proof panels draw later mistakes under a white veil (the squeeze "
    "always, the claims in a replay), so faint future points are visible at step t",
)
def test_no_point_after_step_t_is_drawn_in_the_proof_panels():
    run = run_of("blobs", 0, True)
    t = int(run.trace.mistake_steps[2, 0]) + 1  # just after the third mistake
    k = run.trace.mistakes_before(t)
    for spec in (lecture_figure(run, t), lecture_figure(run, t, replay=range(t, t + 60))):
        for axis in ("x2", "x3", "x4"):
            assert max(claim_points(spec, axis), default=0) <= k, axis


def test_the_replay_frames_are_the_figure_at_their_step(run):
    n = len(run.trace.steps.index)
    start = 1
    replay = range(start, min(n, start + 40) + 1)
    spec = lecture_figure(run, start, replay=replay)
    frames = spec["frames"]
    assert [f["name"] for f in frames] == [str(s) for s in replay]
    for frame in frames:
        s = int(frame["name"])
        at_s = lecture_figure(run, s, replay=replay)["data"]
        assert len(frame["data"]) == len(frame["traces"])
        for index, moved in zip(frame["traces"], frame["data"], strict=True):
            assert moved == {key: at_s[index][key] for key in moved}, (s, at_s[index]["name"])
            assert moved  # every moving trace carries what it moves
    first = frames[0]
    for index, moved in zip(first["traces"], first["data"], strict=True):
        assert moved == {key: spec["data"][index][key] for key in moved}
    slider = spec["layout"]["sliders"][0]
    assert [st["label"] for st in slider["steps"]] == [f["name"] for f in frames]
    assert slider["active"] == 0


def test_the_figure_is_valid_plotly(run):
    go.Figure(lecture_figure(run, 5, replay=range(5, 15)))


def stated(text: str, symbol: str) -> float:
    """The number written after "symbol = " in a status line or a label."""
    match = re.search(rf"(?<![\w‖]){symbol} = ([-\d.e+]+)", text)
    assert match, (symbol, text)
    return float(match.group(1))


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "origin"])
def test_the_ring_says_the_r_the_status_line_states(bias):
    """Issue 14, 3: the ring is max ‖x‖ in the plane; with a bias the status line's R is
    max ‖(x, 1)‖. The ring's name must give the stated R (and the drawn radius, if they
    differ), so no student reads one R in the chart and another beside it."""
    X, y = make_dataset("separable", n=40, seed=0)  # the page's defaults
    run = record_run(X, y, RunSettings(bias=bias))
    status = status_line(run, 0, "separable")
    r_status = stated(status, "R")
    assert r_status == pytest.approx(run.mm.radius, rel=1e-2)
    ring = ring_of(lecture_figure(run, 0))
    name = ring["name"]
    drawn = float(np.hypot(ring["x"][0], ring["y"][0]))
    assert stated(name, "R") == r_status  # the same R, written the same way
    assert f"R = {run.mm.radius:.3g}" in name and f"R = {run.mm.radius:.3g}" in status
    if bias:  # drawn max ‖x‖ < R: the name says which is which
        assert drawn < r_status - 0.1
        assert f"max ‖x‖ = {drawn:.3g}" in name and "bias" in name
        assert not name.startswith("radius R")
    else:  # through the origin the ring is R
        assert drawn == pytest.approx(run.mm.radius, abs=1e-3)


def test_without_a_w_star_the_ring_still_says_what_it_is():
    run = run_of("xor", 0, True)
    name = ring_of(lecture_figure(run, 0))["name"]
    r = np.linalg.norm(run.X, axis=1).max()
    assert f"max ‖x‖ = {r:.3g}" in name
    assert stated(name, "R") == pytest.approx(np.sqrt(r**2 + 1), rel=1e-2)


def titles(spec: dict) -> dict[str, str]:
    """The panels' titles by their x axis (x data, x2 Claim 1, x3 Claim 2, x4 squeeze)."""
    return {
        a["xref"].split()[0]: a["text"]
        for a in spec["layout"]["annotations"]
        if a.get("yanchor") == "bottom" and a["xref"].endswith("domain")
    }


@pytest.mark.parametrize("eta", [0.5, 2.0])
def test_the_claims_titles_and_lines_carry_eta(eta):
    """Issue 14, 12: with η ≠ 1 a mistake moves w·w* by at least ηγ and ‖w‖² by at most
    η²R² (proof_curves' lower and upper); the titles and the lines' names say so."""
    X, y = make_dataset("separable", n=40, seed=0)
    run = record_run(X, y, RunSettings(eta=eta))
    c = run.curves
    spec = lecture_figure(run, run.trace.n_steps)
    k = run.trace.n_mistakes
    head = titles(spec)
    assert "ηγ" in head["x2"] and "at least γ" not in head["x2"]
    assert "η²R²" in head["x3"] and "at most R²" not in head["x3"]
    assert f"η = {eta:g}" in head["x2"] and f"η = {eta:g}" in head["x3"]
    assert "/η" in head["x4"]
    lower = traces(spec, "x2")["kηγ"]  # w₀ = 0: the line is kηγ
    upper = traces(spec, "x3")["kη²R²"]
    np.testing.assert_allclose(lower["y"], [0, eta * k * c.gamma], atol=1e-3)
    np.testing.assert_allclose(upper["y"], [0, eta**2 * k * c.radius**2], rtol=1e-3)
    np.testing.assert_allclose([c.lower[k], c.upper[k]], [lower["y"][1], upper["y"][1]], rtol=1e-3)
    dot = traces(spec, "x4")["w_k·w*/η"]  # the squeeze plots w·w*/η against kγ
    np.testing.assert_allclose(dot["y"][-1], c.w_dot_wstar[k] / eta, atol=1e-3)


def test_with_eta_one_the_titles_are_the_theorem_s():
    run = run_of("separable", 1, False)
    head = titles(lecture_figure(run, 0))
    assert head["x2"] == "Claim 1: w·w* grows by at least γ per mistake"
    assert head["x3"] == "Claim 2: ‖w‖² grows by at most R² per mistake"
    assert head["x4"] == "the squeeze: kγ ≤ w·w* ≤ ‖w‖ ≤ R√k"


@pytest.mark.parametrize("eta", [1.0, 0.5])
def test_from_a_start_w0_the_squeeze_is_the_proof_redone_from_w0(eta):
    """Issue 14 (finding 2, on the lecture page): from w₀ ≠ 0 the squeeze's curves start at
    w₀·w*/η and ‖w₀‖/η, meet at the bound from w₀ (not (R/γ)²), and the title says so."""
    from perceptron_core import max_margin, start_bound

    X, y = make_dataset("separable", n=40, seed=0)
    mm = max_margin(X, y, bias=True)
    w0 = tuple(float(v) for v in -3.0 * mm.w_star)  # a start far on the wrong side
    run = record_run(X, y, RunSettings(eta=eta, w0=w0))
    c = run.curves
    spec = lecture_figure(run, run.trace.n_steps)
    a, b = float(c.lower[0]), float(c.upper[0])  # w₀·w*, ‖w₀‖² as the engine has them
    assert a < 0 and b > 0
    bound = start_bound(start_dot=a, start_norm_sq=b, gamma=c.gamma, radius=c.radius, eta=eta)
    squeeze = traces(spec, "x4")
    low = next(t for name, t in squeeze.items() if name.startswith("w₀·w*"))
    up = next(t for name, t in squeeze.items() if name.startswith("√(‖w₀‖²"))
    assert low["x"][0] == 0 and low["y"][0] == pytest.approx(a / eta, abs=1e-3)
    assert up["y"][0] == pytest.approx(np.sqrt(b) / eta, rel=1e-3)
    kk = np.array(low["x"])
    np.testing.assert_allclose(low["y"], a / eta + kk * c.gamma, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(up["y"], np.sqrt(b / eta**2 + kk * c.radius**2), rtol=1e-3)
    marks = [a["text"] for a in spec["layout"]["annotations"] if a.get("xref") == "x4"]
    assert any(t == f"bound from w₀ = {bound:.3g}" for t in marks), marks
    assert not any("(R/γ)²" in t for t in marks)
    assert titles(spec)["x4"].startswith("the squeeze from w₀:")
    assert run.trace.n_mistakes <= bound  # the theorem, from w₀
