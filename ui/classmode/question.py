"""The lecturer's question on a student's page: the next example drawn, "will it be a
mistake?" and which way the line turns, then the truth beside the student's answer.

The question itself (:class:`~ui.classmode.classroom.Question`) is made by the lecture
page and kept in the room; here it is drawn, answered (one store write per answer, rate
limited per seat) and told in words (the chart's text alternative).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from perceptron_core import RULES
from ui.app.state import Session
from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import turns
from ui.classmode.onscreen import answer_bar
from ui.classmode.seat import Refused, reach, say, seat_of
from ui.look.numbers import AXIS, signed, vector_text
from ui.look.palette import MINUS, PLUS, W_COLOUR
from ui.look.plots import CHART, as_figure


def question_span(q: cr.Question) -> float:
    """Half the width of the question's square picture: the example well inside it."""
    return max(1.0, float(np.abs(np.asarray(q.x, dtype=float)).max()) * 1.6)


def question_lines(q: cr.Question) -> list[tuple[str, tuple[list[float], list[float]]]]:
    """The lines of the question's picture, named, with two ends past its square: the line
    before the step, and once revealed the line after a mistake's step (w = 0 draws none)."""
    w = np.asarray(q.w, dtype=float)
    bias = len(q.z) > len(q.x)
    lines = [("line before the step", w)]
    if q.revealed and q.mistake:
        lines.append(("line after the step", w + q.eta * q.y * np.asarray(q.z)))
    span = question_span(q)
    return [(name, seg) for name, v in lines if (seg := _line(v, bias, span)) is not None]


def question_notes(q: cr.Question) -> list[str]:
    """What the picture says in words when a w draws no line."""
    w = np.asarray(q.w, dtype=float)
    bias = len(q.z) > len(q.x)
    said = [no_line_words(w, bias)]
    if q.revealed and q.mistake:
        said.append(no_line_words(w + q.eta * q.y * np.asarray(q.z), bias, "after the step"))
    return [text for text in said if text]


def question_figure(q: cr.Question) -> go.Figure:
    """The next example and the line before the step (and after it, once revealed)."""
    x = np.asarray(q.x, dtype=float)
    span = question_span(q)
    traces: list[dict[str, Any]] = []
    for name, seg in question_lines(q):
        dash, colour = ("dash", "#555") if "after" in name else ("solid", W_COLOUR)
        traces.append(
            {
                "type": "scatter",
                "x": seg[0],
                "y": seg[1],
                "mode": "lines",
                "name": name,
                "line": {"dash": dash, "color": colour, "width": 3},
                "hoverinfo": "skip",
            }
        )
    plus = q.y > 0
    traces.append(
        {
            "type": "scatter",
            "x": [float(x[0])],
            "y": [float(x[1])],
            "mode": "markers+text",
            "name": f"point {q.point + 1}, y = {'+1' if plus else '−1'}",
            "text": [f"point {q.point + 1} ({'+1' if plus else '−1'})"],
            "textposition": "top center",
            "hoverinfo": "skip",
            "marker": {
                "size": 18,
                "color": PLUS if plus else MINUS,
                "symbol": "circle" if plus else "x",
                "line": {"width": 1, "color": "#fff"},
            },
        }
    )
    # the same range across and up, one unit as long on both (the plot is a square, not the
    # column's width): the angle between the point and the line is the angle the card asks
    # about, on a phone or a laptop
    axis = {"range": [-span, span], "zeroline": True, "constrain": "domain", **AXIS}
    notes = [
        {
            "text": text,
            "x": 0.02,
            "y": 0.98 - 0.1 * i,
            "xref": "paper",
            "yref": "paper",
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "top",
        }
        for i, text in enumerate(question_notes(q))
    ]
    return as_figure(
        {
            "data": traces,
            "layout": {
                "height": 300,
                "margin": {"l": 40, "r": 10, "t": 10, "b": 40},
                "xaxis": {**axis, "title": {"text": "x₁"}},
                "yaxis": {**axis, "title": {"text": "x₂"}, "scaleanchor": "x", "scaleratio": 1},
                # hung from its top under the axis's title: anchored at its bottom (Plotly's
                # choice so low), the phone's three rows grew up over the title "x₁"
                "legend": {"orientation": "h", "y": -0.3, "yanchor": "top"},
                "showlegend": True,
                "annotations": notes,
            },
        }
    )


