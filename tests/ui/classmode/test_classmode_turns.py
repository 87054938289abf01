""" "Which way will the line turn?" is answered by the picture on the card: the truth is the
turn of the drawn line (an undirected line, by its smaller angle), recomputed here with a
plain perceptron loop and the lines' angles, never with the engine or ``turn_of``.

The card's words say what the step did to the line (it turned, appeared, vanished, only
moved, or its sides swapped), and its note says "w = 0" only when w is 0."""

from __future__ import annotations

import math

import numpy as np
import pytest
from classroom_helpers import question as base_question

from perceptron_core import make_dataset
from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import turns
from ui.classmode.question import graded_text, question_figure, truth_text
from ui.compute.model import RunSettings, record_run
from ui.lecture.question import at_step


def plain_steps(X: np.ndarray, y: np.ndarray, passes: int) -> list[tuple[np.ndarray, int]]:
    """(w before the step, index of the point) for every step of the perceptron with the
    bias feature 1 last, from w = 0, η = 1, the given order, mistake iff y·w·x ≤ 0."""
    Z = np.column_stack([X, np.ones(len(X))])
    w = np.zeros(3)
    out = []
    for _ in range(passes):
        for i in range(len(X)):
            out.append((w.copy(), i))
            if y[i] * (w @ Z[i]) <= 0:
                w = w + y[i] * Z[i]
    return out


def drawn_turn(before: np.ndarray, after: np.ndarray) -> str | None:
    """The turn a student sees: the angle of each drawn line (mod 180°, a line has no arrow)
    and the smaller way from one to the other. None when the picture cannot tell (a turn
    of exactly 90°, or no line on one side)."""
    if math.hypot(*before[:2]) == 0 or math.hypot(*after[:2]) == 0:
        return "none"
    a = math.degrees(math.atan2(-before[0], before[1])) % 180  # direction of the line
    b = math.degrees(math.atan2(-after[0], after[1])) % 180
    d = (b - a + 90) % 180 - 90  # in [-90, 90)
    if abs(d) < 1e-6:
        return "none"
    if abs(abs(d) - 90) < 1e-6:
        return None
    return "ccw" if d > 0 else "cw"


def questions(name: str, n: int, seed: int, **params: float):
    """Every mistake step of the first passes of a default lecture run on a dataset, as the
    lecture asks it, with w before and after from the plain loop."""
    X, y = make_dataset(name, n=n, seed=seed, **params)
    run = record_run(X, y, RunSettings())
    steps = plain_steps(X, y, passes=5)
    for t, (w, i) in enumerate(steps[: run.trace.n_steps]):
        q = at_step(run, t)
        assert not isinstance(q, str)
        np.testing.assert_allclose(q.w, w, atol=1e-9)  # the same run as the plain loop
        assert q.point == i
        if q.mistake:
            yield q, w, w + y[i] * np.append(X[i], 1.0)


def test_the_audits_step_turns_clockwise_on_the_card_as_drawn() -> None:
    """Noisy data, n = 20, seed 1, step 2: the normal turns by +147°, the line drawn by 33°
    clockwise, and the card says clockwise."""
    X, y = make_dataset("noisy", n=20, seed=1)
    w, i = plain_steps(X, y, passes=1)[1]
    np.testing.assert_allclose(w, [-0.817, 0.596, -1.0], atol=1e-3)
    after = w + y[i] * np.append(X[i], 1.0)
    np.testing.assert_allclose(after, [0.6, -1.58, 0.0], atol=1e-2)
    normal = math.degrees(math.atan2(after[1], after[0]) - math.atan2(w[1], w[0])) % 360
    assert 140 < normal < 150  # the normal turned counter-clockwise by more than 90°
    assert drawn_turn(w, after) == "cw"
    q = at_step(record_run(X, y, RunSettings()), 1)
    assert not isinstance(q, str) and q.turn == "cw"
    assert "the line turned clockwise" in truth_text(q)
    assert graded_text(q, True, "cw") == "mistake ✓ right · clockwise ✓ right"


