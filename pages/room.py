"""Class: join a class, or the lecturer's projector view of one."""

import streamlit as st

from ui.app import links
from ui.app.state import session_key
from ui.classmode import address, arrive, challenge, strip
from ui.classmode import classroom as cr
from ui.classmode import seat as seats
from ui.classmode.summary import summary
from ui.look.plots import CHART
from ui.look.style import page_style
from ui.look.text import asset, safe
from ui.room import figures
from ui.room.qr import qr_svg
from ui.room.views import open_submission
from ui.server import guard
from ui.server.internals import testid
from ui.shell import require_router

require_router()
ss = st.session_state
TO_LECTURE = session_key("room_to_lecture")
if ss.pop(TO_LECTURE, False):
    st.switch_page("pages/lecture.py")  # a submission opened on the board
seat = seats.seat_of(ss)
style = page_style(
    "room_page",
    """
.st-key-room_code p { font-size: clamp(2rem, 5vw, 5rem); font-weight: 800; white-space: nowrap;
  letter-spacing: 0.06em; line-height: 1.1; margin: 0; font-variant-numeric: tabular-nums; }
.st-key-room_count p { font-size: 1.6rem; }
.st-key-room_board MARKDOWN p { font-size: 1.15rem; }
""".replace("MARKDOWN", testid("stMarkdownContainer")),
)
style()


def join_form() -> None:
    st.title("Join a class")
    with st.form("room_join", enter_to_submit=True, border=True):
        code = st.text_input("Class code (on the projector)", key="room_join_code", max_chars=20)
        nick = st.text_input(
            "Nickname (optional, at most 20 characters; shown to the class)",
            key="room_join_nick",
            max_chars=cr.MAX_NICK,
        )
        if st.form_submit_button(
            "Join", type="primary", icon=":material/login:", key="room_join_go"
        ):
            err = arrive.join(ss, code, nick)
            if err:
                st.error(err, icon=":material/error:")
            else:
                st.rerun()
    st.markdown(asset("room"))


def student_view(seat: seats.Seat) -> None:
    st.title(f"Class {cr.shown_code(seat.code)}")
    st.write(f"You joined as {safe(seat.nick) or 'a student (no nickname)'}.")
    st.page_link(
        "pages/lecture.py", label="Follow the lecturer step by step", icon=":material/sync:"
    )
    found = challenge.open_challenge(ss)
    if found is not None:
        _, c = found
        st.info(
            f"**The lecturer's challenge:** with at most {c.max_points} points and a margin "
            f"γ ≥ {c.min_gamma:g}, make the perceptron make as many mistakes as you can "
            "(in the given order, from w = 0). Build your set in the margin lab and submit it "
            "there.",
            icon=":material/emoji_events:",
        )
        st.page_link("pages/margin.py", label="Open the margin lab", icon=":material/open_with:")
        if c.id in seat.submitted:
            st.caption(seat.submitted[c.id])
    if st.button("Leave the class", key="room_leave", icon=":material/logout:"):
        arrive.leave(ss)
        st.rerun()


@guard.fragment(run_every=2.0)
def projector(seat: seats.Seat) -> None:
    """The projector's view: join QR code, code, count; the challenge (live)."""
    room = seats.room_now(ss)
    if room is None:
        st.warning("This class cannot be read right now (it ended, or the store is down).")
        return
    where = address.current()
    url = f"{where.url}/room?room={room.code}"
    left, right = st.columns([2, 3], vertical_alignment="center")
    if where.reachable:
        left.image(qr_svg(url), caption="Scan to join", width=340)
    else:  # a QR code of an address phones cannot open would send the class nowhere
        left.warning(where.problem, icon=":material/wifi_off:")
    with right:
        st.header("Join this class", anchor=False)
        if where.reachable:
            st.markdown(f"Scan the code, or open **{safe(url.split('?')[0])}** and type")
        else:
            st.markdown("The class code:")
        st.container(key="room_code").markdown(cr.shown_code(room.code))
        count = links.call(cr.members, room)
        st.container(key="room_count").markdown(
            f"**{count}** {'student has' if count == 1 else 'students have'} joined"
            + (" · this class is closed" if room.closed else "")
        )
    with st.container(key="room_board"):
        challenge_board(room)


