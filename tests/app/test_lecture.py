"""The lecture page's logic through AppTest: controls move t, k and w; the URL round-trips."""

import re

import pytest
from apptest_helpers import lecture_scene, lecture_status, lecture_step, lecture_view, open_app
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, train
from ui.look.numbers import number


def lecture(query: dict[str, str] | None = None) -> AppTest:
    at = open_app("pages/lecture.py", query)
    assert not at.exception
    return at


status = lecture_status


def test_a_reported_step_moves_t_k_and_w_and_the_status_says_so():
    X, y = make_dataset("separable", n=40, seed=0)
    trace = train(X, y)
    at = lecture()
    assert "step t = 0 of" in status(at) and "no example shown yet" in status(at)
    lecture_step(at, 1)
    assert at.session_state["lec_t"] == 1
    assert "mistakes k = 1" in status(at)  # w = 0 errs on the first example
    assert "epoch 1, example 1 of 40" in status(at)
    t2 = int(trace.mistake_steps[1, 0]) + 1
    lecture_step(at, t2)
    assert "mistakes k = 2" in status(at) and f"step t = {t2} of" in status(at)
    lecture_step(at, 40)  # the 40th example is the last of epoch 1, not the first of epoch 2
    assert "epoch 1, example 40 of 40" in status(at)
    lecture_step(at, trace.n_steps)
    assert f"mistakes k = {trace.n_mistakes}" in status(at) and "converged" in status(at)
    lecture_step(at, 0)
    assert at.session_state["lec_t"] == 0 and "mistakes k = 0" in status(at)
    assert not at.exception


def test_the_update_is_written_out_with_the_current_numbers():
    at = lecture()
    lecture_step(at, 1)
    X, _ = make_dataset("separable", n=40, seed=0)
    maths = lecture_view(at)["math"]
    assert maths["mistake"] and maths["i"] == 1 and maths["y"] == "+1"
    assert maths["wa"] == [number(X[0, 0]), number(X[0, 1]), "1"]  # w = 0 + (+1)(x, 1)
    lecture_step(at, 2)  # point 2 is on the right side of that w
    maths = lecture_view(at)["math"]
    assert not maths["mistake"] and "wa" not in maths
    assert maths["w"] == [number(X[0, 0]), number(X[0, 1]), "1"]  # the same w, kept


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


def test_a_fixed_size_dataset_from_a_link_warns_only_about_a_size_the_link_asked_for():
    """Seed 001's four points have exactly 4: a link naming the dataset alone opens it
    without a word; a link asking for 40 of them is told the size in plain words."""
    plain = open_app(query={"data_name": "four_points"})
    assert not plain.exception and not plain.warning, [w.value for w in plain.warning]
    assert plain.session_state["data_n"] == 4
    sized = open_app(query={"data_name": "four_points", "data_n": "40"})
    notices = " ".join(w.value for w in sized.warning)
    assert "has exactly 4 points; using 4." in notices, notices


def test_the_scene_holds_a_window_of_steps_and_stays_the_same_while_stepping_inside_it():
    at = lecture({"data_n": "150"})  # 150 points: the run is longer than one window
    scene = lecture_scene(at)
    assert (scene["start"], scene["stop"]) == (0, 100)
    assert [v["t"] for v in scene["steps"]] == list(range(101))
    lecture_step(at, 3)
    after = lecture_scene(at)
    assert after["t"] == 3 and after["seq"] == 1
    # the browser draws step 3 itself: the window sent is the same (the step's message
    # also carries the server's clock as sent, for a Play's lateness)
    moved = ("t", "seq", "sent")
    assert {k: v for k, v in after.items() if k not in moved} == {
        k: v for k, v in scene.items() if k not in moved
    }
    lecture_step(at, 150)  # a step outside the window: the next window, holding it
    scene = lecture_scene(at)
    assert scene["t"] == 150 and scene["start"] <= 150 <= scene["stop"]
    assert "step t = 150 of" in status(at)
    assert not at.exception


def test_a_step_past_the_end_of_the_run_shows_the_end_with_a_notice():
    at = lecture({"lec_t": "5000"})
    assert "step t = 80 of 80" in status(at)
    assert any("ends after 80 steps" in i.value for i in at.info)


def test_the_open_mistake_log_shows_its_last_rows_and_offers_all_of_them_as_csv():
    query = {"data_name": "xor", "data_n": "200", "lec_max_epochs": "30", "lec_t": "6000"}
    at = open_app("pages/lecture.py", query)
    assert not at.exception and not at.dataframe  # closed: nothing built
    k = lecture_view(at)["k"]
    at.session_state["lec_log"] = True
    at.run()
    assert not at.exception
    table = at.dataframe[0].value
    assert len(table) == 1000 and table["k"].iloc[-1] == k and table["k"].iloc[0] == k - 999
    assert any(f"The last 1,000 of the {k:,} mistakes" in c.value for c in at.caption)
    log_csv = next(b for b in at.get("download_button") if b.key == "lec_log_download")
    assert f"{k:,} mistakes" in log_csv.proto.label


def test_the_run_as_a_file_says_its_steps_and_a_long_run_where_it_is_cut():
    def run_button(at: AppTest) -> str:
        found = [b for b in at.get("download_button") if b.key == "lec_run_download"]
        assert len(found) == 1
        return str(found[0].proto.label)

    at = open_app("pages/lecture.py")
    assert not at.exception
    assert run_button(at) == "Download this run (HTML, 80 steps, plays offline)"
    query = {"data_name": "xor", "data_n": "200", "lec_max_epochs": "30", "lec_t": "6000"}
    at = open_app("pages/lecture.py", query)  # 6,000 steps: the last 5,000 of them
    assert run_button(at) == (
        "Download steps 1,000 to 6,000 of 6,000 (HTML; a file holds at most 5,000 steps)"
    )


