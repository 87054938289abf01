"""The projector's challenge board (ui/room/figures.py): what the lecturer reads off it."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.classmode.entries import Submission
from ui.room.figures import (
    BEST,
    FRAMES,
    LO,
    Board,
    Frame,
    best_markdown,
    best_rows,
    board_layout,
    board_svg,
    board_svgs,
    challenge_text,
    ranks_text,
    text_width,
)

WIDE = FRAMES[-1][1]
NARROW = FRAMES[0][1]
SVG = "{http://www.w3.org/2000/svg}"


def sub(seat: str, M: int, bound: float, at: float, nick: str = "") -> Submission:
    return Submission(seat, nick or f"nick {seat}", "a" * 12, 4, M, bound, 0.5, 1.0, at)


def ranked(pairs: list[tuple[int, float]]) -> list[Submission]:
    """Submissions of these (M, bound), best first as the store ranks them."""
    subs = [sub(f"s{i:02d}", M, b, float(i)) for i, (M, b) in enumerate(pairs)]
    return sorted(subs, key=lambda s: (-s.M, s.at))


def clashes(board: Board) -> list[str]:
    """Every label that covers another label, a mark or the legend, or leaves the plot."""
    out = []
    for a, b in itertools.combinations(board.labels, 2):
        if a.box.overlaps(b.box):
            out.append(f"{a.text} covers {b.text}")
    for label in board.labels:
        if label.box.overlaps(board.legend):
            out.append(f"{label.text} covers the legend")
        if not label.box.inside(board.plot):
            out.append(f"{label.text} leaves the plot")
        for m in board.marks:
            if label.box.distance_to(m.x, m.y) <= m.r:
                out.append(f"{label.text} covers the mark of #{m.ranks[0]}")
    return out


def test_every_submission_is_a_mark_where_its_numbers_put_it() -> None:
    b = board_layout(ranked([(7, 20.0), (3, 9.0), (1, 4.0)]), WIDE)
    assert [m.ranks for m in b.marks] == [[1], [2], [3]]
    xs, ys = [m.x for m in b.marks], [m.y for m in b.marks]
    assert xs == sorted(xs, reverse=True)  # a larger bound further right
    assert ys == sorted(ys)  # more mistakes higher up (SVG's y grows downwards)
    assert [lab.text for lab in b.labels] == ["#1", "#2", "#3"]


def test_the_bound_is_the_plots_diagonal_and_every_mark_is_on_or_under_it() -> None:
    subs = ranked([(27, 28.5), (9, 30.1), (12, 100.0), (0, 2.0), (3, 3.0)])
    b = board_layout(subs, WIDE)
    p = b.plot
    for m in b.marks:  # under the line from the bottom left corner to the top right one
        along = (m.x - p.x0) / (p.x1 - p.x0)
        assert m.y >= p.y1 - along * (p.y1 - p.y0) - 1e-6
    svg = board_svg(subs, WIDE)
    assert f'x1="{p.x0:.1f}" y1="{p.y1:.1f}" x2="{p.x1:.1f}" y2="{p.y0:.1f}"' in svg


def test_the_same_set_twice_is_one_mark_with_both_ranks() -> None:
    """Two labels drawn on one spot read as neither (seen on the projector as "#2#1")."""
    b = board_layout(ranked([(7, 20.0), (2, 5.57), (2, 5.57)]), WIDE)
    assert [m.ranks for m in b.marks] == [[1], [2, 3]]
    assert b.marks[1].r > b.marks[0].r
    assert [lab.text for lab in b.labels] == ["#1", "#2, #3"]


def test_sets_closer_than_a_mark_are_one_mark_and_others_stay_apart() -> None:
    close = board_layout(ranked([(27, 28.5), (27, 28.4), (26, 28.0)]), WIDE)
    assert [m.ranks for m in close.marks] == [[1, 2, 3]]
    assert [lab.text for lab in close.labels] == ["#1–#3"]
    apart = board_layout(ranked([(27, 28.5), (9, 30.1)]), WIDE)
    assert len(apart.marks) == 2


def test_ranks_are_written_short() -> None:
    assert ranks_text([1]) == "#1"
    assert ranks_text([2, 3]) == "#2, #3"
    assert ranks_text([5, 1, 2, 3]) == "#1–#3, #5"


def test_only_the_best_few_are_named_and_the_others_are_hollow() -> None:
    subs = ranked([(40 - 4 * i, 45.0 * 1.6**i) for i in range(BEST + 3)])
    b = board_layout(subs, WIDE)
    named = sorted(r for m in b.marks for r in m.named)
    assert named == list(range(1, BEST + 1))
    assert sorted(lab.text for lab in b.labels) == sorted(f"#{r}" for r in named)
    svg = board_svg(subs, WIDE)
    assert svg.count('fill="#fff" stroke="#0072B2"') == 3 + 1  # three marks, one legend entry
    assert "another submission" in svg
    assert "another submission" not in board_svg(subs[:BEST], WIDE)


@pytest.mark.parametrize(("_", "frame"), FRAMES)
def test_a_crowd_of_marks_gets_labels_that_cover_nothing(_, frame: Frame) -> None:
    """The projector's board after a class's first minutes: sets near the bound, a few
    near each other, one far out."""
    pairs = [(27, 28.5), (26, 28.0), (25, 30.0), (24, 26.0), (20, 45.0), (19, 21.0)]
    pairs += [(12, 100.0), (9, 30.1), (3, 4.2), (0, 2.0), (14, 15.0), (30, 33.0)]
    b = board_layout(ranked(pairs), frame)
    assert clashes(b) == []
    named = [m for m in b.marks if m.named]
    assert len(b.labels) == len(named)  # every one of the best few has its label


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 400), st.floats(1.0, 400.0)).map(
            lambda p: (min(p[0], int(p[1])), p[1])  # the theorem: M ≤ (R/γ)²
        ),
        max_size=30,
    ),
    st.sampled_from([f for _, f in FRAMES]),
)
def test_no_label_ever_covers_another_a_mark_or_the_legend(pairs, frame) -> None:
    b = board_layout(ranked(pairs), frame)
    assert clashes(b) == []
    for m in b.marks:  # nor does the legend hide a mark
        assert b.legend.distance_to(m.x, m.y) > m.r


def test_the_legend_leaves_the_plot_when_a_mark_would_be_under_it() -> None:
    b = board_layout(ranked([(12, 12.0)]), NARROW)  # on the line, just under the legend
    assert b.legend.y1 <= b.plot.y0
    assert b.legend.distance_to(b.marks[0].x, b.marks[0].y) > b.marks[0].r
    b = board_layout(ranked([(9, 30.1)]), NARROW)
    assert b.legend.inside(b.plot)


@pytest.mark.parametrize(("wide", "frame"), FRAMES)
def test_ticks_are_readable_at_the_width_the_frame_is_shown_from(wide, frame) -> None:
    """At the narrowest width a frame is shown at, its text is at least 14 CSS px (a
    phone's 358 px: the first frame as drawn), and tick labels never touch."""
    px = frame.font * max(wide, 358) / frame.width
    assert px >= 13.9, px
    for pairs in ([], [(27, 28.5)], [(300, 5000.0)], [(3, 200_000.0)]):
        b = board_layout(ranked(pairs), frame)
        xs = sorted(b.x_ticks)
        for (x1, t1), (x2, t2) in itertools.pairwise(xs):
            assert x2 - x1 >= (text_width(t1, frame.font) + text_width(t2, frame.font)) / 2
        ys = sorted(y for y, _ in b.y_ticks)
        assert all(b - a >= 1.4 * frame.font for a, b in itertools.pairwise(ys))
        assert len(b.x_ticks) >= 2 and len(b.y_ticks) >= 2
        assert b.x_ticks[0][1] == "1"


def test_ticks_are_one_two_five_when_there_is_room_and_plain_numbers() -> None:
    b = board_layout(ranked([(27, 28.5)]), WIDE)
    assert [t for _, t in b.y_ticks] == ["1", "2", "5", "10", "20"]
    big = board_layout(ranked([(900, 20_000.0)]), WIDE)
    assert "10,000" in [t for _, t in big.x_ticks]


def test_no_mistakes_is_drawn_on_the_floor_not_lost() -> None:
    b = board_layout(ranked([(0, 3.0)]), WIDE)
    assert b.marks[0].y == pytest.approx(b.plot.y1)
    assert LO < 1


def test_the_drawing_says_in_words_what_it_shows_and_names_no_one() -> None:
    subs = ranked([(7, 20.0), (3, 9.0)])
    subs = [
        Submission(s.seat, "<script>x</script>", s.data, s.n, s.M, s.bound, s.gamma, s.R, s.at)
        for s in subs
    ]
    for drawing in board_svgs(subs):
        root = ET.fromstring(drawing["svg"])  # well-formed markup
        assert root.get("role") == "img"
        assert root.get("aria-label") == (
            "Mistakes M against the bound (R/γ)². " + challenge_text(subs)
        )
        assert "script" not in drawing["svg"]
        labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"]
        assert labels == ["#1", "#2"]
    assert [d["from"] for d in board_svgs(subs)] == [w for w, _ in FRAMES]
    empty = ET.fromstring(board_svg([], WIDE))
    assert "No submissions yet." in empty.get("aria-label")


def test_the_sentence_and_the_tables_say_what_the_chart_shows() -> None:
    subs = [sub("a", 7, 20.0, 1), sub("b", 3, 9.0, 2)]
    said = challenge_text(subs)
    assert "2 submissions; 2 of them make at most" in said and "M = 7" in said
    assert challenge_text([]) == "No submissions yet."
    rows = best_rows(subs)
    assert [(r["rank"], r["nickname"], r["mistakes M"], r["M / bound"]) for r in rows] == [
        (1, "nick a", 7, "35%"),
        (2, "nick b", 3, "33%"),
    ]
    table = best_markdown([sub("a", 7, 20.0, 1, "<b>**Ana**</b> | x"), sub("b", 3, 9.0, 2)])
    lines = table.splitlines()
    assert len(lines) == 4 and lines[2].startswith("| #1 | \\<b\\>\\*\\*Ana")
    assert "\\|" in lines[2] and lines[2].count(" | ") == 4  # the nickname's | stays text
    assert best_markdown([]) == ""
    assert math.isclose(float(rows[0]["bound (R/γ)²"]), 20.0)
