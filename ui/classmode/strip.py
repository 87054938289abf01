"""Class mode on every page: the sidebar's class box, and the live strip at the top of
the page: the lecturer's code, count and question, with Ask, "Vote again" and
Reveal; a student's question card and the follow switch.

While the class votes the lecturer's strip says how many answered, not what: a share on
the projector sways those who have not answered yet. The lecturer may show the shares
live (:data:`LIVE`, off by default, kept for the session); the reveal shows them, each vote
beside the other, with the right answer.

The strip is a fragment. The lecturer's runs every second (:data:`POLL_S`: one session
per class reads the answers); a student's is rerun by its browser when the part of the
room it shows changes (the live channel, ``ui.classmode.live``), and by itself every
:data:`HEARTBEAT_S` for a page whose channel cannot connect.
A run that finds nothing new reads the room from the process's recent copy (one store
read per process every ``classroom.RECENT_S``) and draws only what it drew before.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.app import links
from ui.app.state import Session, session_key
from ui.classmode import address, challenge, presence
from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import live as channel
from ui.classmode.arrive import ROOM_PAGE, keep_recap, leave, lecturer_do, start_and_go
from ui.classmode.card import page_card
from ui.classmode.follow import (
    LECTURE_PAGE,
    STEP_KEY,
    end_of_run,
    follow_now,
    parts_shown,
    set_following,
)
from ui.classmode.question import question_card, truth_text
from ui.classmode.seat import (
    STRIP_DOWN,
    Refused,
    Seat,
    notice,
    reach,
    room_now,
    say,
    seat_of,
)
from ui.classmode.votes import question_state, revealed_bars, revealed_line, tally_bars
from ui.live import light
from ui.look.numbers import number
from ui.look.style import page_style
from ui.look.text import safe
from ui.server import guard
from ui.server.internals import testid
from ui.words import t, tn

HOOKS = session_key("room_hooks")
LIVE = session_key("room_live")  # the lecturer shows the answers' shares while the class votes
LIVE_PICK = "room_live_pick"  # its switch (a widget: its state goes with the strip's page)
POLL_S = 1.0  # the lecturer's strip reads the answers this often (one session per class)
# a student's strip runs by itself this often: a page whose live channel cannot connect
# (a proxy that refuses websockets to /api/) still hears of the class
HEARTBEAT_S = 30.0
# a student's strip says its seat is still here at most this often (a seat not seen for
# classroom.SEEN_S is not counted: two heartbeats and more)
SEEN_EVERY_S = 20.0
ROOM_URL = "room"  # the class page's url_path
MARGIN_URL, MARGIN_PAGE = "margin", "pages/margin.py"  # the margin lab: the challenge's page
TOLD_IN_PAGE = (MARGIN_URL, ROOM_URL)  # pages whose body tells of the open challenge


def sidebar_box(session: Session) -> None:
    """The sidebar's class box on every page: start or join a class, or the class in.

    One block in the sidebar whatever it holds, so the dataset's widgets under it keep
    their places when it changes: a widget that moves is drawn anew, and the browser
    sends a slider drawn anew at its minimum."""
    sb = st.sidebar.container(key="app_class")
    seat = seat_of(session)
    if seat is None:
        # a plain expander, sent whole: a lazy one (on_change) moves the widgets under it
        with sb.expander(t("Class mode"), icon=":material/school:"):
            st.caption(t("A lecturer starts a class; students join it with its code or QR code."))
            st.button(
                t("Start a class"),
                key="room_start",
                icon=":material/co_present:",
                on_click=start_and_go,
                args=(session,),
            )
            st.page_link(ROOM_PAGE, label=t("Join a class"), icon=":material/login:")
        return
    said = (
        t("Class **{code}**: you are its lecturer.")
        if seat.lecturer
        else t("Class **{code}**: you joined as {nick}.")
    )
    nick = safe(seat.nick) or t("a student")
    sb.info(said.format(code=cr.shown_code(seat.code), nick=nick), icon=":material/school:")
    sb.page_link(ROOM_PAGE, label=t("The class page"), icon=":material/school:")


# ----------------------------------------------------------------------------- the live strip


def public_url() -> str:
    """The address students' phones open (``ui.classmode.address``); when none is known,
    the address of the lecturer's own page (a link that works on this machine only)."""
    return address.current().url or address.page_origin()


