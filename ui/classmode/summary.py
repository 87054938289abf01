"""The class's summary for the lecturer: one row per vote on each question asked and one
per challenge submission, as CSV, with no nicknames and no seat ids (nothing personal);
and the same results in words, for the recap the lecturer sees once the class is closed."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from perceptron_store import Store
from ui.classmode.answers import Tally, tallies
from ui.classmode.classroom import MAX_ASKED, MAX_CHALLENGES, Question, Room, change_words
from ui.classmode.entries import Submission, submissions
from ui.classmode.turns import TURN_WORDS, TURNS, turn_right, turn_words


def summary_rows(
    room: Room,
    votes: Mapping[int, Sequence[Tally]],
    results: Mapping[int, list[Submission]],
) -> list[dict[str, Any]]:
    """The class's summary, one row per vote on each question (``votes``: each question's
    tallies, the first vote first) and one per submission: no nicknames, no seat ids
    (nothing personal). Each part of an answer is graded on its own: ``right on mistake``
    counts the answers whose mistake or not was right, ``right on turn`` those whose turn
    was (of the answers that gave one); both only once the question was revealed."""
    rows: list[dict[str, Any]] = []
    for kind, gone in not_kept(room).items():  # the oldest, past the room's limits
        rows.append({"kind": f"{kind} not kept", "number": gone})
    for q in room.asked:
        for vote, t in enumerate(votes.get(q.id) or [Tally()], start=1):
            if q.bank:
                rows.append(_bank_row(q, vote, t))
                continue
            rows.append(
                {
                    "kind": "question",
                    "number": q.id,
                    "vote": vote,
                    "step t": q.t + 1,  # the example's step, counted from 1 as on the page
                    "point": q.point + 1,
                    "answer": ("mistake" if q.mistake else "no mistake") if q.revealed else "",
                    "turn": turn_words(q.turn) if q.revealed else "",
                    "answered": t.answered,
                    "said mistake": t.mistake,
                    "said no mistake": t.no_mistake,
                    "said counter-clockwise": t.turns["ccw"],
                    "said clockwise": t.turns["cw"],
                    "said no turn": t.turns["none"],
                    "right on mistake": t.right_mistake if q.revealed else "",
                    "right on turn": t.right_turn if q.revealed else "",
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


def _bank_row(q: Question, vote: int, t: Tally) -> dict[str, Any]:
    """A vote on a bank question: the entry's id and words, its choices, how many said each
    (``said choice 1`` is the first choice), the right one once revealed."""
    picked = t.chosen or (0,) * len(q.choices)
    row: dict[str, Any] = {
        "kind": "question",
        "number": q.id,
        "vote": vote,
        "step t": q.t,  # the lecture's step the question is about
        "bank question": q.bank,
        "question": q.prompt,
        "choices": " | ".join(q.choices),
        "answer": q.choices[q.right] if q.revealed else "",
        "answered": t.answered,
        "right on choice": t.right if q.revealed else "",
    }
    row.update({f"said choice {i}": n for i, n in enumerate(picked, start=1)})
    return row


def not_kept(room: Room) -> dict[str, int]:
    """How many of the oldest questions and challenges the room no longer keeps (it keeps
    the last MAX_ASKED and MAX_CHALLENGES; each is numbered from 1), where any."""
    gone = {
        "questions": room.asked[0].id - 1 if room.asked else 0,
        "challenges": room.challenges[0].id - 1 if room.challenges else 0,
    }
    return {kind: n for kind, n in gone.items() if n > 0}


def not_kept_words(room: Room, kind: str) -> str:
    """ "Questions 1 to 3 are not kept: a class keeps its last 200." or ""."""
    n = not_kept(room).get(kind, 0)
    if not n:
        return ""
    limit = MAX_ASKED if kind == "questions" else MAX_CHALLENGES
    which = f"{kind.capitalize()[:-1]} 1 is" if n == 1 else f"{kind.capitalize()} 1 to {n} are"
    return f"{which} not kept: a class keeps its last {limit} {kind}."


SUMMARY_COLUMNS = (
    "kind",
    "number",
    "vote",
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
    "right on mistake",
    "right on turn",
    "bank question",
    "question",
    "choices",
    "said choice 1",
    "said choice 2",
    "said choice 3",
    "said choice 4",
    "right on choice",
    "max points",
    "min gamma",
    "rank",
    "points",
    "mistakes M",
    "bound (R/gamma)^2",
    "gamma",
    "R",
)


def results_of(s: Store, room: Room) -> tuple[dict[int, list[Tally]], dict[int, list[Submission]]]:
    """Each question's tallies (one per vote) and each challenge's submissions, read from
    the store now."""
    votes = {q.id: tallies(s, room, q) for q in room.asked}
    results = {c.id: submissions(s, room, c.id) for c in room.challenges}
    return votes, results


def summary(s: Store, room: Room) -> str:
    """The class's summary as CSV (see :func:`summary_rows`), read from the store now."""
    return summary_csv(summary_rows(room, *results_of(s, room)))


