"""The rule in force, where only the rule decides: a tie (y·(w·x) = 0) and the strict rule.

The four rules of the handouts agree on every point off the line w·x = 0 and disagree on
the line. So wherever the lecture or the class question gives a verdict on a tie, it names
the rule that made it; and the strict rule of seed 002 from w = 0 (no mistake ever, so
nothing learned) is told as that, not as a run that converged with every point right.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import RULES, make_dataset
from ui.classmode import classroom as cr
from ui.classmode.question import truth_text
from ui.compute.model import RunSettings, record_run
from ui.lecture.figures import end_text, step_view


@pytest.mark.parametrize("rule", list(RULES))
def test_a_tie_s_verdict_names_the_rule_that_made_it(rule):
    """From w = 0 the first example is a tie under every rule: the maths, the chart's words
    and the sentence for a screen reader name the rule; a step off the line names none."""
    X, y = make_dataset("four_points")
    run = record_run(X, y, RunSettings(bias=False, rule=rule, max_epochs=20))
    steps = run.trace.steps
    assert steps is not None and steps.margin[0] == 0  # w = 0: the first step is a tie
    first = step_view(run, 1)
    mistake = bool(steps.mistake[0])
    assert mistake == (RULES[rule].tie_pos if y[0] > 0 else RULES[rule].tie_neg)
    assert RULES[rule].short in first["math"]["rule"]
    assert first["said"].startswith("point 1: w·x = 0, ")
    verdict = "a mistake" if mistake else "no mistake"
    assert f"has w·x = 0: {verdict} by the rule “{RULES[rule].short}”" in first["say"]
    off_line = [t for t in range(1, run.trace.n_steps + 1) if steps.margin[t - 1] != 0]
    for t in off_line[:10]:
        view = step_view(run, t)
        assert view["math"]["rule"] == "" and "w·x = 0" not in view["said"]


def test_the_strict_rule_from_zero_learns_nothing_and_says_so():
    """Seed 002's rule (mistake iff y·(w·x) < 0) from w = 0: w = 0 is never wrong, so the
    run ends at once; the end of the run and the sentence say that nothing was learned
    and that the points are on the line, not that w gets them right."""
    X, y = make_dataset("blobs", n=40, seed=0)
    run = record_run(X, y, RunSettings(rule="negative", max_epochs=5))
    T = run.trace.n_steps
    assert run.trace.n_mistakes == 0 and run.trace.converged
    end = end_text(run, T)
    assert "nothing was learned" in end and "converged" not in end, end
    say = step_view(run, T)["say"]
    assert "gets 0 of 40 points right" in say, say
    assert "40 have w·x = 0, which the rule “mistake iff y·(w·x) < 0”" in say, say


def test_the_strict_rule_from_a_start_on_a_point_says_it_is_on_the_line():
    """From w₀ = (1, 0, 0) under the strict rule a point at x₁ = 0 is no mistake and no
    right answer either: the run converges, and the end names the point left on the line."""
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.5]])
    y = np.array([1, 1, -1])
    run = record_run(X, y, RunSettings(rule="negative", w0=(1.0, 0.0, 0.0), max_epochs=5))
    assert run.trace.converged and run.trace.n_mistakes == 0
    end = end_text(run, run.trace.n_steps)
    assert "1 point on the line w·x = 0 (not separated)" in end, end


def question(margin_zero: bool, rule: str, mistake: bool) -> cr.Question:
    w = (0.0, 0.0, 0.0) if margin_zero else (0.5, -1.0, 0.0)
    return cr.Question(
        id=0,
        t=3,
        point=1,
        x=(1.0, 2.0),
        z=(1.0, 2.0, 1.0),
        y=1,
        w=w,
        rule=rule,
        eta=1.0,
        mistake=mistake,
        turn="none",
    )


@pytest.mark.parametrize("rule", list(RULES))
def test_the_class_question_s_answer_names_the_rule_on_a_tie(rule):
    """The answer the class sees after Reveal: on a tie (w = 0) it names the rule, the
    only thing that decided; off the line it names none."""
    tie = question(True, rule, RULES[rule].tie_pos)  # y = +1
    assert f"(a tie: {RULES[rule].short})" in truth_text(tie)
    off = question(False, rule, True)  # y·w·z = 0.5 − 2 < 0: a mistake under every rule
    assert "a tie" not in truth_text(off)