def join_url(code: str) -> str:
    """The join link: the class's light page (``ui.lecture.light``), its code filled in."""
    return f"{public_url()}{light.PAGE_PATH}?room={code}"


def remote_url(code: str, secret: str) -> str:
    """The lecturer's remote (``ui.lecture.remote``): the class's key in the fragment, which
    the browser keeps to itself (no server, log or Referer is sent it)."""
    return f"{public_url()}{light.REMOTE_PAGE_PATH}?room={code}#key={secret}"


def join_line() -> str:
    """Where the strip says students join: the address, or that phones cannot reach it."""
    where = address.current()
    if where.reachable:
        return t("join at {address}").format(address=f"{safe(where.url)}{light.PAGE_PATH}")
    return t("**phones cannot join yet** (the Class page says why)")


@dataclass(frozen=True)
class LectureHooks:
    """What the lecture page lends the lecturer's strip: the question at its step (or why
    there is none), a step to go to at the reveal, and the step the page posted on its own."""

    question: Callable[[], cr.Question | str]
    step_to: Callable[[int], None]
    pick: Callable[[], None] | None = None  # draws the list of questions Ask picks from
    # takes the step the page last posted to /api/step (ui.live.reports): a lecturer who
    # steps, then starts a class before the pause's post arrived, posted it after the run
    # that published the lecture; the class gets it from the strip's next run
    posted: Callable[[], None] | None = None


def lend(session: Session, hooks: LectureHooks | None) -> None:
    """The page on show lends its hooks (the lecture page), or none (every other page)."""
    if hooks is None:
        session.pop(HOOKS, None)
    else:
        session[HOOKS] = hooks


def live(session: Session, page: str) -> None:
    """The class strip at the top of every page of a joined session (a fragment that runs
    every POLL_S): the lecturer's code, count, question and tally; a student's question
    card and following."""
    seat = seat_of(session)
    if seat is None:
        return
    try:
        room = reach(cr.load_room, seat.code, fresh=channel.fresh(session, "strip"))
    except Refused:
        st.caption(t(STRIP_DOWN))
        return
    if room is None or room.closed:
        ended = t("Class {code} has ended. The page is yours again.")
        if room is not None and seat.lecturer:  # closed elsewhere (the lecturer link)
            keep_recap(session, seat)
            ended = t(
                "Class {code} has ended. The page is yours again. Its recap and summary are "
                "on the Class page."
            )
        leave(session)
        notice(session, ended.format(code=cr.shown_code(seat.code)))
        st.rerun(scope="app")
    if seat.redraw:
        seat.redraw = False
        st.rerun(scope="app")
    if seat.said:
        st.warning(seat.said, icon=":material/warning:")
        seat.said = None
    if seat.lecturer:
        if page != ROOM_URL:  # the class page is the projector's view of it all
            _lecturer_strip(session, seat, room)
        return
    if seat.seat and time.time() - seat.seen_at > SEEN_EVERY_S:  # the page is open: counted
        seat.seen_at = time.time()
        with contextlib.suppress(Refused):
            reach(presence.still_here, room, seat.seat, seat.nick)
        presence.watch(room.code, seat.seat, links.call, then=lambda: setattr(seat, "seen_at", 0.0))
    _student_style()
    with st.container(key="room_student"):
        _student_strip(session, seat, room, page)


def _student_strip(session: Session, seat: Seat, room: cr.Room, page: str) -> None:
    # On Step by step the question card is a fragment of its own under the chart
    # (lecture_card), and the instrument follows the lecturer (follow_here): the browser
    # reruns each for its own part of the room, so a question reruns one small fragment
    topic = "end" if page == LECTURE_PAGE else "strip"
    channel.listen(session, seat, topic=topic, shown=parts_shown(room)[topic], notice=seat.notices)
    _reach_out(session, seat, room, page)
    if page == LECTURE_PAGE:
        if follow_now(session, room):
            st.rerun(scope="app")  # behind the lecturer (a lost rerun): the page runs
        _follow_line(session, seat, room)
        return
    c = room.open_challenge
    if page in TOLD_IN_PAGE and guard.fragment_rerun() and seat.told != (c.id if c else None):
        # the page's body tells of the open challenge, and only a page run draws the body
        # (a page run draws it after this strip, and needs no second run)
        st.rerun(scope="app")
    _card(session, seat, room)


