"""The join view: the QR code of the join link (or why phones cannot join), the address, the
class code in big letters and how many joined. The class page shows it on the projector;
Step by step opens it in a dialog over the lecture, which Escape closes.
"""

from __future__ import annotations

import streamlit as st

from ui.app import links
from ui.classmode import address, presence
from ui.classmode import classroom as cr
from ui.live import light
from ui.look.numbers import number
from ui.look.style import page_style
from ui.look.text import safe
from ui.room.qr import qr_svg
from ui.words import t, tn

style = page_style(
    "room_join",
    """
.st-key-room_code p { font-size: clamp(2rem, 5vw, 5rem); font-weight: 800; white-space: nowrap;
  letter-spacing: 0.06em; line-height: 1.1; margin: 0; font-variant-numeric: tabular-nums; }
.st-key-room_count p { font-size: 1.6rem; }
""",
)


def join_view(room: cr.Room, *, presenter: bool) -> None:
    """The QR code of the join link (or why phones cannot join), the address, the code in
    big letters and how many joined. Once a run."""
    style()
    where = address.current()
    url = f"{where.url}{light.PAGE_PATH}?room={room.code}"  # the light page (ui.lecture.light)
    left, right = st.columns([1, 1] if presenter else [2, 3], vertical_alignment="center")
    with left.container(key="room_qr"):
        if where.reachable:
            st.image(
                qr_svg(url, t("join link")),
                caption=t("Scan to join"),
                width="stretch" if presenter else 340,
                alt=t("QR code of the join link, {url}").format(url=url),
            )
        else:  # a QR code of an address phones cannot open would send the class nowhere
            st.warning(where.problem, icon=":material/wifi_off:")
    with right:
        st.header(t("Join this class"), anchor=False)
        st.container(key="room_address").markdown(
            t("Scan the code, or open **{address}** and type").format(
                address=safe(url.split("?")[0])
            )
            if where.reachable
            else t("The class code:")
        )
        st.container(key="room_code").markdown(cr.shown_code(room.code))
        count = links.call(cr.members, room)
        joined = (
            tn(
                "**{n}** student has joined · this class is closed",
                "**{n}** students have joined · this class is closed",
                count,
            )
            if room.closed
            else tn("**{n}** student has joined", "**{n}** students have joined", count)
        )
        st.container(key="room_count").markdown(joined.format(n=number(count)))
        crowded = one_network(links.call(presence.networks, room))
        if crowded:
            st.caption(f":material/lan: {crowded}")


CROWDED = 10  # seats from one network address, and three times the next: the lecturer is told


def one_network(counts: list[int]) -> str:
    """What the join view says when unusually many seats come from one network address
    (``counts``: the seats from each, the most first), else "". A room whose phones all
    share one router is usual (one address); one address far ahead of the others may be a
    device taking seats with a script (each browser holds at most 3)."""
    if len(counts) < 2 or counts[0] < CROWDED or counts[0] < 3 * counts[1]:
        return ""
    return t(
        "{n} of {total} seats come from one network address: a router many phones share, or "
        "one device taking seats."
    ).format(n=number(counts[0]), total=number(sum(counts)))


def join_dialog(room: cr.Room) -> None:
    """The join view over the page on show: Escape, a click beside it or its × closes it,
    and the lecture under it has not moved. Its title is in this run's language: the
    dialog is made where it opens."""
    st.dialog(t("How to join"), width="large")(_join_dialog)(room)


def _join_dialog(room: cr.Room) -> None:
    join_view(room, presenter=False)
    st.caption(t("Escape closes this; the strip above the lecture keeps the join address."))
