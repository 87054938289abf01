"""The class's summary for the lecturer: one row per question asked and one per
challenge submission, as CSV, with no nicknames and no seat ids (nothing personal)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from perceptron_store import Store
from ui.classmode.classroom import (
    TURN_WORDS,
    Room,
    Submission,
    Tally,
    answers_of,
    submissions,
    tally,
)


def summary_rows(
    room: Room,
    tallies: Mapping[int, Tally],
    results: Mapping[int, list[Submission]],
) -> list[dict[str, Any]]:
    """The class's summary, one row per question and one per submission: no nicknames,
    no seat ids (nothing personal)."""
    rows: list[dict[str, Any]] = []
    for q in room.asked:
        t = tallies.get(q.id, Tally())
        rows.append(
            {
                "kind": "question",
                "number": q.id,
                "step t": q.t + 1,  # the example's step, counted from 1 as on the page
                "point": q.point + 1,
                "answer": ("mistake" if q.mistake else "no mistake") if q.revealed else "",
                "turn": TURN_WORDS[q.turn] if q.revealed else "",
                "answered": t.answered,
                "said mistake": t.mistake,
                "said no mistake": t.no_mistake,
                "said counter-clockwise": t.turns["ccw"],
                "said clockwise": t.turns["cw"],
                "said no turn": t.turns["none"],
                "right": t.right if q.revealed else "",
            }
        )
    for c in room.challenges:
        for rank, sub in enumerate(results.get(c.id, []), start=1):
            rows.append(
                {
                    "kind": "challenge",
                    "number": c.id,
                    "max points": c.max_points,
                    "min gamma": c.min_gamma,
                    "rank": rank,
                    "points": sub.n,
                    "mistakes M": sub.M,
                    "bound (R/gamma)^2": round(sub.bound, 6),
                    "gamma": round(sub.gamma, 6),
                    "R": round(sub.R, 6),
                }
            )
    return rows


SUMMARY_COLUMNS = (
    "kind",
    "number",
    "step t",
    "point",
    "answer",
    "turn",
    "answered",
    "said mistake",
    "said no mistake",
    "said counter-clockwise",
    "said clockwise",
    "said no turn",
    "right",
    "max points",
    "min gamma",
    "rank",
    "points",
    "mistakes M",
    "bound (R/gamma)^2",
    "gamma",
    "R",
)


def summary(s: Store, room: Room) -> str:
    """The class's summary as CSV (see :func:`summary_rows`), read from the store now."""
    tallies = {q.id: tally(answers_of(s, room, q.id), q) for q in room.asked}
    results = {c.id: submissions(s, room, c.id) for c in room.challenges}
    return summary_csv(summary_rows(room, tallies, results))


def summary_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=SUMMARY_COLUMNS, restval="", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()
