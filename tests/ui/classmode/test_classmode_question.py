"""The student's question card (ui.classmode.question): its words name the example as the
lecture does, and its picture keeps the angle the question is about."""

from __future__ import annotations

import pytest
from classroom_helpers import question as base_question

from ui.classmode import classroom as cr
from ui.classmode.question import question_figure, question_text, truth_text
from ui.look.numbers import vector_text


def question(bias: bool = True, **kw) -> cr.Question:
    """Point 2 at x = (−1, 1), with its bias feature 1 (x̃) or without."""
    point = {
        "id": 1,
        "x": (-1.0, 1.0),
        "z": (-1.0, 1.0, 1.0) if bias else (-1.0, 1.0),
        "w": (0.5, -1.0, 0.0) if bias else (0.5, -1.0),
    }
    return base_question(**{**point, **kw})


@pytest.mark.parametrize("bias", [True, False])
def test_the_card_names_the_example_x_as_the_projector_and_the_lecture_maths_do(bias) -> None:
    q = question(bias)
    said = question_text(q) + " " + truth_text(q) + " " + truth_text(question(bias, mistake=False))
    # the projector's strip: "will point 2, x = (−1, 1) with y = +1, be a mistake"
    assert f"point 2, x = {vector_text(q.x)}" in said
    assert "z =" not in said and "·z" not in said
    if bias:  # the vector with its 1 is x̃, as in the lecture's maths (y(w·x̃), w ← w + ηyx̃)
        assert f"x̃ = {vector_text(q.z)}" in said
        assert "y·w·x̃ =" in said and "w ← w + η·y·x̃" in said
    else:
        assert "x̃" not in said and "y·w·x =" in said


def test_the_cards_picture_has_the_same_range_and_scale_across_and_up() -> None:
    layout = question_figure(question(x=(2.5, -0.5), z=(2.5, -0.5, 1.0))).to_dict()["layout"]
    xa, ya = layout["xaxis"], layout["yaxis"]
    assert xa["range"] == ya["range"] and xa["range"][0] == -xa["range"][1]
    assert xa["range"][1] >= 2.5  # the point is in it
    # one unit is as long across as up, and a wide column does not stretch the range across:
    # the plot is a square of that range (on a laptop the range was −6..6 across, −1.5..1.5 up)
    assert ya["scaleanchor"] == "x" and ya.get("scaleratio", 1) == 1
    assert xa["constrain"] == ya["constrain"] == "domain"