def challenge_board(room: cr.Room) -> None:
    c = room.challenge
    st.subheader("The margin challenge")
    if c is None:
        st.caption("Open a challenge below: students build a set in the margin lab and submit it.")
        return
    state = "open" if c.open else "closed"
    st.markdown(
        f"Challenge {c.id} ({state}): at most **{c.max_points} points**, margin **γ ≥ "
        f"{c.min_gamma:g}**; the most mistakes M in the given order wins."
    )
    subs = links.call(cr.submissions, room, c.id)
    chart, best = st.columns([1, 1])
    chart.plotly_chart(
        figures.challenge_figure(subs), config={**CHART, "displayModeBar": False}, key="room_chart"
    )
    chart.caption(figures.challenge_text(subs))
    best.dataframe(figures.best_rows(subs), hide_index=True, key="room_best")
    if subs:
        pick = best.selectbox(
            "Open a submission on Step by step",
            range(len(subs)),
            format_func=lambda i: f"#{i + 1} {subs[i].nick or '(no name)'}: M = {subs[i].M}",
            key="room_pick",
        )
        if best.button("Open it", key="room_open", icon=":material/play_circle:"):
            err = open_submission(ss, subs[pick], pick + 1)
            if err:
                best.error(err)
            else:
                # the page is left from a whole run, not from this timed fragment (its
                # timer can fire while the next page draws)
                ss[TO_LECTURE] = True
                st.rerun(scope="app")


def lecturer_controls(seat: seats.Seat) -> None:
    room = seats.room_now(ss)
    if room is None:
        return
    c = room.challenge
    cols = st.columns(3)
    with cols[0].container(border=True):
        if c is None or not c.open:
            st.markdown("**Open a margin challenge**")
            n = st.number_input(
                "at most this many points", *cr.CHALLENGE_POINTS, 10, key="room_ch_n"
            )
            g = st.number_input(
                "margin γ at least", *cr.CHALLENGE_GAMMA, 0.1, step=0.05, key="room_ch_gamma"
            )
            if st.button("Open the challenge", key="room_ch_open", type="primary"):
                say(
                    arrive.lecturer_do(
                        ss, lambda r: cr.open_challenge(r, max_points=int(n), min_gamma=float(g))
                    )
                )
        elif st.button("Close the challenge", key="room_ch_close"):
            say(arrive.lecturer_do(ss, cr.close_challenge))
    with cols[1].container(border=True):
        st.markdown("**Summary** (answers and challenge results, no names)")
        st.download_button(
            "Download the summary (CSV)",
            lambda: links.call(summary, room),
            f"class-{room.code}.csv",
            "text/csv",
            key="room_csv",
            on_click="ignore",
        )
    with cols[2].container(border=True):
        st.markdown("**Close the class**")
        sure = st.checkbox("Yes, end it for every student", key="room_sure")
        if st.button("Close the class", key="room_close", disabled=not sure):
            say(arrive.lecturer_do(ss, cr.close_room))
    with st.expander("Lecturer link (private: reopens this class on another device)"):
        st.caption("Anyone with this link can run the class. Do not show it on the projector.")
        st.code(f"{strip.public_url()}/room?room={seat.code}&key={seat.secret}", language=None)


def say(err: str | None) -> None:
    """An action's refusal, or the page again with the room as the action left it (the
    controls drawn before it still offered what was just done)."""
    if err:
        st.error(err, icon=":material/error:")
    else:
        st.rerun()


if seat is None:
    join_form()
elif not seat.lecturer:
    student_view(seat)
else:
    projector(seat)
    lecturer_controls(seat)
    st.caption(
        "Ask the class about the next example from *Step by step*: its class strip has "
        "**Ask the class** and **Reveal**."
    )
