"""Which way the drawn line turns at a step, and what else the step did to it: the class
question's second part, as the picture answers it. Pure: the standard library and
``ui.words`` only (its words are marked for the catalogue here and translated where shown:
the summary's CSV keeps them in English).

A line has no arrow, so it turns by its smaller angle, under 90°: when the normal (w₁, w₂)
turns by more than 90° the line turns the other way. A turn of exactly 90° is either way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ui.words import N_, t

TURNS = ("ccw", "cw", "none")  # which way the line turns at the step: the answers' words
TURN_WORDS = {"ccw": N_("counter-clockwise"), "cw": N_("clockwise"), "none": N_("no turn")}
# the truth may also be a turn by exactly 90°, which either answer names
TURN_TRUTH = {**TURN_WORDS, "quarter": N_("a quarter turn (either way)")}
# a mistake's turn in words, whole sentences for the catalogue
TURNED = {
    "ccw": N_("the line turned counter-clockwise"),
    "cw": N_("the line turned clockwise"),
    "quarter": N_("the line turned a quarter turn (either way)"),
    "none": N_("the line turned no turn"),
}


def turn_of(w: Iterable[float], z: Iterable[float], y: int, eta: float, mistake: bool) -> str:
    """Which way the line w₁x₁ + w₂x₂ + b = 0 turns at the step, as it is drawn: a line has
    no arrow, so it turns by its smaller angle, under 90°. When the normal (w₁, w₂) turns
    by more than 90° the line turns the other way, by 180° less.

    "ccw" or "cw"; "quarter": by exactly 90°, which is either way; "none": no mistake, no
    line before or after, or the same direction after (it moved, or w reversed).
    """
    w, z = list(w), list(z)
    if not mistake:
        return "none"
    after = [a + eta * y * b for a, b in zip(w, z, strict=True)]
    cross = w[0] * after[1] - w[1] * after[0]  # > 0: (w1, w2) turned counter-clockwise
    dot = w[0] * after[0] + w[1] * after[1]  # < 0: by more than 90°
    size = math.hypot(w[0], w[1]) * math.hypot(after[0], after[1])
    if size == 0.0 or abs(cross) <= 1e-12 * size:
        return "none"
    if abs(dot) <= 1e-12 * size:
        return "quarter"
    return "ccw" if (cross > 0) == (dot > 0) else "cw"


def turn_right(truth: str, said: str) -> bool:
    """Whether an answer ``said`` (one of TURNS) names the way the line turned."""
    return said == truth or (truth == "quarter" and said in ("ccw", "cw"))


def turn_words(truth: str) -> str:
    """The way the line turned, in words: "clockwise", "a quarter turn (either way)"."""
    return TURN_TRUTH.get(truth, truth)


def line_change(
    w: Sequence[float],
    z: Sequence[float],
    y: int,
    eta: float,
    *,
    mistake: bool,
    turn: str,
    bias: bool,
) -> str:
    """What the step did to the drawn line, beyond its turn: "none" (no mistake), "absent"
    (no line before or after: w₁ = w₂ = 0), "appeared", "vanished", "same" (the same line),
    "moved" (the same direction, another place), "flipped" (the same direction, w reversed:
    the sides swapped) or "turned"."""
    if not mistake:
        return "none"
    w = list(w)
    after = [a + eta * y * b for a, b in zip(w, z, strict=True)]
    before_line, after_line = math.hypot(w[0], w[1]) > 0, math.hypot(after[0], after[1]) > 0
    if not before_line or not after_line:
        return {(False, False): "absent", (False, True): "appeared"}.get(
            (before_line, after_line), "vanished"
        )
    if turn != "none":
        return "turned"
    # parallel normals: the line's offset is -w₃/‖(w₁, w₂)‖ along the unit normal
    flipped = w[0] * after[0] + w[1] * after[1] < 0
    if not bias:
        return "flipped" if flipped else "same"
    off = [-v[2] / math.hypot(v[0], v[1]) for v in (w, after)]
    same_place = math.isclose(off[0], -off[1] if flipped else off[1], rel_tol=1e-9, abs_tol=1e-12)
    if flipped:
        return "flipped"
    return "same" if same_place else "moved"


def change_words(change: str, turn: str) -> str:
    """What happened to the line at a mistake (``change``: :func:`line_change`), in words
    ("the line turned clockwise"), in this run's language."""
    said = {
        "absent": N_("there is no line before or after the step (w₁ = w₂ = 0)"),
        "appeared": N_("the line appeared (before the step w₁ = w₂ = 0: no line)"),
        "vanished": N_("the line vanished (after the step w₁ = w₂ = 0: no line)"),
        "same": N_("the line did not move (w only changed its length)"),
        "moved": N_("the line did not turn: it moved without turning"),
        "flipped": N_("the line did not turn: w reversed, so its + and − sides swapped"),
    }
    if change == "turned":
        if turn in TURNED:
            return t(TURNED[turn])
        return t("the line turned {turn}").format(turn=turn)
    return t(said.get(change, N_("the line did not move")))
