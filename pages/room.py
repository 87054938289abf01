"""Class: join a class, or the lecturer's projector view of one."""

from collections.abc import Callable

import streamlit as st

from ui.app import links
from ui.app.state import assign, session_key
from ui.classmode import arrive, challenge, strip
from ui.classmode import classroom as cr
from ui.classmode import entries as en
from ui.classmode import seat as seats
from ui.classmode.summary import summary
from ui.look.numbers import number
from ui.look.style import page_style
from ui.look.text import asset, safe
from ui.room import figures
from ui.room.board import board
from ui.room.join import join_view
from ui.room.recap import recap_view
from ui.room.views import open_submission
from ui.server import guard
from ui.server.internals import testid
from ui.shell import require_router
from ui.words import N_, t, tn

require_router()
ss = st.session_state
TO_LECTURE = session_key("room_to_lecture")
if ss.pop(TO_LECTURE, False):
    st.switch_page("pages/lecture.py")  # a submission opened on the board
seat = seats.seat_of(ss)
PRESENTER_KEY = "room_presenter_on"  # the container the page draws in presenter mode
VIEW = session_key("room_view")
SAID = session_key("room_said")
VIEWS = {"join": N_("Join"), "board": N_("Board")}  # the projector's two views, Join first
# A lecturer's class in presenter mode (presenter_style, mounted then only, so its rules
# need no ``html:has(...)`` marker, which would restyle the whole document on every
# layout): no sidebar and no header (the page's own button leaves presenter mode), little
# padding, and type that grows with the screen (rem-based: all of the page), so that the
# back row reads it on a 1280x720 projector and a 1920x1080 one alike.
presenter_style = page_style(
    "room_presenter",
    f"""
html {{ font-size: clamp(16px, min(1.45vw, 2.6vh), 40px); }}
section{testid("stSidebar")},
{testid("stExpandSidebarButton")},
header{testid("stHeader")} {{ display: none !important; }}
{testid("stMainBlockContainer")} {{
  padding: 0.5rem 1.5rem 1rem !important; max-width: 100% !important; }}
""",
)
# The projector's screen (room_screen) fills the window: the lecturer's controls start
# under it.
style = page_style(
    "room_page",
    f"""
.st-key-room_board {testid("stMarkdownContainer")} p {{ font-size: 1.15rem; }}
.st-key-room_screen {{ min-height: calc(100vh - 1.5rem);
  --room-board-max-height: calc(100vh - 6.5rem); }}
.st-key-room_screen .st-key-room_qr {{ width: min(calc(100vh - 8.5rem), 46vw); margin: 0 auto; }}
.st-key-room_screen .st-key-room_code p {{ font-size: min(6.8vw, 12vh); }}
.st-key-room_screen .st-key-room_count p {{ font-size: 2.2rem; }}
.st-key-room_screen .st-key-room_address p {{ font-size: 1.25rem; }}
.st-key-room_screen .st-key-room_best_few {testid("stMarkdownContainer")} {{ font-size: 1.15rem; }}
.st-key-room_screen .st-key-room_best_few th {{ white-space: nowrap; }}
/* with reduced motion nothing on the projector fades or slides (Streamlit fades the
   elements it redraws, every 2 s here) */
@media (prefers-reduced-motion: reduce) {{ .st-key-{PRESENTER_KEY} * {{
  transition: none !important; animation: none !important; }} }}
/* the view on show: bold and underlined, not only coloured */
.st-key-room_view_pick [role="radio"][aria-checked="true"] {{ font-weight: 700;
  text-decoration: underline; text-underline-offset: 0.2em; }}
""",
)
style()


def join_form() -> None:
    st.title(t("Join a class"))
    with st.form("room_join", enter_to_submit=True, border=True):
        st.text_input(t("Class code (on the projector)"), key="room_join_code", max_chars=20)
        st.text_input(
            t("Nickname (optional, at most 20 characters; shown to the class)"),
            key="room_join_nick",
            max_chars=cr.MAX_NICK,
        )
        st.form_submit_button(
            t("Join"),
            type="primary",
            icon=":material/login:",
            key="room_join_go",
            on_click=arrive.ask_to_join,  # the run that follows joins, then draws the class
            args=(ss,),
        )
        said = ss.pop(arrive.JOIN_SAID, None)
        if said:
            st.error(said, icon=":material/error:")
    st.markdown(asset("room"))