def step(at: AppTest, times: int) -> None:
    lecture_step(at, at.session_state["lec_t"] + times)


def test_a_dataset_change_in_the_sidebar_restarts_the_lecture_run():
    at = lecture()
    step(at, 3)
    assert at.session_state["lec_t"] == 3
    at.sidebar.selectbox(key="data_name_w").set_value("xor").run()  # here
    assert at.session_state["lec_t"] == 0 and "step t = 0 of" in status(at)
    assert "lec_t" not in at.query_params
    step(at, 2)
    at.switch_page("pages/home.py").run()  # on another page: the dataset folded
    with pytest.raises(KeyError):
        at.sidebar.number_input(key="data_seed_w")
    at.session_state["data_elsewhere"] = True  # the student unfolds it
    at.run()
    at.sidebar.number_input(key="data_seed_w").set_value(7).run()
    at.switch_page("pages/lecture.py").run()
    assert at.session_state["lec_t"] == 0 and "step t = 0 of" in status(at)
    step(at, 2)
    at.switch_page("pages/home.py").run()  # folded again: a page switch forgets it
    at.session_state["data_elsewhere"] = True
    at.run()
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
    assert at.session_state["lec_t"] == 0 and "step t = 0 of" in status(at)
    step(at, 5)
    lecture_step(at, 0)  # Reset
    assert at.session_state["lec_t"] == 0 and "step t = 0 of" in status(at)
    assert not at.exception


def test_a_shared_link_opens_at_its_step_and_the_step_stays_on_a_page_switch():
    at = lecture({"lec_t": "12"})
    assert at.session_state["lec_t"] == 12 and "step t = 12 of" in status(at)
    for page in ("pages/proof.py", "pages/margin.py", "pages/home.py"):
        at.switch_page(page).run()  # looked at, nothing changed: the same run
        at.switch_page("pages/lecture.py").run()
        assert at.session_state["lec_t"] == 12 and "step t = 12 of" in status(at), page
    assert at.query_params["lec_t"] == "12"
    assert not at.exception


def test_a_shared_link_first_opened_on_another_page_keeps_its_step():
    at = open_app("pages/proof.py", {"lec_t": "12", "lec_rule": "predict_ge"})
    at.switch_page("pages/lecture.py").run()
    assert at.session_state["lec_t"] == 12 and "step t = 12 of" in status(at)
    assert not at.exception


def test_presenter_mode_shows_the_runs_settings_in_the_player_not_above_it():
    """The widgets are hidden on a projector: the player's second status line says the
    settings (one row less above the chart than a caption), and nothing says them twice."""
    query = {"app_presenter": "1", "lec_bias": "0", "lec_rule": "negative"}
    at = lecture(query)
    summary = lecture_scene(at)["summary"]
    assert summary.startswith("Run: no bias · ") and "mistake iff y·(w·x) < 0" in summary
    assert not [c.value for c in at.caption if c.value.startswith("Run: ")]
    bias = "bias (x ← (x, 1))"
    assert bias not in [t.label for t in at.toggle]  # no settings widgets on the page
    plain = lecture({"lec_bias": "0"})
    assert lecture_scene(plain)["summary"] == ""  # the widgets say it
    assert bias in [t.label for t in plain.toggle]


def test_presenter_mode_opens_from_a_bookmark_but_never_travels_in_the_pages_link():
    """A lecturer's bookmark ``?app_presenter=1`` opens the projector's layout; the address
    bar (and so every link copied from it) keeps the lesson's step and settings, not the
    layout: a student who opens the link sees the page as everyone does."""
    at = lecture({"app_presenter": "1", "lec_t": "9", "lec_rule": "negative"})
    assert at.session_state["app_presenter"] is True and lecture_scene(at)["presenter"] is True
    url = dict(at.query_params)
    assert url.get("lec_t") == "9" and url.get("lec_rule") == "negative"
    assert "app_presenter" not in url
    at.session_state["lec_t"] = 10  # a step later, still presenting: still not in the link
    at.run()
    assert "app_presenter" not in dict(at.query_params) and at.session_state["app_presenter"]
    student = lecture(dict(at.query_params))  # the link, opened by a student
    assert student.session_state["app_presenter"] is False
    assert lecture_scene(student)["t"] == 10


def test_the_players_code_goes_as_files_once_not_inside_each_step():
    """Every step the server draws sends the player's element: it carries a few lines that
    import the player's code and link its styles, not the 90 kB themselves; the files the
    app's route serves under those names hold the page's code and styles."""
    from ui.lecture import player
    from ui.server import code

    at = lecture({"lec_t": "3"})
    for t in (4, 150):  # a step in the window, and one that draws the next window
        lecture_step(at, t)
        proto = next(
            e.proto
            for e in at.get("bidi_component")
            if e.proto.component_name == "perceptron.lecture"
        )
        assert len(proto.js_content) < 800 and not proto.css_content, "the code rides along"
        assert not proto.js_source_path  # no script element per message: an import
        urls = re.findall(r'"(/api/code/[^"]+)"', proto.js_content)
    assert len(urls) == 2, proto.js_content
    css, js = (code.served(u.rsplit("/", 1)[1]) for u in urls)
    assert js is not None and js.decode() == player._JS and "export default" in js.decode()
    assert css is not None and css.decode() == player._CSS
