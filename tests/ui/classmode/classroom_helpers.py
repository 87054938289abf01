"""What the class's store tests share: a question as the lecture would ask it, and an
answer as a student's page writes it."""

from __future__ import annotations

import json

from ui.classmode import classroom as cr


def question(**kw) -> cr.Question:
    """A question on point 1 at step 3 (a mistake, the line turning counter-clockwise);
    ``kw`` replaces any field."""
    base = {
        "id": 0,
        "t": 3,
        "point": 1,
        "x": (1.0, 2.0),
        "z": (1.0, 2.0, 1.0),
        "y": 1,
        "w": (0.5, -1.0, 0.0),
        "rule": "nonpositive",
        "eta": 1.0,
        "mistake": True,
        "turn": "ccw",
    }
    base.update(kw)
    return cr.Question(**base)


def answer_blob(mistake, turn=None) -> bytes:
    """An answer as the store holds it."""
    return json.dumps({"mistake": mistake, "turn": turn}).encode()