def student_view(seat: seats.Seat) -> None:
    st.title(t("Class {code}").format(code=cr.shown_code(seat.code)))
    nick = safe(seat.nick)
    st.write(
        t("You joined as {nick}.").format(nick=nick)
        if nick
        else t("You joined as a student (no nickname).")
    )
    st.page_link(
        "pages/lecture.py", label=t("Follow the lecturer step by step"), icon=":material/sync:"
    )
    found = challenge.told_in_page(ss)
    if found is not None:
        _, c = found
        st.info(
            tn(
                "**The lecturer's challenge:** with at most {n} point and a margin "
                "γ ≥ {gamma}, make the perceptron make as many mistakes as you can "
                "(in the given order, from w = 0). Build your set in the margin lab and submit "
                "it there.",
                "**The lecturer's challenge:** with at most {n} points and a margin "
                "γ ≥ {gamma}, make the perceptron make as many mistakes as you can "
                "(in the given order, from w = 0). Build your set in the margin lab and submit "
                "it there.",
                c.max_points,
            ).format(n=number(c.max_points), gamma=number(c.min_gamma, 6)),
            icon=":material/emoji_events:",
        )
        st.page_link("pages/margin.py", label=t("Open the margin lab"), icon=":material/open_with:")
        if c.id in seat.submitted:
            st.caption(seat.submitted[c.id])
    # in the callback: the run after it draws the join form (one run, as the lecturer's)
    st.button(
        t("Leave the class"),
        key="room_leave",
        icon=":material/logout:",
        on_click=arrive.leave,
        args=(ss,),
    )


@guard.fragment(run_every=2.0)
def projector(presenter: bool) -> None:
    """What the projector shows of the class (live). In presenter mode the view the
    lecturer picked (Join or Board) with the view bar (``view_bar``, drawn by the page's
    run above it); else the join QR code, code and count, with the challenge's board under
    them. ``presenter``: the mode the page was drawn in."""
    if bool(ss["app_presenter"]) != presenter:  # left (or entered) from this fragment
        st.rerun(scope="app")  # the whole page: its sidebar, and the sidebar's switch
    if seats.seat_of(ss) is None:  # the class closed from its controls (the menu): the recap
        st.rerun(scope="app")
    room = seats.room_now(ss)
    c = room.challenge if room is not None else None
    subs = links.call(en.submissions, room, c.id) if room is not None and c is not None else []
    if not presenter:
        if room is None:
            st.warning(t(GONE))
            return
        join_view(room, presenter=False)
        with st.container(key="room_board"):
            challenge_board(room, subs)
        return
    if room is None:
        st.warning(t(GONE))
        return
    if str(ss.get(VIEW, "join")) == "board":
        board_view(room, subs)
    else:
        join_view(room, presenter=True)


@guard.fragment(run_every=2.0)
def picker() -> None:
    """The board's submissions (live), under the projector's screen: one opens on Step by
    step."""
    room = seats.room_now(ss)
    c = room.challenge if room is not None else None
    if room is not None and c is not None:
        open_picker(links.call(en.submissions, room, c.id))


GONE = N_("This class cannot be read right now (it ended, or the store is down).")


def view_bar() -> None:
    """The projector's view switch (Join / Board: a radio group, reached by Tab, then the
    arrows), the way out of presenter mode and the lecturer's menu. Drawn by the page's
    run, not by the projector's timed fragment: a click on them is a whole-page run, which
    Streamlit never drops (a fragment's rerun asked while the fragment is drawn anew is)."""
    if "room_view_pick" not in ss:
        ss["room_view_pick"] = ss.get(VIEW, "join")
    with st.container(horizontal=True, vertical_alignment="center", key="room_bar"):
        st.segmented_control(
            t("On the projector"),
            list(VIEWS),
            format_func=lambda v: t(VIEWS[v]),
            required=True,
            label_visibility="collapsed",
            key="room_view_pick",
            on_change=keep_view,
        )
        st.button(
            t("Leave presenter mode"),
            key="room_presenter_off",
            icon=":material/close_fullscreen:",
            type="tertiary",
            on_click=lambda: assign(ss, "app_presenter", False),
        )
        # the challenge, the summary and the end of the class, a click away, not a scroll
        # under the projector's screen
        lecturer = seats.seat_of(ss)
        if lecturer is not None and lecturer.lecturer:
            with st.popover(t("Lecturer's controls"), icon=":material/tune:", key="room_menu"):
                lecturer_controls(lecturer, menu=True)


