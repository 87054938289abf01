"""The answers to a question: given (one per seat and vote), graded part by part, counted
per vote, and a seat's own (a reload says what it answered). No Streamlit: the store and
the room's document (``ui.classmode.classroom``).

May import: the standard library, the store, ``ui.classmode.classroom``, ``ui.classmode.turns``,
``ui.words``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import perceptron_store as store_mod
from perceptron_store import Store
from ui.classmode.classroom import (
    CLOCK_SLACK_S,
    MAX_MEMBERS,
    Question,
    Room,
    RoomError,
    answers_key,
    joined_at,
    members_key,
    valid_seat,
)
from ui.classmode.turns import TURNS, turn_right
from ui.words import t


def answer(
    s: Store,
    room: Room,
    seat: str,
    qid: object,
    mistake: object,
    turn: object,
    vote: object = 1,
) -> None:
    """A student's answer to vote ``vote`` of the open question (a new one replaces the
    seat's earlier answer in that vote; the first vote's answers stay once the second opens):
    mistake or not and the turn, or for a bank question the choice's index in ``mistake``.

    Raises RoomError when the question is not the open one, is revealed, the vote is not
    the open one, or the answer is not one a student can give."""
    q = room.question
    if room.closed or q is None or q.id != qid:
        raise RoomError(t("That question is no longer open."))
    if q.revealed:
        raise RoomError(t("The answer has been revealed: answers are closed."))
    if isinstance(vote, bool) or not isinstance(vote, int) or not 1 <= vote <= q.rounds:
        raise RoomError(t("That vote is not open."))
    if vote < q.rounds:  # a click on the first vote's card that arrived after it closed
        raise RoomError(t("The first vote has closed: discuss, then answer again."))
    if q.bank:  # ``mistake`` is the index of the choice
        if isinstance(mistake, bool) or mistake not in range(len(q.choices)) or turn is not None:
            raise RoomError(t("That answer is not one of the choices."))
    elif not isinstance(mistake, bool) or (turn is not None and turn not in TURNS):
        raise RoomError(t("That answer is not one of the choices."))
    if not valid_seat(seat):
        raise RoomError(t("Join the class first."))
    joined = joined_at(s.field(members_key(room.code), seat))
    if joined is None:
        raise RoomError(t("Join the class first."))
    if q.opened and joined > q.opened + CLOCK_SLACK_S:  # one vote per seat held when asked
        raise RoomError(t("You joined after this question was asked: answer the next one."))
    said = {"choice": mistake} if q.bank else {"mistake": mistake, "turn": turn}
    body = json.dumps(said).encode()
    try:
        s.put_field(
            answers_key(room.code, q.id, q.rounds), seat, body, ttl=room.ttl, max_fields=MAX_MEMBERS
        )
    except store_mod.MapFull as exc:
        raise RoomError(t("This question has all the answers it can hold.")) from exc


@dataclass(frozen=True)
class Grade:
    """One answer graded part by part, as the question asked it: mistake or not, and
    (when the student said) which way the line turns; ``turn_right`` is None when the
    student gave no turn."""

    mistake_right: bool
    turn_right: bool | None


def grade(q: Question, mistake: bool | int, turn: str | None) -> Grade:
    """Each part on its own: "mistake" against the step's truth, the turn against the way
    the line turned (no mistake: the line does not move, so "no turn" is right); a bank
    question's choice against the engine's."""
    if q.bank:
        return Grade(mistake == q.right and not isinstance(mistake, bool), None)
    return Grade(mistake == q.mistake, None if turn is None else turn_right(q.turn, turn))


@dataclass(frozen=True)
class Tally:
    """The answers to one vote on a question: how many answered, and how many said each
    thing; once graded (a question given), how many got each part right."""

    answered: int = 0
    mistake: int = 0
    no_mistake: int = 0
    turns: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TURNS, 0))
    right_mistake: int = 0  # answers whose mistake / no mistake was the truth
    right_turn: int = 0  # answers whose turn was the way the line turned (of those with one)
    chosen: tuple[int, ...] = ()  # a bank question: how many picked each choice

    def picked(self, q: Question) -> tuple[int, ...]:
        """How many picked each of ``q.options``."""
        return self.chosen if q.bank else (self.mistake, self.no_mistake)

    @property
    def right(self) -> int:
        """How many gave the right first part (the choice, or mistake or not)."""
        return self.right_mistake

    @property
    def turned(self) -> int:
        """How many answers said which way the line turns (the part is optional)."""
        return sum(self.turns.values())

    def share(self, count: int, of: int | None = None) -> float:
        whole = self.answered if of is None else of
        return count / whole if whole else 0.0


def tally(answers: Mapping[str, bytes], question: Question | None = None) -> Tally:
    """Count the answers (one per seat: a map's field); malformed entries are skipped."""
    if question is not None and question.bank:
        return _tally_choices(answers, question)
    mistake = no_mistake = right_mistake = right_turn = 0
    turns = dict.fromkeys(TURNS, 0)
    for blob in answers.values():
        try:
            a = json.loads(blob)
            said = a["mistake"]
            turn = a.get("turn")
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if not isinstance(said, bool):
            continue
        if said:
            mistake += 1
        else:
            no_mistake += 1
        if turn not in turns:
            turn = None  # not a choice: the answer counts, its turn does not
        else:
            turns[turn] += 1
        if question is not None:
            g = grade(question, said, turn)
            right_mistake += g.mistake_right
            right_turn += bool(g.turn_right)
    return Tally(mistake + no_mistake, mistake, no_mistake, turns, right_mistake, right_turn)


def _tally_choices(answers: Mapping[str, bytes], q: Question) -> Tally:
    chosen = [0] * len(q.choices)
    for blob in answers.values():
        try:
            i = json.loads(blob)["choice"]
        except (ValueError, KeyError, TypeError):
            continue
        if not isinstance(i, bool) and i in range(len(chosen)):
            chosen[i] += 1
    right = chosen[q.right] if 0 <= q.right < len(chosen) else 0
    return Tally(sum(chosen), right_mistake=right, chosen=tuple(chosen))


def my_answers(s: Store, room: Room, seat: str) -> dict[tuple[int, int], tuple[Any, Any]]:
    """A seat's answers to the room's current question, each vote's, as a page keeps them
    (``Seat.answers``): a reload or a new tab of a student who answered still says so.
    One field read per vote."""
    q = room.question
    out: dict[tuple[int, int], tuple[Any, Any]] = {}
    if q is None:
        return out
    for vote in range(1, q.rounds + 1):
        try:
            a = json.loads(s.field(answers_key(room.code, q.id, vote), seat) or b"null")
            out[(q.id, vote)] = (a["choice"], None) if q.bank else (a["mistake"], a.get("turn"))
        except (ValueError, KeyError, TypeError):
            continue
    return out


def answers_of(s: Store, room: Room, qid: int, vote: int = 1) -> dict[str, bytes]:
    return s.fields(answers_key(room.code, qid, vote))


def tallies(s: Store, room: Room, q: Question) -> list[Tally]:
    """The tally of each vote on ``q``, the first first (graded: the truth is in ``q``; the
    page shows the grades only once it is revealed)."""
    return [tally(answers_of(s, room, q.id, vote), q) for vote in range(1, q.rounds + 1)]
