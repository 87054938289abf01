"""The app shell: the page table, and what every run of every page does (page config,
session state from the URL, the router, the shared sidebar, the class strip).

The top of the shared packages: imports ``ui.look``, ``ui.server``, ``ui.compute``,
``ui.app`` and ``ui.classmode``, never a lesson. A new page is a row of ``PAGES``.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas  # noqa: F401  (heavy imports first, then freeze: see below)
import plotly.graph_objects  # noqa: F401
import streamlit as st

import perceptron_core
from ui import words
from ui.app import links, state
from ui.app.sidebar import close_over_page, dataset_sidebar, take_upload, upload_refusal
from ui.classmode import arrive, follow
from ui.classmode import classroom as cr
from ui.classmode import seat as seats
from ui.classmode import strip as class_strip
from ui.look.style import page_style, still_when_asked
from ui.look.text import asset
from ui.server import clients, fair, guard, internals, loops, reconnect
from ui.shell import embed, presenter
from ui.words import LANGUAGES, N_, t

# Streamlit runs gc.collect(2) after every script run. Moving everything alive
# after the imports (modules, numba's compiled kernel) into the permanent
# generation, once per process, keeps those collections from walking it all.
perceptron_core.train([[1.0, 0.0]], [1], max_epochs=1)  # compile or load the kernel
gc.collect()
gc.freeze()

# Streamlit's internals that the app uses: one line in the terminal for each that this
# Streamlit lacks (the protection or feature that is then off), at the process's first run.
internals.report()

# A fragment's own container (ui.server.guard.fragment) takes no room while the fragment
# draws nothing: Streamlit leaves an empty container out of its column, but not one that
# holds only an empty one, which would leave a gap in the column.
fragments_in_place = page_style(
    "app_fragments",
    f"""{internals.testid("stLayoutWrapper")}:has(> [class*="st-key-{guard.ALONE}"]:empty) {{
  display: none;
}}""",
)

# A tab holds one open file (its websocket), not four: the sessions share one script loop
# (see ui.server.loops), so a server under a limit of 1,024 files holds 700 tabs.
loops.share()


@dataclass(frozen=True)
class PageSpec:
    """One page of the app: its file, its name in the navigation, whether it works on
    the sidebar's shared dataset (else the sidebar says the page has its own data), and
    the sentence that links to it from the home page.

    A new page is one row of ``PAGES``, a file ``pages/<url_path>.py`` and a lesson
    package ``ui/<url_path>/`` (see CONTRIBUTING.md)."""

    path: str
    title: str
    icon: str
    url_path: str  # "" for the home page
    shared_data: bool
    blurb: str = ""  # the home page's link to this page ("" for the home page itself)
    own_presenter: bool = False  # draws its own projector layout (else ui.shell.presenter)


PAGES = (
    PageSpec("pages/home.py", N_("What is a perceptron?"), ":material/home:", "", False),
    PageSpec(
        "pages/lecture.py",
        N_("Step by step"),
        ":material/play_circle:",
        "lecture",
        True,
        N_("Step by step: watch every update and the two claims of the proof"),
        own_presenter=True,
    ),
    PageSpec(
        "pages/proof.py",
        N_("The proof, line by line"),
        ":material/functions:",
        "proof",
        True,
        N_("The proof, line by line: every inequality with this run's numbers, and an adversary"),
    ),
    PageSpec(
        "pages/xor.py",
        N_("Beyond linear: XOR"),
        ":material/blur_on:",
        "xor",
        True,
        N_("Beyond linear: why XOR never converges, and the feature map that fixes it"),
    ),
    PageSpec(
        "pages/sgd.py",
        N_("The perceptron as SGD"),
        ":material/trending_down:",
        "sgd",
        True,
        N_("The perceptron as SGD: the error E_p over the plane of w, losses, η and mini-batches"),
    ),
    PageSpec(
        "pages/experts.py",
        N_("Application: following experts"),
        ":material/groups:",
        "experts",
        False,
        N_("Application: learn whom to follow among n analysts, with at most n·k mistakes"),
    ),
    PageSpec(
        "pages/spam.py",
        N_("Example: a spam filter"),
        ":material/mail:",
        "spam",
        False,
        N_("Example: a spam filter on word counts; type an e-mail and see w·x and the verdict"),
    ),
    PageSpec(
        "pages/variants.py",
        N_("Which perceptron to deploy?"),
        ":material/compare:",
        "variants",
        True,
        N_("Which perceptron to deploy? Last, voted and averaged on noisy 2-D data and digits"),
    ),
    PageSpec(
        "pages/margin.py",
        N_("Margin lab"),
        ":material/open_with:",
        "margin",
        True,
        N_("Margin lab: drag points and watch γ, R, the bound and the mistakes move"),
    ),
    PageSpec(
        "pages/room.py",
        N_("Class"),
        ":material/school:",
        "room",
        False,
        N_("Class: join your lecturer's class, predict the next step, and the margin challenge"),
        own_presenter=True,
    ),
)


GLOSSARY = N_("Symbols and notation")  # the expander under every page (assets/glossary.md)

_ROUTED = threading.local()  # depth of run_app in this script thread
# No flash of file names. A ``pages/`` folder beside app.py starts every server in
# Streamlit's old multipage mode: a run that starts before the app's first ``st.navigation``
# goes through ``_mpa_v1``, which sends a navigation of the raw file names ("app",
# "experts", ...). .streamlit/config.toml has ``client.showSidebarNavigation = false``, so
# that navigation is sent hidden; the app's own is shown from its first ``st.navigation``
# (which ends the old mode for every later run) on: the option is switched just before.
ADMITTED = state.session_key("_admitted")


# What a lesson asks every page's run to do first (by name: a page registers it on each of
# its runs), e.g. take the step its browser posted outside the runs (ui.live.reports), so
# that every page's URL and links have it.
_BEFORE_PAGE: dict[str, Callable[[Any], None]] = {}


def before_page(name: str, do: Callable[[Any], None]) -> None:
    """Have every page's run call ``do(st.session_state)`` before the page runs."""
    _BEFORE_PAGE[name] = do