# A student's strip on a phone starts in the room Streamlit leaves under its header (the
# page's title keeps its own space above it), and a revealed question's line is no taller
# than a line of text (its end cut short with an ellipsis on a narrow screen; the card
# unfolded says it all): the margin lab's numbers stay on the phone's first screen.
_student_style = page_style(
    "room_student",
    """
@media (max-width: 640px) { .st-key-room_student { margin-top: -2rem; } }
[class*="st-key-room_done_"] summary { padding-top: 0.3rem; padding-bottom: 0.3rem; }
[class*="st-key-room_done_"] summary * { min-width: 0; }
[class*="st-key-room_done_"] summary p {
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
""",
)


def _card(session: Session, seat: Seat, room: cr.Room, *, ringed: bool = False) -> None:
    q = room.question
    if q is None or q.id in seat.dismissed:
        return
    if seat.seat:  # answers given on Step by step's card went to its route, not this session
        with contextlib.suppress(Refused):
            seat.answers.update(reach(an.my_answers, room, seat.seat))
    if not q.revealed:
        question_card(session, q, ringed=ringed)
        return
    # answered and revealed: one line (the truth and theirs) over the page the student is
    # on, the whole card a tap away
    with st.expander(
        revealed_line(seat.answers, q), icon=":material/quiz:", key=f"room_done_{q.id}"
    ):
        question_card(session, q)
        st.button(
            t("Hide this question"),
            key=f"room_hide_{q.id}",
            on_click=seat.dismissed.add,
            args=(q.id,),
        )


def _reach_out(session: Session, seat: Seat, room: cr.Room, page: str) -> None:
    """What a student must hear of on any page: the open margin challenge, with one tap
    to the margin lab (not on the lab, whose challenge box takes the set, nor on the class
    page, which says it in full); and, once, that their own edit stopped following."""
    c = room.challenge
    if c is not None and c.open and page not in TOLD_IN_PAGE:
        box = st.container(
            key="room_challenge_call",
            border=True,
            horizontal=True,
            vertical_alignment="center",
            gap="small",
        )
        head, rest = challenge.announcement(c)
        box.markdown(f":material/emoji_events: **{head}** {rest}", width="stretch")
        box.page_link(MARGIN_PAGE, label=t("Open the margin lab"), icon=":material/open_with:")
    if seat.stopped and page != LECTURE_PAGE:  # Step by step says it in its follow line
        _stopped_note(seat)


def _stopped_note(seat: Seat) -> None:
    row = st.container(
        key="room_stopped", horizontal=True, vertical_alignment="center", gap="small", wrap=False
    )
    row.caption(f":material/explore: {seat.stopped}", width="stretch")
    row.button(
        t("OK"),
        key="room_stopped_ok",
        on_click=setattr,
        args=(seat, "stopped", None),
        help=t("hide this note"),
    )


