"""The margin lab's page logic through AppTest.

AppTest cannot drag on the drawing surface, so edits go in through the same
function the surface's callbacks call (``apply_event`` on the session state);
the browser test drags for real.
"""

import re

import numpy as np
import pytest
from apptest_helpers import (
    has_instrument,
    lecture_step,
    margin_numbers,
    margin_scene,
    open_app,
    plain_perceptron,
)
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, max_margin, train
from ui.look.numbers import number
from ui.look.text import visible
from ui.margin import lab

X0, Y0 = make_dataset("separable", n=40, seed=0)  # the default dataset


def margin_page(query: dict[str, str] | None = None, custom=None) -> AppTest:
    at = open_app("pages/margin.py", query, None if custom is None else {"data_custom": custom})
    assert not at.exception
    return at


metrics = margin_numbers


def said(at: AppTest) -> str:
    """The instrument's line under its buttons: the last edit's sentence or refusal."""
    scene = margin_scene(at)
    return scene["error"] or scene["note"] or ""


def texts(at: AppTest) -> str:
    """The page's text as a student reads it (outside text is escaped in the source)."""
    scenes = [margin_scene(at)] if has_instrument(at) else []
    return visible(
        "\n".join(
            [m.value for m in at.markdown]
            + [e.value for e in at.error]
            + [w.value for w in at.warning]
            + [i.value for i in at.info]
            + [s["error"] or s["note"] or "" for s in scenes]
        )
    )


def test_the_numbers_are_the_engines_for_the_shared_dataset():
    at = margin_page()
    mm = max_margin(X0, y=Y0, bias=True)
    M = train(X0, Y0, bias=True, max_epochs=100).n_mistakes
    assert metrics(at) == {
        "margin γ": number(mm.gamma),
        "radius R": number(mm.radius),
        "bound (R/γ)²": number(mm.bound),
        "mistakes M": str(M),
    }
    assert f"M = **{M}** ≤ (R/γ)² = **{number(mm.bound)}**" in texts(at)


def test_an_edit_updates_the_numbers_with_deltas_and_undo_redo_reset_walk_it_back():
    at = margin_page()
    before = metrics(at)
    lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.0, "y": 0.0, "v": 0})
    at.run()
    X = X0.copy()
    X[0] = (0.0, 0.0)
    mm = max_margin(X, Y0, bias=True)
    after = metrics(at)
    assert after["margin γ"] == number(mm.gamma) != before["margin γ"]
    deltas = {n["label"]: n["delta"] for n in margin_scene(at)["numbers"]}
    assert deltas["bound (R/γ)²"]["up"] and deltas["bound (R/γ)²"]["text"].startswith("+")
    assert said(at) == "Moved point 1 to (0, 0)."
    X_shared, _, name = at.session_state["data_custom"]
    assert name == lab.DRAWN and np.array_equal(X_shared, X)
    at.button(key="mar_undo").click().run()
    assert metrics(at) == before and "data_custom" not in at.session_state
    x, y = (number(v) for v in X0[0])
    assert said(at) == f"Undid: moved point 1 back to ({x}, {y})."
    assert {n["label"]: n["delta"] for n in margin_scene(at)["numbers"]}["bound (R/γ)²"]["text"]
    at.button(key="mar_redo").click().run()
    assert metrics(at) == after and said(at) == "Redid: moved point 1 to (0, 0)."
    at.button(key="mar_reset").click().run()
    assert metrics(at) == before
    assert at.button(key="mar_redo").disabled and not at.button(key="mar_undo").disabled


def test_a_refused_edit_says_why_and_keeps_the_points():
    at = margin_page()
    before = metrics(at)
    lab.apply_event(at.session_state, "deleted", {"i": 400, "v": 0})
    at.run()
    assert "There is no point 401" in said(at)
    assert metrics(at) == before and "data_custom" not in at.session_state


def test_flipping_a_point_into_the_other_class_makes_the_data_non_separable():
    at = margin_page()
    lab.apply_event(at.session_state, "flipped", {"i": 0, "v": 0})
    at.run()
    m = metrics(at)
    assert m["margin γ"] == "—" and m["bound (R/γ)²"] == "—"
    assert "Not separable" in texts(at)
    assert "never finished a pass without one (limit: 100 passes)" in texts(at)


@pytest.mark.parametrize(
    ("X", "y", "says"),
    [
        ([[1.0, 1.0], [1.0, 1.0], [2.0, 0.0]], [1, -1, 1], "at the same place"),
        ([[1.0, 1.0], [2.0, 0.5], [0.0, 3.0]], [1, 1, 1], "All points have the same label"),
    ],
)
def test_degenerate_data_get_a_sentence_not_a_traceback(X, y, says):
    at = margin_page(custom=(np.array(X), np.array(y, float), "odd.csv"))
    assert says in texts(at)


