"""The variants page's figures and tables (pure): one figure per panel, numbers written by
ui.look.numbers (12,346 not 1.23e+04), the bound on the histogram or a note where it is off."""

from types import SimpleNamespace

import numpy as np
import pytest

from perceptron_core import make_dataset
from ui.look.numbers import AXIS
from ui.variants import figures as var


def fake_starts(
    mistakes: list[int], bound: float | None, done: list[bool] | None = None
) -> var.Starts:
    converged = np.array(done if done is not None else [True] * len(mistakes))
    runs = SimpleNamespace(n_mistakes=np.array(mistakes), converged=converged)
    return var.Starts(np.zeros((2, 2)), np.array([1.0, -1.0]), runs, bound, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bound", "note", "head"),
    [
        (12_345.6, "bound 12,346 →<br>(off the chart)", "2-D: M from 3 to 1,204; bound 12,346"),
        (1500.0, None, "2-D: M from 3 to 1,204; bound 1,500"),
        (None, None, "2-D: M from 3 to 1,204; not separable: no bound"),
    ],
)
def test_the_histogram_shows_the_bound_or_says_where_it_is(bound, note, head):
    s = fake_starts([3, 50, 1204], bound)
    fig = var.mistakes_figure(s)
    notes = [a["text"] for a in fig["layout"]["annotations"]]
    assert notes == ([note] if note else [])
    lines = [sh["x0"] for sh in fig["layout"]["shapes"]]
    assert lines == ([bound] if bound == 1500.0 else [])  # the bound on the chart: a line
    assert var.mistakes_head("2-D", s) == head
    assert fig["layout"]["xaxis"].items() >= AXIS.items()
    assert fig["layout"]["yaxis"].items() >= AXIS.items()


def test_the_head_says_how_many_runs_stopped_before_converging():
    s = fake_starts([45, 60, 89], 1500.0, [True, False, False])
    assert var.mistakes_head("8 vs 9", s) == (
        "8 vs 9: M from 45 to 89 (2 of 3 runs had not converged: their M is a lower bound); "
        "bound 1,500"
    )


def test_the_cost_table_writes_its_numbers_with_thousands_separators():
    rows = var.cost_rows([("digits", 1245, 65)])
    assert rows == [
        {
            "run": "digits",
            "d'": "65",
            "last, averaged: vectors": "1",
            "last, averaged: multiply-adds": "65",
            "voted: vectors": "1,245",
            "voted: multiply-adds": "80,925",
            "voted ÷ averaged": "1,245",
        }
    ]


def test_each_read_out_of_the_runs_is_a_figure_of_its_own():
    X, y = make_dataset("separable", n=60, seed=1)
    s = var.starts(X, y, runs=5, epochs=5, w0_norm=1.0, seed=1)
    last, averaged = (var.hyperplanes_figure(s, key) for key in ("last", "averaged"))
    for fig, key in ((last, "last"), (averaged, "averaged")):
        assert [k for k in fig["layout"] if k.endswith("axis")] == ["xaxis", "yaxis"]
        runs = next(t for t in fig["data"] if t["name"].endswith("of each run"))
        assert runs["name"] == f"{var.NAMES[key]} of each run"
        assert runs["x"].count(None) == 5  # one segment per run
    assert last["data"][-1]["name"] == averaged["data"][-1]["name"] == "w*"


def test_percentages_and_hovers_are_plain():
    X, y = make_dataset("separable", n=60, seed=1)
    exp, _ = var.experiment(X, y, noise=0.1, epochs=5, seed=1)
    fig = var.errors_figure(exp.errors, 0.00049, title="t")
    assert fig["data"][-1]["name"] == "w* test (0.0%)"  # not "−0.0%" or "4.9e−4"
    assert fig["layout"]["title"]["automargin"]
    points = var.boundaries_figure(exp, {"x": [0.0], "y": [0.0], "z": [[0.0]]})["data"][0]
    assert points["hovertemplate"] == "(%{x:,.3~r}, %{y:,.3~r})<extra></extra>"
