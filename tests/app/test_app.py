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


def test_the_sidebar_says_when_a_page_does_not_use_its_dataset():
    own = "This page has data of its own"
    for page, uses_it in (
        ("pages/spam.py", False),
        ("pages/experts.py", False),
        ("pages/lecture.py", True),
    ):
        at = open_app(page)
        said = any(own in c.value for c in at.sidebar.caption)
        assert said is not uses_it, page
