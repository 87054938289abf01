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
from ui.words import N_, t


def question_span(q: cr.Question) -> float:
    """Half the width of the question's square picture: the example well inside it."""
    return max(1.0, float(np.abs(np.asarray(q.x, dtype=float)).max()) * 1.6)


def question_lines(q: cr.Question) -> list[tuple[str, tuple[list[float], list[float]]]]:
    """The lines of the question's picture, named, with two ends past its square: the line
    before the step, and once revealed the line after a mistake's step (w = 0 draws none)."""
    w = np.asarray(q.w, dtype=float)
    bias = len(q.z) > len(q.x)
    lines = [(N_("line before the step"), w)]
    if q.revealed and q.mistake:
        lines.append((N_("line after the step"), w + q.eta * q.y * np.asarray(q.z)))
    span = question_span(q)
    return [(name, seg) for name, v in lines if (seg := _line(v, bias, span)) is not None]


def question_notes(q: cr.Question) -> list[str]:
    """What the picture says in words when a w draws no line."""
    w = np.asarray(q.w, dtype=float)
    bias = len(q.z) > len(q.x)
    said = [no_line_words(w, bias)]
    if q.revealed and q.mistake:
        said.append(no_line_words(w + q.eta * q.y * np.asarray(q.z), bias, after=True))
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
                "name": t(name),
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
            "name": t("point {n}, y = {y}").format(n=q.point + 1, y="+1" if plus else "−1"),
            "text": [point_label(q)],
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


def point_label(q: cr.Question) -> str:
    """The example's label on a picture: "point 3 (+1)"."""
    return t("point {n} ({y})").format(n=q.point + 1, y="+1" if q.y > 0 else "−1")


def no_line_words(w: np.ndarray, bias: bool, *, after: bool = False) -> str:
    """Why a w draws no line, or "" if it draws one: w = 0, or w₁ = w₂ = 0 with a bias that
    puts every point on one side (``after``: the w after the step)."""
    if math.hypot(float(w[0]), float(w[1])) > 0:
        return ""
    b = float(w[2]) if bias and len(w) > 2 else 0.0
    if b == 0.0:
        return t("after the step: w = 0: no line") if after else t("w = 0: no line yet")
    side = "+" if b > 0 else "−"
    if after:
        return t("after the step: w₁ = w₂ = 0: no line, every point is on the {side} side").format(
            side=side
        )
    return t("w₁ = w₂ = 0: no line, every point is on the {side} side").format(side=side)


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
    values = {
        "t": q.t + 1,
        "point": q.point + 1,
        "x": vector_text(q.x),
        "v": v,
        "z": vector_text(q.z),
        "y": sign,
        "w": vector_text(q.w),
    }
    if v == "x" and q.z == q.x:
        said = t(
            "At step t = {t} the perceptron is shown point {point}, x = {x} with label "
            "y = {y}, and w = {w}. Will it be a mistake?"
        )
    else:
        said = t(
            "At step t = {t} the perceptron is shown point {point}, x = {x} (the perceptron "
            "sees {v} = {z}) with label y = {y}, and w = {w}. Will it be a mistake?"
        )
    return said.format(**values)


def truth_text(q: cr.Question) -> str:
    if q.bank:
        return f"{q.choices[q.right]}. {q.why}"
    m = q.margin
    v = seen(q)
    # only a tie's verdict depends on the rule, so only a tie names it
    rule = t(" (a tie: {rule})").format(rule=t(RULES[q.rule].short)) if m == 0 else ""
    if not q.mistake:
        return t("No mistake: y·w·{v} = {m}{rule}, so w stays and the line does not move.").format(
            v=v, m=signed(m), rule=rule
        )
    return t("It was a mistake: y·w·{v} = {m}{rule}, so w ← w + η·y·{v} and {change}.").format(
        v=v, m=signed(m), rule=rule, change=cr.change_words(q)
    )


# the answers' options (their English words are the answers' keys; shown through t)
ANSWERS = {N_("mistake"): True, N_("no mistake"): False}
VOTES = (N_("first vote"), N_("second vote"))
YOURS = (N_("Your first vote"), N_("Your second vote"))


def option_text(q: cr.Question, option: str) -> str:
    """An option as shown: a bank question's choice as written, "mistake" or "no mistake" in
    this run's language."""
    return option if q.bank else t(option)


