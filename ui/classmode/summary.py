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
from ui.look.numbers import number, percent
from ui.words import N_, t, tn


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
        for vote, tally in enumerate(votes.get(q.id) or [Tally()], start=1):
            if q.bank:
                rows.append(_bank_row(q, vote, tally))
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
                    "answered": tally.answered,
                    "said mistake": tally.mistake,
                    "said no mistake": tally.no_mistake,
                    "said counter-clockwise": tally.turns["ccw"],
                    "said clockwise": tally.turns["cw"],
                    "said no turn": tally.turns["none"],
                    "right on mistake": tally.right_mistake if q.revealed else "",
                    "right on turn": tally.right_turn if q.revealed else "",
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


def _bank_row(q: Question, vote: int, tally: Tally) -> dict[str, Any]:
    """A vote on a bank question: the entry's id and words, its choices, how many said each
    (``said choice 1`` is the first choice), the right one once revealed."""
    picked = tally.chosen or (0,) * len(q.choices)
    row: dict[str, Any] = {
        "kind": "question",
        "number": q.id,
        "vote": vote,
        "step t": q.t,  # the lecture's step the question is about
        "bank question": q.bank,
        "question": q.prompt,
        "choices": " | ".join(q.choices),
        "answer": q.choices[q.right] if q.revealed else "",
        "answered": tally.answered,
        "right on choice": tally.right if q.revealed else "",
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
    if kind == "questions":
        said = tn(
            "Question 1 is not kept: a class keeps its last {limit} questions.",
            "Questions 1 to {n} are not kept: a class keeps its last {limit} questions.",
            n,
        )
        return said.format(n=number(n), limit=number(MAX_ASKED))
    said = tn(
        "Challenge 1 is not kept: a class keeps its last {limit} challenges.",
        "Challenges 1 to {n} are not kept: a class keeps its last {limit} challenges.",
        n,
    )
    return said.format(n=number(n), limit=number(MAX_CHALLENGES))


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

VOTE_NAMES = (N_("first vote"), N_("second vote"))


def truth_words(q: Question) -> str:
    """The question's answer in a few words ("a mistake, the line turned clockwise")."""
    if q.bank:
        return q.choices[q.right]
    if not q.mistake:
        return t("no mistake (the line did not move)")
    return t("a mistake, {change}").format(change=change_words(q))


def _cell(tally: Tally, count: int, of: int | None = None) -> str:
    return f"{number(count)} ({percent(tally.share(count, of), 0)})"


def _vote_name(vote: int) -> str:
    """A vote's row name: "first vote", "second vote", "vote 3" (counted from 0)."""
    if vote < len(VOTE_NAMES):
        return t(VOTE_NAMES[vote])
    return t("vote {n}").format(n=vote + 1)


def votes_table(q: Question, votes: Sequence[Tally]) -> str:
    """The votes on ``q`` side by side, as a markdown table: a row per vote, a column per
    choice (the right ones marked "✓ right" once revealed: words, not colour), and how
    many got each part right."""
    if q.bank:
        return _choices_table(q, votes)
    right_m = "mistake" if q.mistake else "no mistake"
    choices = [(N_("mistake"), "mistake"), (N_("no mistake"), "no mistake")]
    choices += [(TURN_WORDS[k], k) for k in TURNS]

    def head(word: str, code: str) -> str:
        right = q.revealed and (code == right_m or (code in TURNS and turn_right(q.turn, code)))
        return t("{choice} ✓ right").format(choice=t(word)) if right else t(word)

    cols = ["", t("answered"), *(head(w, c) for w, c in choices)]
    if q.revealed:
        cols += [t("right on mistake"), t("right on turn")]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for vote, tally in enumerate(votes):
        cells = [_vote_name(vote), number(tally.answered)]
        cells += [_cell(tally, tally.mistake), _cell(tally, tally.no_mistake)]
        cells += [_cell(tally, tally.turns[k], tally.turned) for k in TURNS]
        if q.revealed:
            cells += [
                _cell(tally, tally.right_mistake),
                _cell(tally, tally.right_turn, tally.turned),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _choices_table(q: Question, votes: Sequence[Tally]) -> str:
    heads = [
        t("{choice} ✓ right").format(choice=c) if q.revealed and i == q.right else c
        for i, c in enumerate(q.choices)
    ]
    cols = ["", t("answered"), *heads, *([t("right")] if q.revealed else [])]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for vote, tally in enumerate(votes):
        cells = [_vote_name(vote), number(tally.answered)]
        cells += [_cell(tally, n) for n in tally.picked(q)]
        cells += [_cell(tally, tally.right)] if q.revealed else []
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def shift_words(q: Question, votes: Sequence[Tally], *, bare: bool = False) -> str:
    """How the class moved between the votes on "mistake or not", once revealed:
    "right: 1 of 4 (25%) → 3 of 4 (75%)" ("" before the reveal; ``bare``: without
    "right: ")."""
    if not q.revealed or not votes:
        return ""
    moved = " → ".join(
        t("{n} of {total} ({share})").format(
            n=number(v.right_mistake),
            total=number(v.answered),
            share=percent(v.share(v.right_mistake), 0),
        )
        for v in votes
    )
    return moved if bare else t("right: {moved}").format(moved=moved)