@guard.fragment
def lecture_card(session: Session) -> None:
    """A joined student's question card on Step by step, under the lecture's instrument,
    drawn by the page (``ui.classmode.card``): a question asked or revealed is fetched and
    drawn by the browser when the live channel tells of it, with no rerun of the page. A
    fragment of its own, as the instrument above it is: the instrument's reruns leave it be."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return
    try:
        room = reach(cr.load_room, seat.code)
        if room is None or room.closed:
            return  # the strip says the class ended
        # a follower's chart is the lecturer's run: it rings the example asked about
        page_card(seat, room, ringed=seat.following)
    except Refused:
        return  # the strip says the class cannot be reached


def _follow_line(session: Session, seat: Seat, room: cr.Room) -> None:
    c1, c2 = st.columns([3, 1], vertical_alignment="center")
    if seat.following:
        said = t("Following the lecturer of class {code}: their data, settings and step.").format(
            code=cr.shown_code(room.code)
        )
        label, key, icon = t("Explore on my own"), "room_unfollow", ":material/explore:"
    else:
        said = seat.stopped or t(
            "Exploring on your own. Follow the lecturer to catch up with their step."
        )
        label, key, icon = t("Follow the lecturer"), "room_follow", ":material/sync:"
    c1.caption(said)
    c2.button(label, key=key, on_click=set_following, args=(session, not seat.following), icon=icon)
    # pressed: the whole page, as a follower's Step by step has no controls (player.js)
    if any(session.get(pressed) is True for pressed in ("room_follow", "room_unfollow")):
        st.rerun(scope="app")


def _lecturer_strip(session: Session, seat: Seat, room: cr.Room) -> None:
    hooks = session.get(HOOKS) if isinstance(session.get(HOOKS), LectureHooks) else None
    if hooks is not None and hooks.posted is not None:
        hooks.posted()
    # publish what changed since the page's run: a posted step, what the rate limit held
    # back, or a first publish the store refused; on a page without the lecture (no hooks),
    # only a lecture the lecturer has shown the class
    if seat.published is not None or hooks is not None:
        end_of_run(session)
    try:
        count = reach(cr.members, room)
    except Refused:
        count = 0  # the tally below says the class cannot be read
    q = room.question
    if session.get("app_presenter"):
        _strip_row(room, q, count, session, hooks)
        return
    _strip_style()
    box = st.container(border=True, key="room_strip")
    head = box.columns([4, 1.3], vertical_alignment="center")
    head[0].markdown(
        tn(
            "Class **{code}** · **{n}** student · {join}",
            "Class **{code}** · **{n}** students · {join}",
            count,
        ).format(code=cr.shown_code(room.code), n=number(count), join=join_line())
    )
    if hooks is None:
        head[1].caption(t("Ask questions from *Step by step*."))
    else:
        _ask_or_reveal(head[1], session, hooks, q, width="stretch")
    if q is not None and not q.revealed:
        with box:
            tally_bars(q, room, count, live=bool(session.get(LIVE)))
            tools = st.container(horizontal=True, vertical_alignment="center", gap="medium")
            with tools:
                _live_switch(session)
                if hooks is not None:
                    _again_button(session, q, width="content")
    elif q is not None:
        box.caption(t("Question {id}: {truth}").format(id=q.id, truth=truth_text(q)))
        with box:
            revealed_bars(room, q)


def _ask_or_reveal(
    where: DeltaGenerator,
    session: Session,
    hooks: LectureHooks,
    q: cr.Question | None,
    *,
    width: Literal["stretch", "content"],
) -> None:
    """Ask with no question open (and the list it asks from, in a popover), else Reveal."""
    if hooks.pick is not None and (q is None or q.revealed):
        with where.popover(t("Which question"), icon=":material/list:", width=width):
            hooks.pick()
    label, key, act, icon = (
        (t("Ask the class"), "room_ask", _ask, ":material/help:")
        if q is None or q.revealed
        else (t("Reveal"), "room_reveal", _reveal, ":material/visibility:")
    )
    where.button(
        label, key=key, on_click=act, args=(session, hooks), icon=icon, type="primary", width=width
    )


def _strip_row(
    room: cr.Room,
    q: cr.Question | None,
    count: int,
    session: Session,
    hooks: LectureHooks | None,
) -> None:
    """The lecturer's strip in presenter mode: one row above the lecture, so the chart
    keeps the projector's height. The code, the join address and the count; the open
    question's answers so far (the question itself is ringed on the chart and named in
    the player's status line); Ask or Reveal. A text too long for the row ends in an
    ellipsis (hovering shows it whole) rather than starting a second row."""
    _strip_row_style()
    box = st.container(key="room_strip_row").container(
        border=True,
        key="room_strip",
        horizontal=True,
        vertical_alignment="center",
        gap="medium",
        wrap=False,
    )
    # with a question open its state counts the class ("2 of 30 answered"): the row's
    # room goes to the join address, which a latecomer still needs whole
    voted_on = q if q is not None and not q.revealed else None  # the question being voted on
    voting = voted_on is not None
    said = (
        t("Class **{code}** · {join}")
        if voting
        else tn(
            "Class **{code}** · {join} · **{n}** student",
            "Class **{code}** · {join} · **{n}** students",
            count,
        )
    )
    box.markdown(
        said.format(code=cr.shown_code(room.code), join=join_line(), n=number(count)),
        wrap=False,
        width="stretch",
    )
    state = question_state(room, q, count, live=bool(session.get(LIVE)))
    if state:
        with box.container(key="room_strip_state", width="content"):
            st.markdown(state, wrap=False)
    if voting:
        with box.container(width="content"):
            _live_switch(session, label=t("Shares"))
    if hooks is None:
        box.caption(t("Ask questions from *Step by step*."), width="content")
    else:
        if voted_on is not None:
            _again_button(session, voted_on, width="content", where=box)
        _ask_or_reveal(box, session, hooks, q, width="content")


# the one-row strip: no taller than its button, which is as compact as the row's text
_strip_row_style = page_style(
    "room_strip_row",
    """