def no_line_words(w: np.ndarray, bias: bool, when: str = "") -> str:
    """Why a w draws no line, or "" if it draws one: w = 0, or w₁ = w₂ = 0 with a bias that
    puts every point on one side."""
    if math.hypot(float(w[0]), float(w[1])) > 0:
        return ""
    lead = f"{when}: " if when else ""
    b = float(w[2]) if bias and len(w) > 2 else 0.0
    if b == 0.0:
        return f"{lead}w = 0: no line" + ("" if when else " yet")
    side = "+" if b > 0 else "−"
    return f"{lead}w₁ = w₂ = 0: no line, every point is on the {side} side"


def _line(w: np.ndarray, bias: bool, span: float) -> tuple[list[float], list[float]] | None:
    """Two ends of w₁x₁ + w₂x₂ + b = 0 within the square (None if there is no line)."""
    a, b = float(w[0]), float(w[1])
    c = float(w[2]) if bias and len(w) > 2 else 0.0
    if math.hypot(a, b) == 0.0:
        return None
    if abs(b) >= abs(a):
        xs = [-3 * span, 3 * span]  # past the axes' range: the line crosses the whole chart
        return xs, [-(a * v + c) / b for v in xs]
    ys = [-3 * span, 3 * span]
    return [-(b * v + c) / a for v in ys], ys


def seen(q: cr.Question) -> str:
    """The example's vector named as the lecture names it (its maths, the projector's strip,
    the handouts): the point is x; with the bias feature the perceptron sees x̃ = (x, 1)."""
    return "x̃" if len(q.z) > len(q.x) else "x"


def question_text(q: cr.Question) -> str:
    """The question in words (the chart's text alternative)."""
    if q.bank:
        return q.prompt
    sign = "+1" if q.y > 0 else "−1"
    v = seen(q)
    sees = "" if v == "x" and q.z == q.x else f" (the perceptron sees {v} = {vector_text(q.z)})"
    return (
        f"At step t = {q.t + 1} the perceptron is shown point {q.point + 1}, "
        f"x = {vector_text(q.x)}{sees} with label y = {sign}, and w = {vector_text(q.w)}. "
        "Will it be a mistake?"
    )


def truth_text(q: cr.Question) -> str:
    if q.bank:
        return f"{q.choices[q.right]}. {q.why}"
    m = q.margin
    v = seen(q)
    rule = RULES[q.rule].tie_note(m)  # only a tie's verdict depends on the rule
    if not q.mistake:
        return f"No mistake: y·w·{v} = {signed(m)}{rule}, so w stays and the line does not move."
    return (
        f"It was a mistake: y·w·{v} = {signed(m)}{rule}, so w ← w + η·y·{v} and "
        f"{cr.change_words(q)}."
    )


ANSWERS = {"mistake": True, "no mistake": False}
VOTES = ("first vote", "second vote")


def said_text(q: cr.Question, mistake: bool | int, turn: str | None) -> str:
    """A student's answer in words: the choice, or mistake or not and the turn."""
    if q.bank:
        return q.choices[int(mistake)] if int(mistake) in range(len(q.choices)) else "?"
    said = "mistake" if mistake else "no mistake"
    return said + (f", {turns.TURN_WORDS[turn]}" if turn else "")


def graded_text(q: cr.Question, mistake: bool | int, turn: str | None) -> str:
    """A student's answer graded part by part, as asked, in words and marks (✓ right /
    ✗ with the truth; colour is never the cue): "mistake ✓ right · counter-clockwise ✗
    (the line turned clockwise)"."""
    g = an.grade(q, mistake, turn)
    if q.bank:
        said, truth = said_text(q, mistake, None), q.choices[q.right]
        return f"{said} ✓ right" if g.mistake_right else f"{said} ✗ (the answer: {truth})"
    said = "mistake" if mistake else "no mistake"
    truth = "it was a mistake" if q.mistake else "it was no mistake"
    parts = [f"{said} ✓ right" if g.mistake_right else f"{said} ✗ ({truth})"]
    if turn is None:
        parts.append("which way: not answered")
    elif g.turn_right:
        parts.append(f"{turns.TURN_WORDS[turn]} ✓ right")
    else:
        moved = "no mistake: the line did not move" if not q.mistake else cr.change_words(q)
        parts.append(f"{turns.TURN_WORDS[turn]} ✗ ({moved})")
    return " · ".join(parts)


