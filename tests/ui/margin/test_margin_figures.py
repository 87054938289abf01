"""The margin lab's numbers and pictures, checked against the engine and the seeds."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from perceptron_core import make_dataset, max_margin, train
from ui.look.geometry import Box, view_box
from ui.margin import figures as mf
from ui.margin import lab

FOUR_X, FOUR_Y = make_dataset("four_points")


def analysis(X=FOUR_X, y=FOUR_Y, bias=False, c=1.0, max_epochs=100):
    X, y = np.asarray(X, float), np.asarray(y, float)
    return lab.analyse(X, y, bias=bias, c=c, max_epochs=max_epochs)


def test_seed_001s_four_points_without_bias_give_the_home_pages_numbers():
    an = analysis()
    assert lab.numbers(an) == pytest.approx((an.mm.gamma, np.sqrt(5), 5.0, 2))
    assert an.M == 2 and an.orders[1] <= 5.0


def test_bias_with_constant_c_is_the_engines_bias_when_c_is_1():
    X, y = make_dataset("separable", n=60, seed=3)
    an = analysis(X, y, bias=True, c=1.0)
    mm = max_margin(X, y, bias=True)
    assert an.mm.gamma == pytest.approx(mm.gamma) and an.mm.radius == pytest.approx(mm.radius)
    assert train(X, y, bias=True, max_epochs=100).n_mistakes == an.M
    an3 = analysis(X, y, bias=True, c=3.0)
    r = np.linalg.norm(X, axis=1).max()
    assert an3.mm.radius == pytest.approx(np.sqrt(r**2 + 9.0))  # R = √(max‖x‖² + c²)


def test_not_separable_data_have_no_w_star_and_a_reason():
    X = [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
    an = analysis(X, [1.0, -1.0, 1.0], bias=True, max_epochs=20)
    assert an.mm is None and "same place" in an.reason and "through the origin" not in an.reason
    assert not an.trace.converged and an.trace.n_epochs == 20
    scene = mf.canvas_scene(an, view_box(an.X), version=0, tick=0, mode="flip")
    assert scene["banner"].startswith("Not separable")
    assert not any(line["cls"] in ("wstar", "band") for line in scene["lines"])
    assert any(p[3] & 2 for p in scene["points"])  # the final w still gets something wrong


def test_the_fixed_line_keeps_its_predictions_while_its_bound_moves_with_c():
    X, y = make_dataset("separable", n=40, seed=1)
    c_now = 1.0
    an = analysis(X, y, bias=True, c=c_now)
    line = lab.in_plane(an.mm.w_star, True, c_now)
    cs = (0.1, 0.5, c_now, 2.0, 10.0)
    rows = lab.constant_sweep(X, y, line, cs, 100)
    r2 = (X**2).sum(axis=1).max()
    for row in rows:
        assert pytest.approx(np.sqrt(r2 + row.c**2)) == row.R
        assert row.bound_best <= row.bound_fixed * (1 + 1e-9)  # w*(c) is best at each c
    at_now = rows[cs.index(c_now)]
    assert at_now.gamma_fixed == pytest.approx(an.mm.gamma)  # the fixed line is w*(c_now)
    assert len({round(r.bound_fixed, 6) for r in rows}) == len(rows)  # but its bound moves


def test_scaling_every_vector_leaves_the_bound_and_the_mistakes_unchanged():
    X, y = make_dataset("separable", n=40, seed=2)
    an = analysis(X, y, bias=True, c=1.0)
    R = lab.numbers(an)[1]
    rows = lab.scaling_rows(an.Z, y, (1 / R, 0.1, 1.0, 10.0), 100)
    assert pytest.approx(1.0) == rows[0].R
    for row in rows:
        assert row.bound == pytest.approx(an.mm.bound, rel=1e-6)
        assert row.M == an.M
        assert row.gamma == pytest.approx(an.mm.gamma * row.s, rel=1e-6)
    assert "(= 1/R)" in mf.scaling_frame(rows)["scale s"][0]


def test_the_band_lines_pass_through_the_support_vectors():
    X, y = make_dataset("separable", n=50, seed=4)
    an = analysis(X, y, bias=True, c=2.0)
    box = view_box(X)
    scene = mf.canvas_scene(an, box, version=3, tick=5, mode="delete")
    flagged = [i for i, p in enumerate(scene["points"]) if p[3] & 1]
    assert flagged == an.mm.support.tolist()
    bands = [line["d"] for line in scene["lines"] if line["cls"] == "band"]
    assert len(bands) == 2
    for i in flagged:
        p = X[i]
        dist = []
        for (ax, ay), (bx, by) in bands:
            d = np.array([bx - ax, by - ay])
            q = p - np.array([ax, ay])
            dist.append(abs(d[0] * q[1] - d[1] * q[0]) / np.linalg.norm(d))
        assert min(dist) < 1e-6
    assert scene["v"] == 3 and scene["tick"] == 5 and scene["mode"] == "delete"
    assert scene["circle"]["r"] == pytest.approx(np.linalg.norm(X, axis=1).max())
    assert "support vector" in scene["points"][flagged[0]][4]
    # a student counts points from 1: the tip of row i names point i + 1
    assert all(p[4].startswith(f"point {i + 1}: (") for i, p in enumerate(scene["points"]))


def test_readouts_show_each_change_once_and_never_rounding_noise():
    now = (0.34, 3.16, 86.4, 5)
    before = (0.491, 3.16, 41.3, 3)
    shown = {r["key"]: r for r in lab.readouts(now, before)}
    assert [r["value"] for r in shown.values()] == ["0.34", "3.16", "86.4", "5"]
    assert shown["gamma"]["delta"] == {"text": "−0.151", "up": False, "good": False}
    assert shown["bound"]["delta"] == {"text": "+45.1", "up": True, "good": False}
    assert shown["M"]["delta"] == {"text": "+2", "up": True, "good": False}
    assert shown["R"]["delta"] is None  # R did not change
    # γ off by 3e−15 (the solver's rounding): the same number on show, so no arrow
    noise = lab.readouts((0.491 + 3.28e-15, 3.16, 41.3, 3), before)
    assert all(r["delta"] is None for r in noise)
    big = {r["key"]: r for r in lab.readouts((0.01, 77.0, 59_290.0, 120), before)}
    assert big["bound"]["value"] == "59,290" and big["bound"]["delta"]["text"] == "+59,249"
    gone = {r["key"]: r for r in lab.readouts((None, 3.2, None, 9), before)}
    assert gone["gamma"]["value"] == gone["bound"]["value"] == "—"
    assert gone["gamma"]["delta"] is None and gone["M"]["delta"]["text"] == "+6"
    assert all(r["delta"] is None for r in lab.readouts(now, None))  # nothing to compare


def test_the_scene_carries_the_edits_sentence_and_the_numbers():
    an = analysis()
    rows = lab.readouts(lab.numbers(an), None)
    scene = mf.canvas_scene(
        an, view_box(an.X), version=1, tick=1, mode="move", readouts=rows, note="Moved point 2."
    )
    assert scene["note"] == "Moved point 2." and scene["error"] is None
    assert [r["label"] for r in scene["numbers"]] == [
        "margin γ",
        "radius R",
        "bound (R/γ)²",
        "mistakes M",
    ]


def test_margins_frame_follows_seed_001s_definitions():
    an = analysis()
    frame = mf.margins_frame(an)
    w = an.trace.w
    f = FOUR_Y * (FOUR_X @ w)
    assert frame["y·w·x (perceptron)"].tolist() == pytest.approx(f.tolist())
    assert frame["y·w·x/‖w‖ (perceptron)"].tolist() == pytest.approx(
        (f / np.linalg.norm(w)).tolist()
    )
    assert frame["y·w*·x (w*, ‖w*‖ = 1)"].min() == pytest.approx(an.mm.gamma)
    assert frame["support vector"].sum() == len(an.mm.support)


def test_nice_ticks_are_round_and_inside():
    for lo, hi in [(-3.2, 4.7), (0.001, 0.0123), (-1500, 20), (-1.5, 1.5)]:
        ticks = mf.nice_ticks(lo, hi)
        assert 3 <= len(ticks) <= 12
        assert all(lo <= t <= hi for t in ticks)
        steps = np.diff(ticks)
        assert np.allclose(steps, steps[0])
        mantissa = steps[0] / 10 ** np.floor(np.log10(steps[0]))
        assert min(abs(mantissa - m) for m in (1, 2, 5, 10)) < 1e-9
    assert mf.nice_ticks(1.0, 1.0) == []


def test_the_view_stays_put_while_points_are_inside_and_grows_when_one_reaches_the_edge():
    X = np.array([[1.0, 1.0], [-1.0, 0.5]])
    first = lab.steady_box(X, None)
    moved = X.copy()
    moved[0] = (0.5, -0.5)
    assert lab.steady_box(moved, first) == first
    moved[0] = (first.x1, 0.0)  # dragged to the right edge
    grown = lab.steady_box(moved, first)
    assert grown.x1 > first.x1
    tiny = lab.steady_box(X / 100, Box(-100, 100, -100, 100))  # far too big: refit
    assert tiny.x1 - tiny.x0 < 10


def test_figures_are_valid_plotly():
    X, y = make_dataset("separable", n=30, seed=0)
    an = analysis(X, y, bias=True)
    rows = lab.constant_sweep(X, y, lab.in_plane(an.mm.w_star, True, 1.0), (0.5, 1.0, 2.0), 50)
    for fig in (mf.constant_figure(rows, 1.0),):
        go.Figure(fig.to_dict())  # validates every property name and value


def test_every_section_the_page_reads_exists():
    page = (Path(__file__).resolve().parents[3] / "pages" / "margin.py").read_text()
    for title in re.findall(r'explain\("([^"]+)"\)', page):
        assert len(lab.explain(title)) > 100
    with pytest.raises(KeyError):
        lab.explain("No such section")


def test_the_edits_chart_puts_each_edit_where_its_numbers_say():
    log = [(0, 0.5, 40.0, 3), (1, 0.25, 160.0, 10), (2, 0.31, 105.0, 0)]
    root = ET.fromstring(mf.edits_svg(log, 1, 10.0))
    ns = {"s": "http://www.w3.org/2000/svg"}
    edits = root.findall(".//s:g[@class='edit']", ns)
    assert [e.find("s:title", ns).text for e in edits] == [
        "edit 0: γ = 0.5, (R/γ)² = 40, M = 3",
        "edit 1 (now): γ = 0.25, (R/γ)² = 160, M = 10",
        "edit 2: γ = 0.31, (R/γ)² = 105, M = 0",
    ]
    circles = [e.find("s:circle", ns) for e in edits]
    xs = [float(c.get("cx")) for c in circles]
    assert xs[1] < xs[2] < xs[0]  # smaller γ further left
    texts = root.iter("{http://www.w3.org/2000/svg}text")
    ys = {t.text: float(t.get("y")) - 4 for t in texts if t.get("y") is not None}
    assert float(circles[1].get("cy")) == pytest.approx(ys["10"], abs=0.2)  # M = 10 on the 10 line
    assert float(circles[1].get("r")) > float(circles[0].get("r"))  # the current edit stands out
    empty = ET.fromstring(mf.edits_svg([], 0, None))
    assert "no separable edits yet" in "".join(empty.itertext())


def test_an_edit_whose_run_stopped_at_the_limit_is_drawn_and_said_as_a_lower_bound():
    log = [(0, 0.5, 40.0, 3, False), (1, 1e-5, 1e10, 20_000, True)]
    root = ET.fromstring(mf.edits_svg(log, 1, 1000.0))
    ns = {"s": "http://www.w3.org/2000/svg"}
    edits = root.findall(".//s:g[@class='edit']", ns)
    assert edits[1].find("s:title", ns).text.endswith("M ≥ 20,000 (not converged)")
    assert edits[1].find("s:circle", ns).get("fill") == "white"  # hollow: not only a colour
    assert edits[0].find("s:circle", ns).get("fill") != "white"
    full = [(v, 0.5, 40.0, 3, False) for v in range(lab.MAX_LOGGED)]
    title = "".join(ET.fromstring(mf.edits_svg(full, 0, 10.0)).itertext())
    assert f"Your last {lab.MAX_LOGGED} edits" in title


def test_the_pictures_words_count_one_point_in_the_singular():
    X, y = np.array([[1.0, 2.0]]), np.array([1.0])
    an = lab.analyse(X, y, bias=True, c=1.0, max_epochs=5)
    scene = mf.canvas_scene(an, view_box(X), version=0, tick=0, mode="plus")
    assert scene["alt"].startswith("1 point, 1 labelled +1 and 0 labelled −1.")
