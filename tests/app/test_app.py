"""The app starts and its home page shows the worked example from the engine."""

from apptest_helpers import open_app


def test_home_page_runs_and_shows_the_worked_example():
    at = open_app()
    assert not at.exception
    assert at.title[0].value == "Perceptron Lab"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["mistakes M"] == "2"
    assert metrics["final w"] == "(2, 1)"
    assert metrics["bound (R/γ)²"] == "5.00"