def _answer(session: Session, q: cr.Question, vote: int, key_m: str, key_t: str) -> None:
    seat = seat_of(session)
    said = session.get(key_m)
    turn = session.get(key_t)
    if seat is None or said not in q.options:
        return
    # the choice's index, or mistake or not (and the turn, if given)
    given: bool | int = q.options.index(said) if q.bank else ANSWERS[said]
    turn_code = next((k for k, v in turns.TURN_WORDS.items() if v == turn), None)
    if not seat.act_limit.allow():
        say(session, "Many answers at once: your last one was not counted; answer again.")
        return
    try:
        room = reach(cr.load_room, seat.code, fresh=True)
        if room is None:
            raise Refused("This class is no longer open.")
        reach(an.answer, room, seat.seat or "", q.id, given, turn_code, vote)
    except Refused as refused:
        say(session, f"{refused} Your answer was not counted.")
        return
    seat.answers[(q.id, vote)] = (given, turn_code)


def question_card(session: Session, q: cr.Question, *, ringed: bool = False) -> None:
    """A student's card: the next example, and the answer (in a bar pinned to the screen,
    ``ui.classmode.onscreen``; ``ringed``: the page's chart rings the example), a second
    time after the class discussed it if the lecturer asks; then the truth with theirs,
    graded part by part. While the class votes the card says only that the answer
    counted, never how others answered."""
    seat = seat_of(session)
    mine = {v: seat.answers.get((q.id, v)) if seat is not None else None for v in (1, 2)}
    box = st.container(border=True, key=f"room_card_{q.id}")
    again = q.rounds > 1 and not q.revealed
    head = (
        f"**Question {q.id} from the lecturer: vote again.** Discuss it with your "
        "neighbours, then answer again (your first answer is kept). "
        if again
        else f"**Question {q.id} from the lecturer.** "
    )
    if q.bank:  # its words are in the answer bar; the picture is the lecture's chart
        box.markdown(head + ("" if not q.revealed else question_text(q)))
    else:
        box.markdown(head + question_text(q))
        if not ringed:  # else the page's chart shows it: the lecturer's run at that step
            box.plotly_chart(
                question_figure(q),
                config={**CHART, "displayModeBar": False},
                key=f"room_qfig_{q.id}_{int(q.revealed)}",
            )
    if not q.revealed:
        vote = q.rounds
        if again:
            first = mine[1]
            box.caption(
                f"Your first vote: {said_text(q, *first)}."
                if first is not None
                else "You did not answer the first vote."
            )
        tag = "" if vote == 1 else f"_v{vote}"
        key_m, key_t = f"room_q{q.id}{tag}_said", f"room_q{q.id}{tag}_turn"
        bar = answer_bar(box, q, ringed=ringed)
        bar.pills(
            q.prompt if q.bank else "Will it be a mistake?",
            list(q.options),
            key=key_m,
            on_change=_answer,
            args=(session, q, vote, key_m, key_t),
            label_visibility="collapsed",
        )
        now = mine[vote]
        if now is not None:
            bar.caption(
                ("Counted: " if vote == 1 else "Counted (second vote): ")
                + f"you said {said_text(q, *now)}."
                + " You can change your answer until the lecturer reveals it."
            )
        if not q.bank:
            box.pills(
                "If it is a mistake, which way will the line turn (by its smaller angle)? "
                "(optional)",
                [turns.TURN_WORDS[t] for t in turns.TURNS],
                key=key_t,
                on_change=_answer,
                args=(session, q, vote, key_m, key_t),
            )
        return
    box.markdown(f"**Answer:** {truth_text(q)}")
    votes = range(1, q.rounds + 1)
    if all(mine[v] is None for v in votes):
        box.caption("You did not answer this one.")
        return
    for v in votes:
        name = "Yours" if q.rounds == 1 else f"Your {VOTES[v - 1]}"
        got = mine[v]
        box.markdown(
            f"**{name}:** " + ("not answered" if got is None else graded_text(q, *got) + ".")
        )


# ----------------------------------------------------------------------------- the sidebar
