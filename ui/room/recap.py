"""The recap a lecturer sees once their class is closed: each question's votes side by side
with the right answer, each challenge's best few, and the summary CSV. It is read from the
store, so it stays as long as the room does (ROOM_TTL_S after the class was closed), and
the lecturer link or the lecturer's cookie brings it back to another tab."""

from __future__ import annotations

import streamlit as st

from ui.app.state import Session
from ui.classmode import arrive
from ui.classmode import classroom as cr
from ui.classmode.seat import Refused, reach
from ui.classmode.summary import (
    not_kept_words,
    results_of,
    shift_words,
    summary_csv,
    summary_rows,
    truth_words,
)
from ui.classmode.summary import votes_table as table
from ui.look.numbers import number
from ui.room import figures
from ui.words import t, tn


def recap_view(session: Session, public_url: str) -> bool:
    """The closed class's recap, if this session's lecturer has one; False if there is
    none to show (the page shows the join form)."""
    held = arrive.recap_of(session)
    if held is None:
        return False
    code, secret = held
    try:
        room = reach(cr.load_room, code, fresh=True)
        found = reach(results_of, room) if room is not None else None
    except Refused as refused:
        st.title(t("Class {code}: the recap").format(code=cr.shown_code(code)))
        st.warning(
            t("{refused} The recap is kept: reload the page to try again.").format(refused=refused)
        )
        return True
    if room is None or found is None or not cr.holds_secret(room, secret):
        session.pop(arrive.RECAP, None)
        return False
    votes, results = found
    st.title(t("Class {code} is closed: the recap").format(code=cr.shown_code(code)))
    hours = cr.ROOM_TTL_S / 3600
    st.caption(
        tn(
            "Kept for {hours} hour after the class was closed: the lecturer link below opens "
            "it again on any device. Students no longer see the class.",
            "Kept for {hours} hours after the class was closed: the lecturer link below opens "
            "it again on any device. Students no longer see the class.",
            round(hours),
        ).format(hours=number(hours, 6))
    )
    st.download_button(
        t("Download the summary (CSV)"),
        summary_csv(summary_rows(room, votes, results)),
        f"class-{room.code}.csv",
        "text/csv",
        key="room_recap_csv",
        icon=":material/download:",
        type="primary",
        on_click="ignore",
    )
    st.subheader(t("The questions"), anchor=False)
    if not room.asked:
        st.caption(t("No question was asked."))
    if gone := not_kept_words(room, "questions"):
        st.caption(gone)
    for q in room.asked:
        with st.container(border=True, key=f"room_recap_q{q.id}"):
            truth = truth_words(q) if q.revealed else t("not revealed")
            said = (
                t("**Question {id}** (the bank's “{bank}” at step t = {t}, {prompt}): {truth}.")
                if q.bank
                else t("**Question {id}** (point {point}, at step t = {t}): {truth}.")
            )
            st.markdown(
                said.format(
                    id=q.id,
                    bank=q.bank,
                    t=q.t if q.bank else q.t + 1,
                    prompt=q.prompt,
                    point=q.point + 1,
                    truth=truth,
                )
            )
            st.markdown(table(q, votes.get(q.id, [])))
            shift = shift_words(q, votes.get(q.id, []))
            if q.rounds > 1 and shift:
                st.markdown(
                    t(
                        "Right on mistake or not, from the first vote to the second: {moved}."
                    ).format(moved=shift_words(q, votes.get(q.id, []), bare=True))
                )
    st.caption(t("The turns' shares are of the answers that said which way the line turns."))
    st.subheader(t("The margin challenge"), anchor=False)
    if not room.challenges:
        st.caption(t("No challenge was opened."))
    if gone := not_kept_words(room, "challenges"):
        st.caption(gone)
    for c in room.challenges:
        subs = results.get(c.id, [])
        st.markdown(
            tn(
                "**Challenge {id}:** at most {n} point, margin γ ≥ {gamma}.",
                "**Challenge {id}:** at most {n} points, margin γ ≥ {gamma}.",
                c.max_points,
            ).format(id=c.id, n=number(c.max_points), gamma=number(c.min_gamma, 6))
        )
        if subs:
            st.markdown(figures.best_markdown(subs))
            st.caption(figures.challenge_text(subs))
        else:
            st.caption(t("No submissions."))
    with st.expander(t("Lecturer link (private: opens this recap on another device)")):
        st.code(f"{public_url}/room?room={code}&key={secret}", language=None)
    st.button(  # in the callback: the run after it draws the join form
        t("Done: join or start another class"),
        key="room_recap_done",
        on_click=session.pop,
        args=(arrive.RECAP, None),
    )
    return True
