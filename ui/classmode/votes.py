"""The class's answers to a question, as the lecturer's strip and a student's line show them:
how many answered, each choice's share (words and numbers beside each bar: colour is
never the only cue), and once revealed the right choice marked "✓ right" in each vote.

The same code serves both kinds of question: the next example's (mistake or not, and which
way the line turns) and the bank's (one of its choices): ``Question.options`` and
``Tally.picked`` give both as a list of choices.

May import: ``streamlit``, ``ui.classmode`` (classroom, question, seat, summary, turns),
``ui.look``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import turns
from ui.classmode.question import said_text
from ui.classmode.seat import STRIP_DOWN, Refused, reach
from ui.classmode.summary import VOTE_NAMES, shift_words
from ui.look.numbers import vector_text


def truth_word(q: cr.Question) -> str:
    """The right answer in a word or two: the bank's choice, "a mistake" or "no mistake"."""
    return q.options[q.answer_index] if q.bank else ("a mistake" if q.mistake else "no mistake")


def revealed_line(answers: Mapping[tuple[int, int], tuple[Any, Any]], q: cr.Question) -> str:
    """A revealed question in one line: the truth, and the student's answer (``answers``:
    theirs by question and vote, as ``answers.my_answers`` gives them) marked ✓ or ✗ (a
    sign and a word, not a colour)."""
    truth = truth_word(q)
    # the last vote the student answered grades them (the second, after discussion)
    votes = [v for v in range(q.rounds, 0, -1) if (q.id, v) in answers]
    if not votes:
        return f"Question {q.id}: not answered · it was {truth}"
    said, turn = answers[(q.id, votes[0])]
    g = an.grade(q, said, turn)
    if g.mistake_right and (turn is None or g.turn_right):
        mark = "✓ right"
    elif g.mistake_right:
        mark = "✓ mistake or not, ✗ the turn"
    else:
        mark = "✗ not this time"
    # the mark first: a phone's line may end in an ellipsis
    return f"Question {q.id}: {mark} · it was {truth}, you said {said_text(q, said, turn)}"


def question_state(room: cr.Room, q: cr.Question | None, count: int, *, live: bool) -> str:
    """The question's state in a few words: how many answered (and, if the lecturer shows
    them live, what), or the revealed answer and how many were right in each vote."""
    if q is None:
        return ""
    try:
        # open: the vote under way only; revealed: every vote, for the shift between them
        votes = (
            reach(an.tallies, room, q)
            if q.revealed
            else [an.tally(reach(an.answers_of, room, q.id, q.rounds), q)]
        )
    except Refused:
        return f"Question {q.id}: the answers cannot be read now"
    if q.revealed:
        shift = shift_words(q, votes)
        return f"Question {q.id}: {truth_word(q)}" + (f" · {shift}" if shift else "")
    t = votes[-1]
    said = (
        "".join(f" · {o} {n}" for o, n in zip(q.options, t.picked(q), strict=True)) if live else ""
    )
    vote = " (vote 2)" if q.rounds > 1 else ""
    return f"**Question {q.id}**{vote}: **{t.answered} of {count} answered**{said}"


def asked_words(q: cr.Question) -> str:
    """The open question, as the lecturer's strip says it."""
    again = " Second vote, after the discussion." if q.rounds > 1 else ""
    if q.bank:
        return f"**Question {q.id}:** {q.prompt}{again}"
    sign = "+1" if q.y > 0 else "−1"
    return (
        f"**Question {q.id}:** will point {q.point + 1}, x = {vector_text(q.x)} with "
        f"y = {sign}, be a mistake at step t = {q.t + 1}?{again}"
    )


def tally_bars(q: cr.Question, room: cr.Room, count: int, *, live: bool) -> None:
    """The open vote: the question, how many answered, and (if the lecturer shows them
    live) each choice's share as a bar with its words and numbers."""
    try:
        t = an.tally(reach(an.answers_of, room, q.id, q.rounds), q)
    except Refused:
        st.caption(STRIP_DOWN)
        return
    st.markdown(asked_words(q))
    if not live:
        st.markdown(f"**{t.answered}** of {count} answered")
        return
    cols = st.columns([1.2, *([4 / len(q.options)] * len(q.options))], vertical_alignment="center")
    cols[0].markdown(f"**{t.answered}** of {count} answered")
    for col, label, n in zip(cols[1:], q.options, t.picked(q), strict=True):
        col.progress(t.share(n), text=f"{label}: {n} ({t.share(n):.0%})")
    which = ", ".join(f"{turns.TURN_WORDS[k]} {v}" for k, v in t.turns.items() if v)
    if which and not q.bank:
        st.caption(f"Which way the line turns: {which}.")


def revealed_bars(room: cr.Room, q: cr.Question) -> None:
    """The revealed question's votes side by side: each choice's share as a bar, the right
    one marked in words ("✓ right"), and how many were right in each vote."""
    try:
        votes = reach(an.tallies, room, q)
    except Refused:
        st.caption(STRIP_DOWN)
        return
    cols = st.columns(len(votes))
    for col, name, t in zip(cols, VOTE_NAMES, votes, strict=False):
        with col:
            title = name.capitalize() if len(votes) > 1 else "The class"
            st.markdown(f"**{title}:** {t.answered} answered")
            for i, (label, n) in enumerate(zip(q.options, t.picked(q), strict=True)):
                mark = " ✓ right" if i == q.answer_index else ""
                st.progress(t.share(n), text=f"{label}{mark}: {n} ({t.share(n):.0%})")
            if t.turned and not q.bank:
                which = ", ".join(
                    f"{turns.TURN_WORDS[k]}{' ✓' if turns.turn_right(q.turn, k) else ''} {v}"
                    for k, v in t.turns.items()
                )
                st.caption(f"Which way: {which} ({t.right_turn} of {t.turned} right).")
    shift = shift_words(q, votes)
    if len(votes) > 1 and shift:
        st.markdown(f"**{'The answer' if q.bank else 'Mistake or not'}, {shift}**")