def run_app() -> None:
    """What ``app.py`` does on every run."""
    _ROUTED.depth = getattr(_ROUTED, "depth", 0) + 1
    try:
        if not st.session_state.get(ADMITTED):  # the session's first run: the door's mark
            said = clients.admit(clients.current(), clients.handshake())
            if said is not None:
                st.set_page_config(page_title="Perceptron Lab", layout="wide")
                st.error(said, icon=":material/hourglass_top:")
                st.stop()
            st.session_state[ADMITTED] = True
        # the door reads this connection's frames against this session's widgets (a
        # reconnection is a new connection: every whole-page run names it)
        clients.name_stream(clients.handshake(), internals.session_id())
        with fair.turn(), guard.whole_page():  # a busy session waits its turn
            _run_app()
    finally:
        _ROUTED.depth -= 1


def _run_app() -> None:
    st.set_page_config(page_title="Perceptron Lab", page_icon="➕", layout="wide")
    guard.new_run(st.session_state)  # a new browser message: its first event is read
    first = NOW not in st.session_state  # the session's first run
    state.init(st.session_state, st.query_params)
    speak(st.session_state, first=first)  # this run's language, before any word is drawn
    for do in list(_BEFORE_PAGE.values()):
        do(st.session_state)
    # a course page's frame (?embed=1): the page alone, never a class (ui.shell.embed)
    embedded = bool(st.session_state[state.EMBED])
    if embedded:
        st.set_page_config(initial_sidebar_state="collapsed")
    links.arrive(st.session_state, st.query_params)  # a link's data=<id>: its points
    take_upload(st.session_state)  # a file just uploaded: read in this run's turn
    # a class's room=, seat=, key=, or the lecturer's cookie
    if not embedded:
        joining = arrive.arrive(st.session_state, st.query_params, lambda: st.context.cookies)
        if joining:  # a join link: the class page's code box holds its code
            st.session_state["room_join_code"] = cr.shown_code(joining)
    arrive.join_asked(st.session_state)  # the join form's button: the class from this run
    follow.before_run(st.session_state)  # a followed lecturer's change, before the widgets
    if not st.get_option("client.showSidebarNavigation"):  # the first navigation: above
        st.set_option("client.showSidebarNavigation", True)
    page = st.navigation(_pages(st.session_state))
    follow.arrive_on(st.session_state, page.url_path)  # a follower: the lecturer's lecture
    spec = next(p for p in PAGES if p.url_path == page.url_path)
    st.sidebar.toggle(
        t("Presenter mode"),
        help=t("hide the settings and enlarge the fonts for a projector"),
        **state.bind(st.session_state, "app_presenter"),
    )
    st.sidebar.toggle(
        t("Projector theme"),
        help=t(
            "in presenter mode: thicker lines, larger marks and stronger tints, for a "
            "washed-out projector seen from the back row"
        ),
        **state.bind(st.session_state, "app_projector"),
    )
    class_strip.sidebar_box(st.session_state)
    # a follower's Step by step shows the lecturer's data: its controls fold away there
    on_lecture = spec.url_path == follow.LECTURE_PAGE and follow.following(st.session_state)
    dataset_sidebar(used_here=spec.shared_data, following=on_lecture)
    language_switch(st.sidebar)  # last: the page's own settings come first
    arrive.to_class_page(st.session_state)  # a class just started: its page
    for notice in st.session_state.pop(state.NOTICES, []):  # shown once, on arrival
        st.warning(notice, icon=":material/warning:")
    upload_refusal(spec.url_path)  # a refused upload, said above the page's data
    close_over_page(spec.url_path)  # a phone's sidebar, once its link opened this page
    reconnect.watch()  # a tab that reconnects to a new session runs the whole page again
    still_when_asked()  # prefers-reduced-motion: no fade of a rerun, no spinning icon
    fragments_in_place()  # a fragment that draws nothing leaves no gap
    presenter.reset()  # a page's controls in place, unless presenter.show() makes a menu
    if embedded:
        embed.show()  # no sidebar or header; a link to the page in the full app
    elif st.session_state["app_presenter"] and not spec.own_presenter:
        presenter.show()  # no sidebar or header, larger type; the way out at the top
    else:
        arrive.keep_seat(st.session_state)  # a reload keeps the class: the seat in a cookie
    # the class strip, above the page, drawn after it (the lecture page lends it its hooks
    # as it runs); only in a session in a class (one that joins now has it from its next run)
    in_class = not embedded and seats.seat_of(st.session_state) is not None
    strip = st.container() if in_class else None
    class_strip.lend(st.session_state, None)
    guard.page(page.run)  # an exception shows a sentence, never a traceback
    seat = seats.seat_of(st.session_state)
    if strip is not None and seat is not None:
        with strip:
            (lecturer_strip if seat.lecturer else student_strip)(page.url_path)
    st.divider()  # one glossary under every page: the app's symbols and the handouts'
    # on_change="rerun" makes it lazy: its table is sent and drawn only while it is open
    # (a closed expander's markdown cost every page load about 70 ms of the browser's time)
    glossary = st.expander(
        t(GLOSSARY), icon=":material/menu_book:", key="app_glossary", on_change="rerun"
    )
    if glossary.open:
        with glossary:
            st.markdown(asset("glossary"))  # our own text, read once per process
    finish_run()


