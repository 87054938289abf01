"""The lecture page's logic through AppTest: controls move t, k and w; the URL round-trips."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, train

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def lecture(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/lecture.py").run()
    assert not at.exception
    return at


def status(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "step **t =" in m.value)


def test_step_next_mistake_epoch_run_and_reset_move_the_run():
    X, y = make_dataset("separable", n=40, seed=0)
    trace = train(X, y)
    at = lecture()
    at.button(key="lec_step").click().run()
    assert at.session_state["lec_t"] == 1
    assert "mistakes **k = 1**" in status(at)  # w = 0 errs on the first example
    at.button(key="lec_next").click().run()
    assert at.session_state["lec_t"] == trace.mistake_steps[1, 0] + 1
    assert "mistakes **k = 2**" in status(at)
    at.button(key="lec_epoch").click().run()
    assert at.session_state["lec_t"] == 40
    at.button(key="lec_run").click().run()
    assert at.session_state["lec_t"] == trace.n_steps
    assert f"mistakes **k = {trace.n_mistakes}**" in status(at) and "converged" in status(at)
    at.button(key="lec_reset").click().run()
    assert at.session_state["lec_t"] == 0 and "mistakes **k = 0**" in status(at)
    assert not at.exception


def test_the_update_is_written_out_with_the_current_numbers():
    at = lecture()
    at.button(key="lec_step").click().run()
    X, _ = make_dataset("separable", n=40, seed=0)
    predict, update = (latex.value for latex in at.latex)
    assert r"\text{mistake}" in predict
    assert f"({X[0, 0]:.3g},\\ {X[0, 1]:.3g},\\ 1)" in update  # w = 0 + (+1)(x, 1)


def test_settings_round_trip_through_the_url():
    at = lecture(
        {
            "data_name": "xor",
            "data_n": "8",
            "data_seed": "3",
            "lec_t": "5",
            "lec_bias": "0",
            "lec_rule": "predict_ge",
        }
    )
    assert at.session_state["data_name"] == "xor"
    assert at.session_state["lec_t"] == 5
    assert "not separable" in status(at)
    query = {k: str(v) for k, v in at.query_params.items()}
    assert query["data_name"] == "xor" and query["lec_t"] == "5"
    assert query["lec_bias"] == "0" and query["lec_rule"] == "predict_ge"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("data_name", "<script>alert(1)</script>"),
        ("data_n", "-5"),
        ("data_seed", "1e99"),
        ("lec_eta", "nan"),
        ("lec_t", "abc"),
        ("lec_rule", "sometimes"),
        ("bogus", "1"),
    ],
)
def test_tampered_url_parameters_fall_back_with_a_notice(name, value):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params[name] = value
    at.run()
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    assert name in notices
    assert "<script>" not in at.session_state["data_name"]
