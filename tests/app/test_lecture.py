"""The lecture page's logic through AppTest: controls move t, k and w; the URL round-trips."""

import json

import pytest
from apptest_helpers import lecture_status, open_app
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, train


def lecture(query: dict[str, str] | None = None) -> AppTest:
    at = open_app("pages/lecture.py", query)
    assert not at.exception
    return at


status = lecture_status


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
    at.button(key="lec_step").click().run()  # point 1 is on the right side of that w
    predict, update = (latex.value for latex in at.latex)
    assert r"\text{correct}" in predict and r"\text{no update: }" in update
    assert f"({X[0, 0]:.3g},\\ {X[0, 1]:.3g},\\ 1)" in update  # the same w, kept


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
    at = open_app(query={name: value})
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    assert name in notices
    assert "<script>" not in at.session_state["data_name"]


def chart_spec(at: AppTest) -> dict:
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def stamp(frame_or_spec: dict) -> str:
    """The 't = .. · k = ..' label drawn in the data panel."""
    return next(tr["text"][0] for tr in frame_or_spec["data"] if "t = " in str(tr.get("text", "")))


def test_the_chart_holds_a_frame_per_step_and_stays_the_same_while_stepping_inside_it():
    at = lecture({"data_n": "150"})  # 150 points: the run is longer than one chart window
    spec = chart_spec(at)
    frames = spec["frames"]
    assert [f["name"] for f in frames[:2]] == ["0", "1"] and frames[-1]["name"] == "100"
    assert "t = 0 ·" in stamp(frames[0]) and "t = 100 ·" in stamp(frames[-1])
    labels = [b["label"] for b in spec["layout"]["updatemenus"][0]["buttons"]]
    assert labels == ["Play 2/s", "Play 8/s", "Play 30/s", "Pause"]
    assert len(spec["layout"]["sliders"][0]["steps"]) == len(frames)
    for _ in range(3):
        at.button(key="lec_step").click().run()
    assert at.session_state["lec_t"] == 3
    assert chart_spec(at) == spec  # the browser moves to frame 3 itself: nothing redrawn
    at.button(key="lec_epoch").click().run()  # step 150: the next window
    assert at.session_state["lec_t"] == 150
    assert chart_spec(at)["frames"][0]["name"] == "100" and "t = 150 ·" in stamp(
        chart_spec(at)["frames"][50]
    )
    assert not at.exception


def test_a_step_past_the_end_of_the_run_shows_the_end_with_a_notice():
    at = lecture({"lec_t": "5000"})
    assert "step **t = 80** of 80" in status(at)
    assert any("ends after 80 steps" in i.value for i in at.info)


def test_the_open_mistake_log_shows_its_last_rows_and_offers_all_of_them_as_csv():
    query = {"data_name": "xor", "data_n": "200", "lec_max_epochs": "30", "lec_t": "6000"}
    at = open_app("pages/lecture.py", query)
    assert not at.exception and not at.dataframe  # closed: nothing built
    k = int(status(at).split("mistakes **k = ")[1].split("**")[0])
    at.session_state["lec_log"] = True
    at.run()
    assert not at.exception
    table = at.dataframe[0].value
    assert len(table) == 1000 and table["k"].iloc[-1] == k and table["k"].iloc[0] == k - 999
    assert any(f"The last 1,000 of the {k:,} mistakes" in c.value for c in at.caption)
    assert f"{k:,} mistakes" in at.get("download_button")[0].proto.label


def step(at: AppTest, times: int) -> None:
    for _ in range(times):
        at.button(key="lec_step").click().run()


def test_a_dataset_change_in_the_sidebar_restarts_the_lecture_run():
    at = lecture()
    step(at, 3)
    assert at.session_state["lec_t"] == 3
    at.sidebar.selectbox(key="data_name_w").set_value("xor").run()  # here
    assert at.session_state["lec_t"] == 0 and "step **t = 0** of" in status(at)
    assert "lec_t" not in at.query_params
    step(at, 2)
    at.switch_page("pages/home.py").run()  # on another page
    at.sidebar.number_input(key="data_seed_w").set_value(7).run()
    at.switch_page("pages/lecture.py").run()
    assert at.session_state["lec_t"] == 0 and "step **t = 0** of" in status(at)
    step(at, 2)
    at.switch_page("pages/home.py").run()
    at.sidebar.button(key="data_regenerate").click().run()  # seed 7 -> 8
    at.switch_page("pages/lecture.py").run()
    assert at.session_state["data_seed"] == 8 and at.session_state["lec_t"] == 0
    assert not at.exception


def test_leaving_the_generated_data_restarts_the_lecture_run():
    X, y = make_dataset("separable", n=10, seed=5)
    at = open_app("pages/lecture.py", session={"data_custom": (X, y, "mine.csv")})
    step(at, 4)
    assert "mine" in status(at) and at.session_state["lec_t"] == 4
    at.sidebar.button(key="data_back").click().run()
    assert "Separable" in status(at) and at.session_state["lec_t"] == 0
    assert not at.exception


def test_a_run_setting_changed_here_restarts_the_run_and_reset_goes_to_0():
    at = lecture()
    step(at, 5)
    at.number_input(key="lec_eta_w").set_value(0.5).run()
    assert at.session_state["lec_t"] == 0 and "step **t = 0** of" in status(at)
    step(at, 5)
    at.button(key="lec_reset").click().run()
    assert at.session_state["lec_t"] == 0 and "step **t = 0** of" in status(at)
    assert not at.exception


def test_a_shared_link_opens_at_its_step_and_the_step_stays_on_a_page_switch():
    at = lecture({"lec_t": "12"})
    assert at.session_state["lec_t"] == 12 and "step **t = 12** of" in status(at)
    for page in ("pages/proof.py", "pages/margin.py", "pages/home.py"):
        at.switch_page(page).run()  # looked at, nothing changed: the same run
        at.switch_page("pages/lecture.py").run()
        assert at.session_state["lec_t"] == 12 and "step **t = 12** of" in status(at), page
    assert at.query_params["lec_t"] == "12"
    assert not at.exception


def test_a_shared_link_first_opened_on_another_page_keeps_its_step():
    at = open_app("pages/proof.py", {"lec_t": "12", "lec_rule": "predict_ge"})
    at.switch_page("pages/lecture.py").run()
    assert at.session_state["lec_t"] == 12 and "step **t = 12** of" in status(at)
    assert not at.exception