def finish_run() -> None:
    """The end of a run that may have changed the data: keep custom data in the store and
    write the settings and ``data=<id>`` to the URL (the app's run, and a page's fragment)."""
    links.keep(st.session_state, toast=_toast)
    follow.end_of_run(st.session_state)  # follow or publish the lecture
    state.sync_query(st.session_state, st.query_params)


@guard.fragment(run_every=class_strip.POLL_S)
def lecturer_strip(page: str) -> None:
    """The class on the lecturer's page (ui.classmode.strip.live): the answers, every second."""
    class_strip.live(st.session_state, page)


@guard.fragment(run_every=class_strip.HEARTBEAT_S)
def student_strip(page: str) -> None:
    """The class on a student's page (ui.classmode.strip.live): rerun by its browser when
    the room changes (ui.classmode.live), and now and then by itself."""
    class_strip.live(st.session_state, page)


def _toast(text: str) -> None:
    st.toast(text, icon=":material/link:")


_PAGE_OBJECTS = state.session_key("_pages")


def _pages(session: Any) -> list[Any]:
    """This session's ``st.Page`` objects, made once per session and language (about 1 ms
    a run), not shared: ``st.navigation`` marks the page it runs on its object."""
    code = words.language()
    made = session.get(_PAGE_OBJECTS)
    if made is None or made[0] != code:
        made = session[_PAGE_OBJECTS] = (
            code,
            [
                st.Page(
                    p.path,
                    title=t(p.title),
                    icon=p.icon,
                    url_path=p.url_path or None,
                    default=i == 0,
                )
                for i, p in enumerate(PAGES)
            ],
        )
    return list(made[1])


NOW = state.session_key("_lang")
# a run's language is its session's; outside a run (a route, the live channel) English
words.read_language_with(
    lambda: (st.session_state.get(NOW) if internals.session_id() else None) or words.ENGLISH
)


def speak(session: Any, *, first: bool) -> None:
    """This run's language (``ui.words.choose``): the ``lang`` setting, else the browser's;
    a browser's language not on offer is said once, as the session arrives."""
    code, notice = words.choose(session["lang"], st.context.locale)
    session[NOW] = code
    if first and notice:
        session.setdefault(state.NOTICES, []).append(notice)


def language_switch(where: Any) -> None:
    """The sidebar's Language: the browser's (the default), or one on offer."""
    options = ["", *LANGUAGES]
    browser = words.from_locale(st.context.locale) or words.ENGLISH

    def name(code: str) -> str:
        if not code:
            return t("The browser's ({language})").format(language=LANGUAGES[browser])
        return LANGUAGES[code]

    if st.session_state["lang"] not in options:  # the pseudo-locale: a test's, not a choice
        return
    where.selectbox(
        t("Language"),
        options,
        format_func=name,
        help=t("The app's words in this language; links you copy carry it."),
        **state.bind(st.session_state, "lang"),
    )


def require_router() -> None:
    """Call first in every page: make sure it runs inside ``run_app``.

    From the mere presence of a ``pages/`` folder Streamlit starts in its old
    multipage mode and runs a page file on its own until the first
    ``st.navigation`` call, so a first visitor arriving at ``/lecture`` (and every
    ``AppTest`` run) would get the page without the router, the session state or
    the sidebar. Then run the shell here, which runs this page inside it, and stop.
    Whether the page runs inside ``run_app`` is asked of this script thread, not of
    Streamlit's server-wide switch: a first visitor's run that starts in the old
    mode while another session's ``st.navigation`` turns it off would otherwise get
    the page without the router (a KeyError).

    It also tells ``ui.server.guard`` which globals are the page's, so that what the page
    computed is not kept alive by its callbacks after the run (``guard.release``).
    """
    if not getattr(_ROUTED, "depth", 0):
        run_app()  # its st.navigation switches the old mode off for the whole server
        st.stop()
    caller = sys._getframe(1)  # the page's module: its results are dropped after the run
    guard.this_page(caller.f_globals, caller.f_code)
