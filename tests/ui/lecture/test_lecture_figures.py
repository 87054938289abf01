"""The lecture chart's scene (pure: a Run in, a JSON-ready dict out): what a student sees at t.

The browser (``player.js``) draws the scene and steps through it; every number it shows is
in the scene. So each user-level check is made here, on the scene, against the run's own
numbers: the line w_t·x̃ = 0 and its half-planes, the arrow w_t, the ring, the points, the
example just shown, the status line, the end of the run, the update's maths and the
screen-reader sentence (the claims and the squeeze: ``test_lecture_claims.py``).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from perceptron_core import RULES, make_dataset, mistakes
from tests.ui.lecture.scene_cases import (
    area,
    augmented,
    parsed,
    run_of,
    stated,
    steps_of,
    view_corners,
    whole_scene,
)
from ui.compute.model import RunSettings, record_run
from ui.lecture.figures import (
    end_text,
    epoch_and_example,
    facts,
    lecture_scene,
    status,
    step_view,
)
from ui.look.numbers import number, vector_text

EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u2b55\u231a-\u23ff\ufe0f]")


def test_the_line_is_where_w_t_is_zero_and_perpendicular_to_w_t(case):
    run, scene = case
    corners = view_corners(scene)
    box_area = area(corners[[0, 1, 3, 2]])
    for t in steps_of(run):
        v = scene["steps"][t]
        w = run.trace.w_before(t)
        b = w[2] if run.trace.bias else 0.0
        if not np.any(w[:2]):  # w = 0 (or only a bias): no line, no half-planes, no arrow
            assert v["line"] is None and v["plus"] == v["minus"] == [], t
            continue
        # the half-planes tile the view, each on its side of the line
        assert area(v["plus"]) + area(v["minus"]) == pytest.approx(box_area, rel=1e-4), t
        scale = np.linalg.norm(w)
        for half, sign in ((v["plus"], 1.0), (v["minus"], -1.0)):
            if half:
                assert np.all(sign * (np.asarray(half) @ w[:2] + b) / scale >= -1e-3), t
                if area(half) > 1e-6:
                    centre = np.mean(half, axis=0)
                    assert sign * (centre @ w[:2] + b) > 0, t
        if v["line"] is None:  # the line misses the view: all of it is on one side
            sides = np.sign(corners @ w[:2] + b)
            assert abs(sides.sum()) == 4, t
            whole, empty = (v["plus"], v["minus"]) if sides[0] > 0 else (v["minus"], v["plus"])
            assert empty == [] and area(whole) == pytest.approx(box_area, rel=1e-4), t
            continue
        ends = np.asarray(v["line"])
        assert ends.shape == (2, 2)
        length = np.linalg.norm(ends[1] - ends[0])
        assert length > 0
        np.testing.assert_allclose((ends @ w[:2] + b) / scale, 0, atol=1e-3)
        along = (ends[1] - ends[0]) / length
        cos = along @ w[:2] / np.linalg.norm(w[:2])
        assert abs(cos) < 1e-3 + 3e-4 / length  # perpendicular to w (ends kept to 4 decimals)


def test_the_arrow_starts_at_the_origin_and_points_along_w_t(case):
    run, scene = case
    for t in steps_of(run):
        v = scene["steps"][t]
        w = run.trace.w_before(t)[:2]
        if not np.any(w):
            assert v["arrow"] is None and v["arrow_label"] == ""
            continue
        tip = np.asarray(v["arrow"])  # drawn from the origin (the browser's px(0), py(0))
        cos = tip @ w / (np.linalg.norm(tip) * np.linalg.norm(w))
        assert cos == pytest.approx(1.0, abs=1e-4)  # kept to 4 decimals
        scale = np.linalg.norm(tip) / np.linalg.norm(w)
        label = v["arrow_label"]
        if label == "w":
            assert scale == pytest.approx(1.0, abs=1e-3)  # drawn at its true length
        else:  # shortened to fit, and the label says by how much
            assert label.startswith("w (×") and label.endswith(")"), label
            assert parsed(label[len("w (×") : -1]) == pytest.approx(scale, rel=0.05)
            assert scale < 1
            x0, x1 = scene["panels"]["data"]["x"]
            assert np.linalg.norm(tip) <= 0.45 * (x1 - x0) + 1e-3  # it fits the view


def test_a_long_w_is_shortened_and_its_label_says_by_how_much():
    X, y = make_dataset("separable", n=40, seed=0)
    run = record_run(X, y, RunSettings(eta=500.0))  # w = 500 y x: far longer than the view
    t = int(run.trace.mistake_steps[0, 0]) + 1
    v = lecture_scene(run, start=t, stop=t, data_name="long w")["steps"][0]
    w = run.trace.w_before(t)[:2]
    scale = np.linalg.norm(v["arrow"]) / np.linalg.norm(w)
    assert scale < 0.01 and v["arrow_label"] == f"w (×{number(scale, 2)})"


def test_the_ring_has_the_radius_of_the_farthest_point(case):
    run, scene = case
    assert scene["ring"]["r"] == pytest.approx(np.linalg.norm(run.X, axis=1).max(), abs=1e-4)


def test_through_the_origin_the_ring_is_the_r_of_the_squeeze():
    run = run_of("separable", 1, False)
    scene = whole_scene("separable", 1, False)
    kk, value = (np.asarray(a) for a in scene["squeeze"]["upper"])  # the curve R√k
    assert scene["squeeze"]["names"][1] == "R√k"
    np.testing.assert_allclose(value[1:] / np.sqrt(kk[1:]), run.curves.radius, rtol=1e-3)
    assert scene["ring"]["r"] == pytest.approx(run.curves.radius, abs=1e-4)


@pytest.mark.parametrize(
    "size",
    [1.0, 1000.0],
    ids=["unit", "x1000"],
)
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "origin"])
def test_the_ring_says_the_r_the_status_line_states(bias, size):
    """The ring is max ‖x‖ in the plane; with a bias the status line's R is
    max ‖(x, 1)‖. The ring's name must give the stated R (and the drawn radius, if they
    differ), so no student reads one R in the chart and another beside it."""
    X, y = make_dataset("separable", n=40, seed=0)  # the page's defaults
    run = record_run(size * X, y, RunSettings(bias=bias))
    scene = lecture_scene(run, start=0, stop=0, data_name="separable")
    (r_fact,) = [part for part in scene["facts"] if part.startswith("R = ")]
    assert scene["facts"] == facts(run)
    assert r_fact == f"R = {number(run.mm.radius)}"
    name, drawn = scene["ring"]["name"], scene["ring"]["r"]
    assert stated(name, "R") == stated(r_fact, "R")  # the same R, written the same way
    if bias:  # drawn max ‖x‖ < R: the name says which is which
        assert drawn < run.mm.radius
        assert f"max ‖x‖ = {number(drawn)}" in name and "bias" in name
        assert not name.startswith("radius R")
    else:  # through the origin the ring is R
        assert drawn == pytest.approx(run.mm.radius, abs=1e-3)
        assert name.startswith("radius R")


def test_without_a_w_star_the_ring_still_says_what_it_is():
    run = run_of("xor", 0, True)
    scene = whole_scene("xor", 0, True)
    name = scene["ring"]["name"]
    r = np.linalg.norm(run.X, axis=1).max()
    assert f"max ‖x‖ = {number(r)}" in name
    assert parsed(stated(name, "R")) == pytest.approx(np.sqrt(r**2 + 1), rel=1e-2)
    assert scene["facts"] == ["not separable: no w*, no bound"]
    assert scene["wstar"] is None and scene["band"] == []


def test_the_points_are_the_data_with_their_labels(case):
    run, scene = case
    points = scene["points"]
    np.testing.assert_allclose(points["x"], run.X[:, 0], atol=1e-4)
    np.testing.assert_allclose(points["y"], run.X[:, 1], atol=1e-4)
    assert points["label"] == run.y.astype(int).tolist()
    for i, tip in enumerate(points["tip"]):  # points counted from 1, as the handouts do
        sign = "+1" if run.y[i] > 0 else "−1"
        assert tip.startswith(f"point {i + 1}: (") and tip.endswith(f"y = {sign}"), tip


def test_w_star_and_its_band_are_drawn_when_there_is_one():
    run = run_of("blobs", 0, True)
    scene = whole_scene("blobs", 0, True)
    w_star, gamma = run.mm.w_star, run.mm.gamma
    ends = np.asarray(scene["wstar"])
    np.testing.assert_allclose(ends @ w_star[:2] + w_star[2], 0, atol=1e-3)
    assert scene["band"]
    for seg in scene["band"]:
        levels = np.asarray(seg) @ w_star[:2] + w_star[2]
        np.testing.assert_allclose(np.abs(levels), gamma, atol=1e-3)


# ---------------------------------------------------------------------------- the step


def test_the_step_shows_the_example_just_shown(case):
    run, scene = case
    for t in steps_of(run):
        v = scene["steps"][t]
        assert v["t"] == t and v["k"] == run.trace.mistakes_before(t)
        if t == 0:
            assert v["shown"] is None and v["mistake"] is False and v["said"] == ""
            continue
        i = int(run.trace.steps.index[t - 1])
        mistake = bool(run.trace.steps.mistake[t - 1])
        assert v["shown"] == i and v["mistake"] == mistake
        tie = "w·x = 0, " if run.trace.steps.margin[t - 1] == 0 else ""
        verdict = "mistake, w updated" if mistake else "correct, w kept"
        if tie and not mistake:
            verdict = "no mistake, w kept"  # the rule's verdict, not "correct"
        assert v["said"] == f"point {i + 1}: {tie}{verdict}"


def test_a_step_view_alone_is_the_scene_s_step(case):
    run, scene = case
    for t in steps_of(run)[:6]:
        assert step_view(run, t) == scene["steps"][t]


def test_the_status_counts_from_one_like_the_handouts(case):
    """Epochs and examples count from 1: the n-th example of epoch 1 is in epoch 1."""
    run, scene = case
    n, T = run.trace.n_examples, run.trace.n_steps
    for t in sorted({0, 1, 2, n - 1, n, n + 1, 2 * n, T - 1, T} & set(range(T + 1))):
        k = run.trace.mistakes_before(t)
        parts = status(run, t)
        assert scene["steps"][t]["status"] == parts
        where = "no example shown yet" if t == 0 else None
        if t:
            where = f"epoch {(t - 1) // n + 1}, example {(t - 1) % n + 1} of {n}"
        assert parts == [where, f"step t = {t:,} of {T:,}", f"mistakes k = {k:,}"]
    assert status(run, n)[0] == f"epoch 1, example {n} of {n}"  # not epoch 2
    assert status(run, n + 1)[0] == f"epoch 2, example 1 of {n}"
    assert epoch_and_example(0, n) == (1, 0) and epoch_and_example(n, n) == (1, n)


def test_a_mistake_s_step_says_the_log_s_epoch_and_point(case):
    """The log counts a mistake at (0-based) step s as step s + 1 of epoch s // n + 1 on
    point i + 1; the chart at that step says the same."""
    run, scene = case
    n = run.trace.n_examples
    for s, i in run.trace.mistake_steps[:60]:
        v = scene["steps"][s + 1]
        assert v["status"][0] == f"epoch {s // n + 1}, example {s % n + 1} of {n}"
        tie = "w·x = 0, " if run.trace.steps.margin[s] == 0 else ""
        assert v["said"] == f"point {i + 1}: {tie}mistake, w updated"


@pytest.mark.parametrize("name", ["separable", "xor"])
def test_the_end_of_a_run_says_so_in_words(name):
    X, y = make_dataset(name, n=20, seed=0)
    run = record_run(X, y, RunSettings(max_epochs=5))
    T = run.trace.n_steps
    scene = lecture_scene(run, start=T - 3, stop=T, data_name=name)
    end = end_text(run, T)
    assert scene["steps"][-1]["end"] == end and end.startswith("end of the run: ")
    assert ("converged" in end) == run.trace.converged
    if not run.trace.converged:
        assert end == f"end of the run: stopped after {run.trace.n_epochs} epochs"
    assert [v["end"] for v in scene["steps"][:-1]] == ["", "", ""]
    assert all(end_text(run, t) == "" for t in range(T))
    text = json.dumps(scene, ensure_ascii=False)
    assert not EMOJI.search(text), EMOJI.findall(text)


def test_no_emoji_anywhere_in_a_scene(case):
    _, scene = case
    text = json.dumps(scene, ensure_ascii=False)
    assert not EMOJI.search(text), EMOJI.findall(text)


# ---------------------------------------------------------------------------- the claims


def test_the_maths_of_each_step_is_the_engine_s(case):
    run, scene = case
    trace = run.trace
    assert scene["steps"][0]["math"] == {"w0": [number(v) for v in trace.weights[0]]}
    for t in sorted({*steps_of(run), 2, 3, 4} - {0}):
        m = scene["steps"][t]["math"]
        s = t - 1
        i = int(trace.steps.index[s])
        x = augmented(run, i)
        w = trace.w_before(s)
        mistake = bool(trace.steps.mistake[s])
        assert m["i"] == i + 1  # counted from 1
        assert m["y"] == ("+1" if run.y[i] > 0 else "−1")
        assert m["w"] == [number(v) for v in w]
        assert m["x"] == [number(v) for v in x] and (not trace.bias or m["x"][-1] == "1")
        margin = float(run.y[i] * (w @ x))
        assert float(trace.steps.margin[s]) == pytest.approx(margin, abs=1e-9)
        assert m["m"] == number(trace.steps.margin[s], 4)
        assert m["mistake"] is mistake
        assert mistake == bool(mistakes(w, run.X[i : i + 1], run.y[i : i + 1], bias=trace.bias))
        if mistake:  # w ← w + η y x
            after = trace.w_before(t)
            np.testing.assert_allclose(after, w + trace.eta * run.y[i] * x, atol=1e-12)
            assert m["wa"] == [number(v) for v in after]
        else:
            assert "wa" not in m
            np.testing.assert_array_equal(trace.w_before(t), w)


def test_the_sentence_for_a_screen_reader_says_what_the_chart_shows(case):
    run, scene = case
    trace = run.trace
    n, T = trace.n_examples, trace.n_steps
    for t in steps_of(run):
        say = scene["steps"][t]["say"]
        k = trace.mistakes_before(t)
        w = trace.w_before(t)
        right = n - int(mistakes(w, run.X, run.y, bias=trace.bias, rule=trace.rule).sum())
        after = f"{k:,} mistake" + ("" if k == 1 else "s")
        assert say.startswith(f"Step t = {t:,} of {T:,}, after k = {after}. "), say
        assert f"w = {vector_text(w)}" in say
        assert f"gets {right} of {n} points right." in say
        if t:
            i = int(trace.steps.index[t - 1])
            label = "+1" if run.y[i] > 0 else "−1"
            assert f"The example just shown, point {i + 1} (y = {label}), " in say
            mistake = bool(trace.steps.mistake[t - 1])
            if trace.steps.margin[t - 1] == 0:  # a tie: the sentence names the rule
                verdict = "a mistake" if mistake else "no mistake"
                assert f"has w·x = 0: {verdict} by the rule “{RULES[trace.rule].short}”" in say
            else:
                assert ("was a mistake, so w was updated." in say) == mistake
                assert ("was right, so w was kept." in say) == (not mistake)
        else:
            assert "example just shown" not in say
        assert f"Claim 2: ‖w‖² = {number(float(w @ w))} ≤ " in say
        if run.curves is not None:
            c = run.curves
            assert f"Claim 1: w·w* = {number(c.w_dot_wstar[k])} ≥ kγ = {number(c.lower[k])}." in say
            assert f"≤ kR² = {number(c.upper[k])}." in say
        else:
            assert "Not separable" in say and "Claim 1:" not in say


# ---------------------------------------------------------------------------- the scene itself


def test_the_scene_is_json(case):
    _, scene = case
    assert json.loads(json.dumps(scene, allow_nan=False)) == json.loads(json.dumps(scene))


def test_a_window_of_a_large_dataset_stays_small():
    X, y = make_dataset("separable", n=500, seed=0)
    run = record_run(X, y, RunSettings())
    assert run.trace.n_steps > 100
    scene = lecture_scene(run, start=0, stop=100, data_name="separable")
    assert len(scene["steps"]) == 101
    assert len(json.dumps(scene).encode()) < 250_000


def test_the_data_name_is_plain_text_cut_to_80_characters():
    run = run_of("blobs", 0, True)
    name = '<img src=x onerror="alert(1)"> & my data ' + "é" * 100
    scene = lecture_scene(run, start=0, stop=1, data_name=name)
    assert scene["name"] == name[:80]  # as given: the browser writes it with textContent
    assert lecture_scene(run, start=0, stop=1, data_name="blobs")["name"] == "blobs"


@pytest.mark.parametrize("window", [(-1, 3), (3, 2), (0, 10_000), (5, 121)])
def test_a_window_outside_the_run_is_refused(window):
    run = run_of("blobs", 0, True)
    assert run.trace.n_steps == 120
    start, stop = window
    with pytest.raises(ValueError, match="window"):
        lecture_scene(run, start=start, stop=stop, data_name="blobs")
    lecture_scene(run, start=0, stop=120, data_name="blobs")  # the whole run is fine