def test_bias_off_measures_R_in_the_plane_and_c_moves_the_bound():
    at = margin_page({"mar_bias": "0"})
    assert metrics(at)["radius R"] == number(np.linalg.norm(X0, axis=1).max())
    at = margin_page({"mar_c": "3"})
    mm = max_margin(np.column_stack([X0, np.full(40, 3.0)]), Y0, bias=False)
    assert metrics(at)["bound (R/γ)²"] == number(mm.bound)
    assert at.slider(key="mar_c_w").value == 3.0
    at.slider(key="mar_c_w").set_value(1.0).run()
    assert metrics(at)["bound (R/γ)²"] == number(max_margin(X0, Y0).bound)
    assert "mar_c" not in at.query_params  # back at its default


def test_a_bad_url_value_falls_back_with_a_notice():
    at = open_app(query={"mar_c": "99", "mar_mode": "<b>"})  # the notices show on arrival
    assert at.session_state["mar_c"] == 1.0 and at.session_state["mar_mode"] == "plus"
    assert sum("mar_c" in w.value or "mar_mode" in w.value for w in at.warning) == 2
    at.switch_page("pages/margin.py").run()
    assert not at.exception and margin_scene(at)["mode"] == "plus"


def test_the_mode_buttons_choice_is_kept_in_the_session_and_the_link():
    at = margin_page({"mar_mode": "delete"})
    assert margin_scene(at)["mode"] == "delete"
    lab.on_surface(at.session_state, "mode", {"mode": "move"})
    at.run()
    assert margin_scene(at)["mode"] == "move" and at.query_params["mar_mode"] == "move"
    for forged in ({"mode": "<b>"}, {"mode": ["flip"]}, "flip", None):
        lab.on_surface(at.session_state, "mode", forged)
        at.run()
        assert not at.exception and margin_scene(at)["mode"] == "move"


def test_the_lazy_sections_show_the_bias_sweep_scaling_and_margins_tables():
    at = margin_page()
    assert len(at.dataframe) == 0  # nothing computed while closed
    for key in ("mar_open_bias", "mar_open_scale", "mar_open_margins"):
        at.session_state[key] = True
    at.run()
    assert not at.exception
    margins, scaling = at.dataframe
    mm = max_margin(X0, Y0)
    assert margins.value["y·w*·x (w*, ‖w*‖ = 1)"].min() == pytest.approx(mm.gamma)
    assert scaling.value["(R/γ)²"].tolist() == [number(mm.bound)] * 4  # as a student reads it
    assert "R = maxᵢ ‖(xᵢ, c)‖ = √(maxᵢ ‖xᵢ‖² + c²)" in texts(at)


def test_the_drawn_points_are_the_lecture_pages_dataset():
    at = margin_page()
    at.session_state["lec_t"] = 5
    lab.apply_event(at.session_state, "added", {"x": 0.1, "y": 0.2, "label": -1, "v": 0})
    at.run()
    assert at.session_state["lec_t"] == 0
    assert any("drawn in the margin lab (41 points)" in i.value for i in at.sidebar.info)
    at.switch_page("pages/lecture.py").run()
    assert not at.exception
    assert any("drawn in the margin lab (41 points)" in i.value for i in at.sidebar.info)


def test_a_dataset_too_big_to_draw_gets_a_message_and_keeps_the_shared_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 2))
    big = (X, np.where(X[:, 0] > 0, 1.0, -1.0), "big.csv")
    at = margin_page(custom=big)
    assert "at most 500 points; big.csv has 600" in texts(at)
    assert at.session_state["data_custom"][2] == "big.csv" and not has_instrument(at)


def test_looking_at_the_margin_lab_keeps_the_lecture_step():
    at = open_app("pages/lecture.py")
    lecture_step(at, 4)
    at.switch_page("pages/margin.py").run()
    assert not at.exception and at.session_state["lec_t"] == 4  # no edit: the same run
    at.switch_page("pages/lecture.py").run()
    assert not at.exception and at.session_state["lec_t"] == 4


