"""The class's answers to a question, as the lecturer's strip and a student's line show them:
how many answered, each choice's share (words and numbers beside each bar: colour is
never the only cue), and once revealed the right choice marked "✓ right" in each vote.

The same code serves both kinds of question: the next example's (mistake or not, and which
way the line turns) and the bank's (one of its choices): ``Question.options`` and
``Tally.picked`` give both as a list of choices.

May import: ``streamlit``, ``ui.classmode`` (classroom, question, seat, summary, turns),
``ui.look``, ``ui.words``.
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
from ui.classmode.summary import shift_words
from ui.look.numbers import number, percent, vector_text
from ui.words import N_, t

VOTE_TITLES = (N_("First vote"), N_("Second vote"))


def truth_word(q: cr.Question) -> str:
    """The right answer in a word or two: the bank's choice, "a mistake" or "no mistake"."""
    if q.bank:
        return q.options[q.answer_index]
    return t("a mistake") if q.mistake else t("no mistake")


def revealed_line(answers: Mapping[tuple[int, int], tuple[Any, Any]], q: cr.Question) -> str:
    """A revealed question in one line: the truth, and the student's answer (``answers``:
    theirs by question and vote, as ``answers.my_answers`` gives them) marked ✓ or ✗ (a
    sign and a word, not a colour)."""
    truth = truth_word(q)
    # the last vote the student answered grades them (the second, after discussion)
    votes = [v for v in range(q.rounds, 0, -1) if (q.id, v) in answers]
    if not votes:
        return t("Question {id}: not answered · it was {truth}").format(id=q.id, truth=truth)
    said, turn = answers[(q.id, votes[0])]
    g = an.grade(q, said, turn)
    if g.mistake_right and (turn is None or g.turn_right):
        mark = t("✓ right")
    elif g.mistake_right:
        mark = t("✓ mistake or not, ✗ the turn")
    else:
        mark = t("✗ not this time")
    # the mark first: a phone's line may end in an ellipsis
    return t("Question {id}: {mark} · it was {truth}, you said {said}").format(
        id=q.id, mark=mark, truth=truth, said=said_text(q, said, turn)
    )


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
        return t("Question {id}: the answers cannot be read now").format(id=q.id)
    if q.revealed:
        shift = shift_words(q, votes)
        if shift:
            return t("Question {id}: {truth} · {shift}").format(
                id=q.id, truth=truth_word(q), shift=shift
            )
        return t("Question {id}: {truth}").format(id=q.id, truth=truth_word(q))
    tally = votes[-1]
    said = (
        "".join(
            f" · {option_words(q, o)} {number(n)}"
            for o, n in zip(q.options, tally.picked(q), strict=True)
        )
        if live
        else ""
    )
    head = (
        t("**Question {id}** (vote 2): **{n} of {count} answered**")
        if q.rounds > 1
        else t("**Question {id}**: **{n} of {count} answered**")
    )
    return head.format(id=q.id, n=number(tally.answered), count=number(count)) + said


def option_words(q: cr.Question, option: str) -> str:
    """A choice as shown: a bank question's own words, or "mistake" / "no mistake" in this
    run's language (the option itself stays the answer's English key)."""
    return option if q.bank else t(option)


def asked_words(q: cr.Question) -> str:
    """The open question, as the lecturer's strip says it."""
    again = " " + t("Second vote, after the discussion.") if q.rounds > 1 else ""
    if q.bank:
        return t("**Question {id}:** {prompt}").format(id=q.id, prompt=q.prompt) + again
    sign = "+1" if q.y > 0 else "−1"
    return (
        t(
            "**Question {id}:** will point {point}, x = {x} with y = {sign}, be a mistake at "
            "step t = {t}?"
        ).format(id=q.id, point=q.point + 1, x=vector_text(q.x), sign=sign, t=q.t + 1)
        + again
    )


def tally_bars(q: cr.Question, room: cr.Room, count: int, *, live: bool) -> None:
    """The open vote: the question, how many answered, and (if the lecturer shows them
    live) each choice's share as a bar with its words and numbers."""
    try:
        tally = an.tally(reach(an.answers_of, room, q.id, q.rounds), q)
    except Refused:
        st.caption(t(STRIP_DOWN))
        return
    st.markdown(asked_words(q))
    answered = t("**{n}** of {count} answered").format(
        n=number(tally.answered), count=number(count)
    )
    if not live:
        st.markdown(answered)
        return
    cols = st.columns([1.2, *([4 / len(q.options)] * len(q.options))], vertical_alignment="center")
    cols[0].markdown(answered)
    for col, label, n in zip(cols[1:], q.options, tally.picked(q), strict=True):
        col.progress(tally.share(n), text=_bar_text(option_words(q, label), n, tally.share(n)))
    which = ", ".join(f"{t(turns.TURN_WORDS[k])} {number(v)}" for k, v in tally.turns.items() if v)
    if which and not q.bank:
        st.caption(t("Which way the line turns: {which}.").format(which=which))


def _bar_text(label: str, n: int, share: float) -> str:
    """A choice's bar: "mistake: 3 (25%)"."""
    return f"{label}: {number(n)} ({percent(share, 0)})"


def revealed_bars(room: cr.Room, q: cr.Question) -> None:
    """The revealed question's votes side by side: each choice's share as a bar, the right
    one marked in words ("✓ right"), and how many were right in each vote."""
    try:
        votes = reach(an.tallies, room, q)
    except Refused:
        st.caption(t(STRIP_DOWN))
        return
    cols = st.columns(len(votes))
    for col, title, tally in zip(cols, VOTE_TITLES, votes, strict=False):
        with col:
            name = t(title) if len(votes) > 1 else t("The class")
            st.markdown(t("**{name}:** {n} answered").format(name=name, n=number(tally.answered)))
            for i, (label, n) in enumerate(zip(q.options, tally.picked(q), strict=True)):
                shown = option_words(q, label)
                if i == q.answer_index:
                    shown = t("{choice} ✓ right").format(choice=shown)
                st.progress(tally.share(n), text=_bar_text(shown, n, tally.share(n)))
            if tally.turned and not q.bank:
                which = ", ".join(
                    f"{t(turns.TURN_WORDS[k])}{' ✓' if turns.turn_right(q.turn, k) else ''} "
                    f"{number(v)}"
                    for k, v in tally.turns.items()
                )
                st.caption(
                    t("Which way: {which} ({n} of {total} right).").format(
                        which=which, n=number(tally.right_turn), total=number(tally.turned)
                    )
                )
    shift = shift_words(q, votes)
    if len(votes) > 1 and shift:
        said = t("**The answer, {shift}**") if q.bank else t("**Mistake or not, {shift}**")
        st.markdown(said.format(shift=shift))