.st-key-room_strip_row .st-key-room_strip { padding: 0.3rem 0.8rem; }
.st-key-room_strip_row .st-key-room_strip p { font-size: 1rem; }
.st-key-room_strip_row .st-key-room_strip button { min-height: 2rem; padding: 0.15rem 0.9rem; }
""",
)


# the lecturer's strip is read from the back of a lecture hall: its text a step larger
_strip_style = page_style(
    "room_strip",
    """
.st-key-room_strip MARKDOWN p,
.st-key-room_strip PROGRESS p { font-size: 1.2rem; }
""".replace("MARKDOWN", testid("stMarkdownContainer")).replace("PROGRESS", testid("stProgress")),
)


def _live_switch(session: Session, label: str | None = None) -> None:
    """The lecturer's choice to show the answers' shares while the class votes (off: only
    how many answered). Kept for the session, whatever page the strip is on."""
    if LIVE_PICK not in session:
        session[LIVE_PICK] = bool(session.get(LIVE, False))
    st.toggle(
        label or t("Show the shares live"),
        key=LIVE_PICK,
        on_change=lambda: session.__setitem__(LIVE, bool(session.get(LIVE_PICK))),
        help=t(
            "Off: the class sees only how many answered until you reveal, so a visible "
            "majority does not sway those still thinking."
        ),
    )


def _again_button(
    session: Session,
    q: cr.Question,
    *,
    width: Literal["stretch", "content"],
    where: DeltaGenerator | None = None,
) -> None:
    """ "Vote again" (after the class discusses), while the first vote is open."""
    if q.rounds >= cr.MAX_ROUNDS:
        return
    (where or st).button(
        t("Vote again"),
        key="room_again",
        on_click=_vote_again,
        args=(session,),
        icon=":material/forum:",
        width=width,
        help=t(
            "Closes this vote (its answers are kept) and asks the class again after they "
            "talk it over with a neighbour. The shares stay hidden."
        ),
    )


def _vote_again(session: Session) -> None:
    err = lecturer_do(session, cr.vote_again)
    if err:
        say(session, err)


def _ask(session: Session, hooks: LectureHooks) -> None:
    made = hooks.question()
    if isinstance(made, str):
        say(session, made)
        return
    err = lecturer_do(session, lambda room: cr.ask(room, made))
    if err:
        say(session, err)
        return
    seat = seat_of(session)
    if seat is not None:
        seat.redraw = True  # the page runs: the projector's chart marks the example asked


def _reveal(session: Session, hooks: LectureHooks) -> None:
    """Reveal the answer and step the lecture past the example, in one write of the room
    (the students' strips run once for both)."""
    seat = seat_of(session)
    room = room_now(session)
    q = room.question if room is not None else None
    if seat is None or q is None:
        say(session, t("There is no open question to reveal."))
        return
    # past the example asked about; a bank question's evidence (its run's end, its mistake)
    shown = (q.reveal_t if q.reveal_t >= 0 else q.t) if q.bank else q.t + 1
    after = {**(seat.published or {}), STEP_KEY: str(shown)}
    err = lecturer_do(session, lambda r: cr.publish(cr.reveal(r), after))
    if err:
        say(session, err)
        return
    seat.published = after
    hooks.step_to(shown)  # the lecturer's page shows the step the followers are shown
    seat.redraw = True


# ----------------------------------------------------------------------------- the challenge