def band_half_width(scene: dict) -> float:
    """The distance in the plane from w*'s solid line to the dashed band lines, as drawn."""
    lines = {line["cls"]: [] for line in scene["lines"]}
    for line in scene["lines"]:
        lines[line["cls"]].append(np.array(line["d"], dtype=float))
    ((a, b),) = lines["wstar"]
    along = (b - a) / np.linalg.norm(b - a)
    gaps = [
        abs(along[0] * (p - a)[1] - along[1] * (p - a)[0]) for band in lines["band"] for p in band
    ]
    assert len(gaps) == 4 and max(gaps) == pytest.approx(min(gaps), rel=1e-9)  # parallel
    return float(np.mean(gaps))


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no bias"])
def test_what_you_see_says_how_gamma_relates_to_the_band_drawn_in_the_plane(bias):
    at = margin_page({"mar_bias": "1" if bias else "0"})
    text = " ".join(texts(at).split())
    gamma = metrics(at)["margin γ"]
    drawn = band_half_width(margin_scene(at))
    said = re.search(r"the band's half-width in the plane is ([\d.]*\d)", text)
    assert said and said.group(1) == number(drawn)  # the sentence gives the band as drawn
    # the engine's γ and w*: on (x, 1) with bias, in the plane without
    mm = max_margin(X0, Y0, bias=bias)
    assert gamma == number(mm.gamma)
    assert drawn == pytest.approx(mm.gamma / np.linalg.norm(mm.w_star[:2]))
    if bias:
        assert "measured on the vectors (x, c) the perceptron sees" in text
        assert f"Here γ = {gamma} is measured on the vectors (x, 1)" in text
        assert mm.gamma < drawn - 0.001  # smaller: this w*'s line misses the origin
    else:
        assert f"Here γ = {gamma}, the band's half-width in the plane is {gamma}" in text
        assert drawn == pytest.approx(mm.gamma)


def test_one_pass_is_written_in_the_singular():
    xor = (
        np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]),
        np.array([1, 1, -1, -1.0]),
    )
    at = margin_page({"mar_max_epochs": "1"}, custom=(*xor, "xor.csv"))
    text = texts(at)
    assert "mistakes** in 1 pass and never finished a pass without one (limit: 1 pass)." in text


def plain_mistakes(Z: np.ndarray, y: np.ndarray, passes: int) -> tuple[int, bool]:
    """M and whether the run converged, counted by the plain loop (apptest_helpers)."""
    M, done, _, _ = plain_perceptron(Z, y, passes)
    return M, done


TWO_CLOSE = (np.array([[20.0, 2.0], [20.0, 3.0]]), np.array([1.0, -1.0]))
TWO_FAR = (np.array([[100.0, 10.0], [100.0, 11.0]]), np.array([1.0, -1.0]))


@pytest.mark.parametrize(("points", "truth"), [(TWO_CLOSE, 273), (TWO_FAR, 1841)])
def test_M_is_the_whole_count_however_many_passes_it_takes(points, truth):
    """Two points 1 apart far from the origin: the perceptron needs hundreds of passes, more
    than the lab's default limit of 100, and M is still the count until a clean pass."""
    X, y = points
    Z = np.column_stack([X, np.ones(2)])  # bias on, c = 1: the lab's defaults
    M, done = plain_mistakes(Z, y, passes=100_000)
    assert done and truth == M
    at = margin_page(custom=(X, y, "two points"))
    assert metrics(at)["mistakes M"] == number(M)
    text = texts(at)
    assert f"M = **{number(M)}** ≤ (R/γ)²" in text
    assert f"In {lab.ORDERS} shuffled orders M was {number(M)} every time" in text
    assert "not converged" not in text and not margin_scene(at)["banner"]


def test_a_count_cut_at_the_limit_is_said_to_be_a_lower_bound():
    """γ ≈ 10⁻⁵ at R ≈ 1,000: the bound is 10¹⁰ and the run stops at the lab's limit."""
    X, y = np.array([[1000.0, 1.0], [1000.0, 1.02]]), np.array([1.0, -1.0])
    Z = np.column_stack([X, np.ones(2)])
    passes = 10_000  # the most the lab runs on two points
    M, done = plain_mistakes(Z, y, passes=passes)
    assert not done
    at = margin_page(custom=(X, y, "two points"))
    assert metrics(at)["mistakes M"] == f"≥ {number(M)}"
    text = texts(at)
    assert f"M ≥ **{number(M)}**: the perceptron has not converged after 10,000 passes" in text
    assert "M = **" not in text
    assert f"{lab.ORDERS} of these runs had not converged" in text
    assert margin_scene(at)["banner"] == "The perceptron has not converged after 10,000 passes"


def test_the_bias_sweep_and_the_scaling_table_count_M_to_the_end_or_say_they_stopped():
    X, y = TWO_CLOSE
    at = margin_page(custom=(X, y, "two points"))
    at.session_state["mar_open_scale"] = True
    at.run()
    (scaling,) = at.dataframe
    shown = scaling.value["mistakes M"].tolist()
    Z = np.column_stack([X, np.ones(2)])
    # scaling every vector by s changes no mistake: M is the same whole count in each row
    assert shown == [number(plain_mistakes(Z, y, 100_000)[0])] * len(shown)
    rows = lab.constant_sweep(X, y, np.array([0.0, 1.0, -2.5]), (0.1, 1.0, 10.0), 100)
    for r in rows:
        M, done = plain_mistakes(np.column_stack([X, np.full(2, r.c)]), y, 10_000)
        assert (r.M, r.M_cut) == (M, not done)