def keep_view() -> None:
    """The view outlives its widget (whose state Streamlit drops on another page)."""
    picked = ss.get("room_view_pick")
    if picked in VIEWS:
        ss[VIEW] = picked
    else:  # a forged or empty value: the switch shows the view on show
        ss["room_view_pick"] = ss.get(VIEW, "join")


def rules(c: cr.Challenge) -> str:
    values = {"id": c.id, "n": number(c.max_points), "gamma": number(c.min_gamma, 6)}
    if c.open:
        return tn(
            "Challenge {id} (open): at most **{n} point**, margin **γ ≥ {gamma}**; the most "
            "mistakes M in the given order wins.",
            "Challenge {id} (open): at most **{n} points**, margin **γ ≥ {gamma}**; the most "
            "mistakes M in the given order wins.",
            c.max_points,
        ).format(**values)
    return tn(
        "Challenge {id} (closed): at most **{n} point**, margin **γ ≥ {gamma}**; the most "
        "mistakes M in the given order wins.",
        "Challenge {id} (closed): at most **{n} points**, margin **γ ≥ {gamma}**; the most "
        "mistakes M in the given order wins.",
        c.max_points,
    ).format(**values)


def board_view(room: cr.Room, subs: list[en.Submission]) -> None:
    """The projector's board: the chart beside the challenge's rules and the best few, on
    one screen."""
    c = room.challenge
    chart, side = st.columns([3, 2], gap="medium")
    with side:
        st.subheader(t("The margin challenge"), anchor=False)
        if c is None:
            st.markdown(
                t(
                    "No challenge yet: open one under this screen. Students then build a set "
                    "in the margin lab and submit it."
                )
            )
            return
        st.markdown(
            t("{rules} Class **{code}**.").format(rules=rules(c), code=cr.shown_code(room.code))
        )
    with chart:
        board(subs, key="room_chart")
    with side.container(key="room_best_few"):
        st.markdown(figures.best_markdown(subs) or t("No submissions yet."))
        if subs:
            st.caption(figures.challenge_text(subs))


def challenge_board(room: cr.Room, subs: list[en.Submission]) -> None:
    c = room.challenge
    st.subheader(t("The margin challenge"))
    if c is None:
        st.caption(
            t("Open a challenge below: students build a set in the margin lab and submit it.")
        )
        return
    st.markdown(rules(c))
    chart, best = st.columns([1, 1])
    with chart:
        board(subs, key="room_chart")
    chart.caption(figures.challenge_text(subs))
    rows = [{t(name): value for name, value in r.items()} for r in figures.best_rows(subs)]
    best.dataframe(rows, hide_index=True, key="room_best")
    with best:
        open_picker(subs)


def open_picker(subs: list[en.Submission]) -> None:
    """Open a submission on Step by step, in one click."""
    if not subs:
        return
    pick = st.selectbox(
        t("Open a submission on Step by step"),
        range(len(subs)),
        format_func=lambda i: t("#{rank} {nick}: M = {M}").format(
            rank=i + 1, nick=subs[i].nick or t("(no name)"), M=subs[i].M
        ),
        key="room_pick",
    )
    if st.button(t("Open it"), key="room_open", icon=":material/play_circle:"):
        err = open_submission(ss, subs[pick], pick + 1)
        if err:
            st.error(err)
        else:
            # the page is left from a whole run, not from this timed fragment (its
            # timer can fire while the next page draws)
            ss[TO_LECTURE] = True
            st.rerun(scope="app")


