"""The home page's worked examples (``ui.home.examples``) against the handouts and the
engine, and the settings that open each on the lecture page, without Streamlit."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import DATASETS, RULES, make_dataset, max_margin, train
from ui.app.state import SETTINGS, to_query, widget_key
from ui.home.examples import (
    EXAMPLES,
    WorkedExample,
    data,
    open_on_lecture,
    run_settings,
    settings,
    worked,
)
from ui.lecture import steps
from ui.lecture.restart import follow

FOUR = next(e for e in EXAMPLES if e.key == "four_points")


def default_session(**changes) -> dict:
    return {key: s.default for key, s in SETTINGS.items()} | changes


def test_seed_001s_four_points_are_the_handouts_training_data():
    X, y = data(FOUR)
    # seed 001's table: (1, 2) y = 1, (2, 1) y = 1, (-1, -1) y = -1, (-1, 1) y = -1
    assert X.tolist() == [[1, 2], [2, 1], [-1, -1], [-1, 1]]
    assert y.tolist() == [1, 1, -1, -1]


def test_seed_001s_example_is_its_online_perceptron():
    """Seed 001: unbiased h_w, w_0 = 0, FOR i = 1 TO n in order, IF y_i(w_k·x_i) <= 0,
    w_{k+1} = w_k + y_i x_i."""
    s = settings(FOUR)
    assert s["data_name"] == "four_points"
    assert s["lec_bias"] is False
    assert s["lec_w0"] == "zero" and s["lec_order"] == "given"
    assert s["lec_eta"] == 1.0 and s["lec_scale"] == "given"
    assert s["lec_rule"] == FOUR.rule == "nonpositive"
    assert "Cornell CS6780" in RULES[FOUR.rule].source
    assert "lec_t" not in s  # the step is ui.lecture.restart's


def test_the_four_points_give_the_handouts_mistakes_and_final_w():
    """Worked by hand from seed 001's algorithm: (1, 2)+ errs (0 <= 0), w = (1, 2);
    (2, 1)+ and (-1, -1)- pass (4 and 3); (-1, 1)- errs (-1 <= 0), w = (2, 1); the
    second pass makes no mistake (4, 5, 3, 1)."""
    run = worked(FOUR)
    assert run.trace.n_mistakes == 2
    assert run.trace.w.tolist() == [2.0, 1.0]
    assert run.trace.weights.tolist() == [[0, 0], [1, 2], [2, 1]]
    assert run.trace.mistake_steps[:, 1].tolist() == [0, 3]  # the 1st and 4th points
    assert run.trace.converged and run.trace.n_epochs == 2
    # the engine called directly, as the handout writes it
    X, y = make_dataset("four_points")
    direct = train(X, y, bias=False, w0=None, eta=1.0, rule="nonpositive")
    assert np.array_equal(direct.w, run.trace.w)
    mm = max_margin(X, y, bias=False)
    assert run.mm is not None and run.mm.bound == pytest.approx(mm.bound)
    assert run.trace.n_mistakes <= mm.bound  # R²/δ² = 5


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_lecture_runs_what_the_home_page_shows(example):
    """The session the button leaves is read by the lecture's own code into the run the
    home page's metrics come from."""
    ss = default_session()
    open_on_lecture(ss, example)
    X, y = data(example)
    spec = DATASETS[ss["data_name"]]
    params = {p.name: ss[f"data_{spec.key}_{p.name}"] for p in spec.params}
    Xs, ys = make_dataset(ss["data_name"], n=ss["data_n"], seed=ss["data_seed"], **params)
    assert np.array_equal(Xs, X) and np.array_equal(ys, y)
    lecture_settings, notes = steps.run_settings(ss, X)
    assert notes == []
    assert lecture_settings == run_settings(example)


def test_opening_replaces_every_setting_of_the_run_and_the_uploaded_data():
    ss = default_session(
        data_name="xor",
        data_n=100,
        data_seed=7,
        lec_bias=True,
        lec_eta=0.5,
        lec_w0="typed",
        lec_w0_typed="1, 2, 3",
        lec_order="shuffle",
        lec_rule="predict_ge",
        lec_scale="unit",
        lec_max_epochs=9,
        lec_t=5,
        xor_epochs=50,
        data_custom=(np.zeros((2, 2)), np.array([1, -1]), "mine.csv"),
    )
    ss[widget_key("lec_bias")] = True  # a drawn widget's own key
    open_on_lecture(ss, FOUR)
    assert "data_custom" not in ss
    assert to_query(ss) == {
        "data_name": "four_points",
        "data_n": "4",
        "lec_bias": "0",
        "lec_t": "5",
        "xor_epochs": "50",
    }
    assert ss[widget_key("lec_bias")] is False  # the widget shows the setting
    assert ss["lec_t"] == 5  # the step is left to ui.lecture.restart (the page restarts it)


def test_the_lecture_restarts_on_the_example():
    ss = default_session(lec_t=5)
    X0, y0 = make_dataset("separable", n=40, seed=0)
    follow(ss, X0, y0)
    open_on_lecture(ss, FOUR)
    assert follow(ss, *data(FOUR)) is True and ss["lec_t"] == 0


def test_a_worked_example_names_only_lecture_run_settings():
    with pytest.raises(ValueError, match="not a lecture run setting"):
        WorkedExample("x", "x", "seed 001", "x", "four_points", {"lec_t": 3})
    with pytest.raises(ValueError, match="not a lecture run setting"):
        WorkedExample("x", "x", "seed 001", "x", "four_points", {"data_seed": 3})
    with pytest.raises(ValueError, match="not a setting's value"):
        WorkedExample("x", "x", "seed 001", "x", "four_points", {"lec_bias": 0})
    with pytest.raises(ValueError, match="unknown dataset"):
        WorkedExample("x", "x", "seed 001", "x", "nope")


def test_every_example_has_a_unique_home_button_key():
    keys = [e.button_key for e in EXAMPLES]
    assert len(set(keys)) == len(keys) and all(k.startswith("home_") for k in keys)
