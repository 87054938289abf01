"""The app starts and its home page shows the worked example from the engine."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_home_page_runs_and_shows_the_worked_example():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert at.title[0].value == "Perceptron Lab"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["mistakes M"] == "2"
    assert metrics["final w"] == "(2, 1)"
    assert metrics["bound (R/γ)²"] == "5.00"