@pytest.mark.parametrize(
    ("name", "params"),
    [("xor", {}), ("circles", {}), ("noisy", {}), ("separable", {}), ("xor", {"spread": 0.0})],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_graded_turn_is_the_turn_of_the_drawn_line_on_every_dataset(name, params, seed):
    seen = 0
    for q, before, after in questions(name, 20, seed, **params):
        truth = drawn_turn(before, after)
        if truth is None:  # a quarter turn: either way is right, and the card says so
            assert q.turn == "quarter"
            assert an.grade(q, True, "cw").turn_right and an.grade(q, True, "ccw").turn_right
            assert "quarter turn" in truth_text(q)
            continue
        assert q.turn == truth, (name, seed, q.t + 1, before, after)
        for said in turns.TURNS:
            assert an.grade(q, True, said).turn_right == (said == truth)
        seen += 1
    assert seen >= 2  # the sweep looked at real turns


def test_a_quarter_turn_is_either_way_and_the_tally_counts_both_right() -> None:
    # w = (1, 0, 0) and z = (−1, 1, 0), y = +1: w becomes (0, 1, 0), a turn of 90°
    q = base_question(x=(-1.0, 1.0), z=(-1.0, 1.0, 0.0), w=(1.0, 0.0, 0.0), y=1, turn="quarter")
    after = np.asarray(q.w) + np.asarray(q.z)
    assert drawn_turn(np.asarray(q.w), after) is None  # (1, 0) -> (0, 1): 90°
    assert turns.turn_of(q.w, q.z, 1, 1.0, True) == "quarter"
    t = an.tally(
        {"a": b'{"mistake": true, "turn": "cw"}', "b": b'{"mistake": true, "turn": "none"}'}, q
    )
    assert t.right_turn == 1


def xor_corner_questions() -> dict[int, cr.Question]:
    X, y = make_dataset("xor", n=4, seed=0, spread=0.0)
    run = record_run(X, y, RunSettings())
    found = {}
    for t in range(4):
        q = at_step(run, t)
        assert not isinstance(q, str)
        found[t + 1] = q  # counted from 1, as the app counts steps
    return found


def test_a_line_that_vanishes_is_said_to_vanish_not_to_have_appeared() -> None:
    """XOR's integer corners with bias: at steps 2 and 4 w₁ = w₂ = 0 after the step."""
    X, y = make_dataset("xor", n=4, seed=0, spread=0.0)
    steps = plain_steps(X, y, passes=1)
    qs = xor_corner_questions()
    for step in (2, 4):
        w, i = steps[step - 1]
        after = w + y[i] * np.append(X[i], 1.0)
        assert math.hypot(*w[:2]) > 0 and math.hypot(*after[:2]) == 0  # the truth: it vanished
        said = truth_text(qs[step])
        assert "the line vanished" in said
        assert "appeared" not in said and "only moved" not in said


def test_no_line_is_not_called_w_0_when_w_is_not_0() -> None:
    """Step 3 of the same run: w = (0, 0, −2), no line but not w = 0."""
    X, y = make_dataset("xor", n=4, seed=0, spread=0.0)
    w, _ = plain_steps(X, y, passes=1)[2]
    assert not w[:2].any() and w[2] != 0
    q = xor_corner_questions()[3]
    notes = [a["text"] for a in question_figure(q).to_dict()["layout"]["annotations"]]
    assert notes and all("w = 0" not in n for n in notes)
    side = "−" if w[2] < 0 else "+"
    assert any(f"every point is on the {side} side" in n for n in notes)
    # and from w = 0 the note still says so
    first = xor_corner_questions()[1]
    assert not any(first.w)
    notes = [a["text"] for a in question_figure(first).to_dict()["layout"]["annotations"]]
    assert any(n.startswith("w = 0") for n in notes)


def test_a_reversed_w_is_said_to_swap_the_sides_without_turning() -> None:
    # w = (1, 0, 0), z = (−2, 0, 0), y = +1: w becomes (−1, 0, 0), the same line reversed
    q = base_question(x=(-2.0, 0.0), z=(-2.0, 0.0, 0.0), w=(1.0, 0.0, 0.0), y=1, turn="none")
    assert turns.turn_of(q.w, q.z, 1, 1.0, True) == "none"
    assert "sides swapped" in truth_text(q)