def said_text(q: cr.Question, mistake: bool | int, turn: str | None) -> str:
    """A student's answer in words: the choice, or mistake or not and the turn."""
    if q.bank:
        return q.choices[int(mistake)] if int(mistake) in range(len(q.choices)) else "?"
    said = t("mistake") if mistake else t("no mistake")
    if not turn:
        return said
    return t("{said}, {turn}").format(said=said, turn=t(turns.TURN_WORDS[turn]))


def graded_text(q: cr.Question, mistake: bool | int, turn: str | None) -> str:
    """A student's answer graded part by part, as asked, in words and marks (✓ right /
    ✗ with the truth; colour is never the cue): "mistake ✓ right · counter-clockwise ✗
    (the line turned clockwise)"."""
    g = an.grade(q, mistake, turn)
    right = t("{said} ✓ right")
    if q.bank:
        said, truth = said_text(q, mistake, None), q.choices[q.right]
        if g.mistake_right:
            return right.format(said=said)
        return t("{said} ✗ (the answer: {truth})").format(said=said, truth=truth)
    said = t("mistake") if mistake else t("no mistake")
    truth = t("it was a mistake") if q.mistake else t("it was no mistake")
    wrong = t("{said} ✗ ({truth})")
    parts = [right.format(said=said) if g.mistake_right else wrong.format(said=said, truth=truth)]
    if turn is None:
        parts.append(t("which way: not answered"))
    elif g.turn_right:
        parts.append(right.format(said=t(turns.TURN_WORDS[turn])))
    else:
        moved = t("no mistake: the line did not move") if not q.mistake else cr.change_words(q)
        parts.append(wrong.format(said=t(turns.TURN_WORDS[turn]), truth=moved))
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
        say(session, t("Many answers at once: your last one was not counted; answer again."))
        return
    try:
        room = reach(cr.load_room, seat.code, fresh=True)
        if room is None:
            raise Refused(t("This class is no longer open."))
        reach(an.answer, room, seat.seat or "", q.id, given, turn_code, vote)
    except Refused as refused:
        say(session, t("{refused} Your answer was not counted.").format(refused=refused))
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
        t(
            "**Question {id} from the lecturer: vote again.** Discuss it with your "
            "neighbours, then answer again (your first answer is kept). "
        )
        if again
        else t("**Question {id} from the lecturer.** ")
    ).format(id=q.id)
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
                t("Your first vote: {said}.").format(said=said_text(q, *first))
                if first is not None
                else t("You did not answer the first vote.")
            )
        tag = "" if vote == 1 else f"_v{vote}"
        key_m, key_t = f"room_q{q.id}{tag}_said", f"room_q{q.id}{tag}_turn"
        bar = answer_bar(box, q, ringed=ringed)
        bar.pills(
            q.prompt if q.bank else t("Will it be a mistake?"),
            list(q.options),
            format_func=lambda option: option_text(q, option),
            key=key_m,
            on_change=_answer,
            args=(session, q, vote, key_m, key_t),
            label_visibility="collapsed",
        )
        now = mine[vote]
        if now is not None:
            bar.caption(counted_text(vote, said_text(q, *now)))
        if not q.bank:
            box.pills(
                t(TURN_ASK),
                [turns.TURN_WORDS[k] for k in turns.TURNS],
                format_func=t,
                key=key_t,
                on_change=_answer,
                args=(session, q, vote, key_m, key_t),
            )
        return
    box.markdown(t("**Answer:** {truth}").format(truth=truth_text(q)))
    votes = range(1, q.rounds + 1)
    if all(mine[v] is None for v in votes):
        box.caption(t("You did not answer this one."))
        return
    for v in votes:
        got = mine[v]
        box.markdown(
            t("**{name}:** {graded}").format(
                name=yours_name(q, v),
                graded=t("not answered") if got is None else graded_text(q, *got) + ".",
            )
        )


TURN_ASK = N_("If it is a mistake, which way will the line turn (by its smaller angle)? (optional)")


def yours_name(q: cr.Question, vote: int) -> str:
    """The name of a student's answer to ``vote``: "Yours", "Your second vote"."""
    return t("Yours") if q.rounds == 1 else t(YOURS[vote - 1])


def counted_text(vote: int, said: str) -> str:
    """What the card says of a counted answer (``said``: :func:`said_text`)."""
    if vote == 1:
        return t(
            "Counted: you said {said}. You can change your answer until the lecturer reveals it."
        ).format(said=said)
    return t(
        "Counted (second vote): you said {said}. You can change your answer until the "
        "lecturer reveals it."
    ).format(said=said)


# ----------------------------------------------------------------------------- the sidebar
