"""The projector's challenge board (ui/room/figures.py): what the lecturer reads off it."""

from __future__ import annotations

from ui.classmode.classroom import Submission
from ui.room.figures import best_rows, challenge_figure, challenge_text


def sub(seat: str, M: int, bound: float, at: float) -> Submission:
    return Submission(seat, f"nick {seat}", "a" * 12, 4, M, bound, 0.5, 1.0, at)


def marks(subs: list[Submission]) -> dict:
    return challenge_figure(subs).to_dict()["data"][1]


def test_every_submission_is_one_mark_named_by_its_rank() -> None:
    d = marks([sub("a", 7, 20.0, 1), sub("b", 3, 9.0, 2), sub("c", 1, 4.0, 3)])
    assert d["text"] == ["#1", "#2", "#3"]
    assert list(zip(d["x"], d["y"], strict=True)) == [(20.0, 7), (9.0, 3), (4.0, 1)]


def test_the_same_set_twice_is_one_mark_with_both_ranks() -> None:
    """Two labels drawn on one spot read as neither (seen on the projector)."""
    d = marks([sub("a", 7, 20.0, 1), sub("b", 2, 5.57, 2), sub("c", 2, 5.57, 3)])
    assert d["text"] == ["#1", "#2, #3"]
    assert d["marker"]["size"][1] > d["marker"]["size"][0]


def test_no_submission_and_a_zero_are_drawn_and_said() -> None:
    assert marks([])["x"] == []
    d = marks([sub("a", 0, 3.0, 1)])
    assert d["y"] == [0.8]  # M = 0 on the log axis's floor, not lost
    assert challenge_text([]) == "No submissions yet."


def test_the_sentence_and_the_table_say_what_the_chart_shows() -> None:
    subs = [sub("a", 7, 20.0, 1), sub("b", 3, 9.0, 2)]
    said = challenge_text(subs)
    assert "2 submissions; 2 of them make at most" in said and "M = 7" in said
    rows = best_rows(subs)
    assert [(r["rank"], r["nickname"], r["mistakes M"], r["M / bound"]) for r in rows] == [
        (1, "nick a", 7, "35%"),
        (2, "nick b", 3, "33%"),
    ]