def lecturer_controls(seat: seats.Seat, *, menu: bool = False) -> None:
    """Open or close a challenge, the summary, and closing the class (``menu``: one under
    the other, in the projector's menu; else side by side under the page). Each action runs in
    its button's callback, before the run that draws the page: one run, which shows the
    room as the action left it. A run that acts and then calls ``st.rerun`` for a second
    one, with the projector's timed fragment running between them, left these controls
    off the page (with the timer at 0.3 s: within 16 clicks; callbacks: once in 560)."""
    room = seats.room_now(ss)
    if room is None:
        return
    c = room.challenge
    cols = [st.container() for _ in range(3)] if menu else st.columns(3)
    with cols[0].container(border=True):
        if c is None or not c.open:
            st.markdown(t("**Open a margin challenge**"))
            st.number_input(
                t("at most this many points"), *cr.CHALLENGE_POINTS, 10, key="room_ch_n"
            )
            st.number_input(
                t("margin γ at least"), *cr.CHALLENGE_GAMMA, 0.1, step=0.05, key="room_ch_gamma"
            )
            st.caption(
                t(
                    "The proof caps the mistakes at (R/γ)²: a thin margin and points far from "
                    "the origin allow the most. A good entry packs points just outside the "
                    "margin, on both sides, far out, in an order that keeps w swinging."
                )
            )
            st.button(
                t("Open the challenge"),
                key="room_ch_open",
                type="primary",
                on_click=open_challenge,
            )
        else:
            st.button(
                t("Close the challenge"),
                key="room_ch_close",
                on_click=act,
                args=(lambda: arrive.lecturer_do(ss, cr.close_challenge),),
            )
    with cols[1].container(border=True):
        st.markdown(t("**Summary** (answers and challenge results, no names)"))
        st.download_button(
            t("Download the summary (CSV)"),
            lambda: links.call(summary, room),
            f"class-{room.code}.csv",
            "text/csv",
            key="room_csv",
            on_click="ignore",
        )
    with cols[2].container(border=True):
        st.markdown(t("**Close the class**"))
        sure = st.checkbox(t("Yes, end it for every student"), key="room_sure")
        st.button(  # the run after it shows the class's recap
            t("Close the class"),
            key="room_close",
            disabled=not sure,
            on_click=act,
            args=(lambda: arrive.close_class(ss),),
        )
    said = ss.pop(SAID, None)
    if said:
        st.error(said, icon=":material/error:")
    # folded, in the projector's menu too: it opens on the projector only when asked
    with st.expander(t("Lecturer link (private: reopens this class on another device)")):
        st.caption(t("Anyone with this link can run the class. Do not show it on the projector."))
        st.code(f"{strip.public_url()}/room?room={seat.code}&key={seat.secret}", language=None)
    with st.expander(t("The remote, on your phone (private: it runs the projector's lecture)")):
        st.caption(
            t(
                "Open this link on your phone: large buttons for Step, Back, Next mistake, "
                "Play, Ask the class, Vote again and Reveal, with the step and how many "
                "answered. Step by step stays open on the projector. Do not show the link on "
                "the projector."
            )
        )
        st.code(strip.remote_url(seat.code, seat.secret or ""), language=None)


def act(action: Callable[[], str | None]) -> None:
    """A lecturer's action, from its button's callback; a refusal is kept for the page to
    say under the controls."""
    err = action()
    if err:
        ss[SAID] = err


def open_challenge() -> None:
    """Open a challenge with the numbers in the two inputs (their values as the button was
    pressed: callbacks run after the widgets' values are set)."""
    n, g = int(ss["room_ch_n"]), float(ss["room_ch_gamma"])
    act(lambda: arrive.lecturer_do(ss, lambda r: cr.open_challenge(r, max_points=n, min_gamma=g)))


if seat is None:
    if not recap_view(ss, strip.public_url()):  # a closed class's lecturer: its recap
        join_form()
elif not seat.lecturer:
    student_view(seat)
else:
    if ss["app_presenter"]:
        presenter_style()
    with st.container(key=PRESENTER_KEY if ss["app_presenter"] else None):
        if ss["app_presenter"]:
            with st.container(key="room_screen"):  # the projector's screen, the window's height
                view_bar()
                projector(True)
            picker()  # under the screen
        else:
            projector(False)
            lecturer_controls(seat)
        st.caption(
            t(
                "Ask the class about the next example from *Step by step*: its class strip "
                "has **Ask the class** and **Reveal**."
            )
        )