def summary_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=SUMMARY_COLUMNS, restval="", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


# ----------------------------------------------------------------------------- the recap

VOTE_NAMES = ("first vote", "second vote")


def truth_words(q: Question) -> str:
    """The question's answer in a few words ("a mistake, the line turned clockwise")."""
    if q.bank:
        return q.choices[q.right]
    if not q.mistake:
        return "no mistake (the line did not move)"
    return f"a mistake, {change_words(q)}"


def _cell(t: Tally, count: int, of: int | None = None) -> str:
    return f"{count} ({t.share(count, of):.0%})"


def votes_table(q: Question, votes: Sequence[Tally]) -> str:
    """The votes on ``q`` side by side, as a markdown table: a row per vote, a column per
    choice (the right ones marked "✓ right" once revealed: words, not colour), and how
    many got each part right."""
    if q.bank:
        return _choices_table(q, votes)
    right_m = "mistake" if q.mistake else "no mistake"
    choices = [("mistake", "mistake"), ("no mistake", "no mistake")]
    choices += [(TURN_WORDS[k], k) for k in TURNS]

    def head(word: str, code: str) -> str:
        right = q.revealed and (code == right_m or (code in TURNS and turn_right(q.turn, code)))
        return f"{word} ✓ right" if right else word

    cols = ["", "answered", *(head(w, c) for w, c in choices)]
    if q.revealed:
        cols += ["right on mistake", "right on turn"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for vote, t in enumerate(votes):
        cells = [VOTE_NAMES[vote] if vote < len(VOTE_NAMES) else f"vote {vote + 1}"]
        cells.append(str(t.answered))
        cells += [_cell(t, t.mistake), _cell(t, t.no_mistake)]
        cells += [_cell(t, t.turns[k], t.turned) for k in TURNS]
        if q.revealed:
            cells += [_cell(t, t.right_mistake), _cell(t, t.right_turn, t.turned)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _choices_table(q: Question, votes: Sequence[Tally]) -> str:
    heads = [
        c + (" ✓ right" if q.revealed and i == q.right else "") for i, c in enumerate(q.choices)
    ]
    cols = ["", "answered", *heads, *(["right"] if q.revealed else [])]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for vote, t in enumerate(votes):
        cells = [VOTE_NAMES[vote] if vote < len(VOTE_NAMES) else f"vote {vote + 1}"]
        cells += [str(t.answered), *(_cell(t, n) for n in t.picked(q))]
        cells += [_cell(t, t.right)] if q.revealed else []
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def shift_words(q: Question, votes: Sequence[Tally]) -> str:
    """How the class moved between the votes on "mistake or not", once revealed:
    "right: 1 of 4 (25%) → 3 of 4 (75%)" ("" before the reveal)."""
    if not q.revealed or not votes:
        return ""
    return "right: " + " → ".join(
        f"{t.right_mistake} of {t.answered} ({t.share(t.right_mistake):.0%})" for t in votes
    )
