"""Lecture: step through the online perceptron with the proof's quantities live."""

import datetime
from collections.abc import Sequence

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from perceptron_core import RULES
from ui import VERSION
from ui.app.sidebar import CUSTOM, current_dataset
from ui.app.state import MAX_EPOCHS, ORDERS, SCALES, W0_MODES, bind
from ui.classmode import arrive, strip
from ui.classmode import follow as class_follow
from ui.classmode import live as class_live
from ui.classmode import seat as seats
from ui.classmode.classroom import Question
from ui.compute.model import SCALE_HELP, SCALE_NAMES, Run, RunSettings
from ui.compute.runs import lecture_run
from ui.lecture import bank, export, question
from ui.lecture import steps as lecture
from ui.lecture.player import (
    PRESENTER_KEY,
    carry,
    forget_scene,
    player,
    post_to,
    presenter_style,
    scene_window,
    sent_scene,
    step_now,
    take_report,
    window,
)
from ui.lecture.restart import RUN, follow, go_to
from ui.lecture.runs import scene
from ui.look.numbers import count, number
from ui.room.join import join_dialog
from ui.server import guard
from ui.server.cache import heavy_slot
from ui.shell import before_page, finish_run, require_router
from ui.words import language, t

require_router()
before_page("lecture_step", take_report)  # every page's URL has the step the page posted
ss = st.session_state
forget_scene(ss)  # this run's start may have dropped the scene the last run sent
presenter = bool(ss["app_presenter"])
# presenter mode gives the title's room to the chart, and so does a student following the
# lecturer (the class strip above says so): the chart is their first screen, on a phone too
if not presenter and not class_follow.following(ss):
    st.title(t("The perceptron, step by step"))

# a class one click from the lecture: the lecturer stays here, the join view opens over it
_seat = seats.seat_of(ss)
if _seat is None:  # in presenter mode too: a small button in the row the class strip takes
    st.button(
        t("Start a class"),
        key="room_start_here",
        icon=":material/co_present:",
        on_click=arrive.start_here,
        args=(ss,),
        type="tertiary" if presenter else "secondary",
        help=t(
            "Students join with a QR code or the class code on their phones; you stay on "
            "this page, and ask them about the next example from here."
        ),
    )
elif not presenter and _seat is not None and _seat.lecturer:
    st.button(
        t("How to join"),
        key="room_join_here",
        icon=":material/login:",
        on_click=arrive.show_join,
        args=(ss,),
        help=t("The QR code and the class code, over the lecture (Escape closes it)"),
    )
if arrive.take_show_join(ss) and (_room := seats.room_now(ss)) is not None:
    join_dialog(_room)

X, y, data_name = current_dataset()
# in presenter mode the player shows the settings, under its status line; a follower's are
# the lecturer's, said under the chart
if not presenter and not class_follow.following(ss):
    # the two settings a lecture changes most, in view
    c: Sequence[DeltaGenerator] = st.columns([1, 1, 2])
    c[0].toggle(t("bias (x ← (x, 1))"), **bind(ss, "lec_bias", resend=True))
    c[1].selectbox(
        t("scale x"),
        SCALES,
        **bind(ss, "lec_scale", resend=True),
        format_func=lambda s: t(SCALE_NAMES[s]),
        help=t(SCALE_HELP),
    )
    c[2].selectbox(
        t("mistake rule"),
        list(RULES),
        **bind(ss, "lec_rule", resend=True),
        format_func=lambda r: f"{t(RULES[r].text)} ({RULES[r].source})",
    )
    with st.expander(t("More run settings: η, epochs, w₀, order"), expanded=False, key="lec_more"):
        c = st.columns(4)
        c[0].number_input(
            t("learning rate η"), 0.001, 1000.0, **bind(ss, "lec_eta", resend=True), format="%g"
        )
        c[1].number_input(t("max epochs"), 1, MAX_EPOCHS, **bind(ss, "lec_max_epochs", resend=True))
        c[2].selectbox(
            t("start w0"),
            W0_MODES,
            **bind(ss, "lec_w0", resend=True),
            format_func=lambda m: t(lecture.W0_NAMES[m]),
        )
        if ss["lec_w0"] == "typed":
            c[2].text_input("w0 = (w1, w2[, b])", **bind(ss, "lec_w0_typed"))
        c[3].selectbox(
            t("order"),
            ORDERS,
            **bind(ss, "lec_order", resend=True),
            format_func=lambda o: t(lecture.ORDER_NAMES[o]),
        )

take_report(ss)  # the step the page posted since the last run (before new settings restart it)
follow(ss, X, y)  # new data or settings, here or on another page: a new run, from w0
if (followed := class_follow.take_step(ss)) is not None:
    go_to(ss, followed)  # a student following the lecturer: the lecturer's step
settings, notes = lecture.run_settings(ss, X)
for kind, note in notes:
    (st.warning if kind == "warning" else st.info)(note)


def heavy_csv(run: Run, k: int) -> bytes:
    """The whole log as CSV, in the heavy-work slot: Streamlit builds it again for every
    request of the file, and a request can be sent without a click."""
    with heavy_slot():
        return lecture.mistake_log_csv(run, k)


def page_url() -> str | None:
    """The page's address as the browser has it (no query), if this session knows it."""
    try:
        return st.context.url
    except Exception:  # a session without a browser (a bare script): no address
        return None


def heavy_html(run: Run, start: int, stop: int, data_name: str, meta: export.Meta) -> bytes:
    """The run as one offline HTML file, in the heavy-work slot: built on a click (or a
    request of the file), never on a page run."""
    with heavy_slot():
        return export.run_file(run, start=start, stop=stop, data_name=data_name, meta=meta)


def download_run(run: Run, settings: RunSettings, step: int) -> None:
    """The button "Download this run": the player, its scene and its facts in one HTML file
    that plays with no server; a run too long for a file gives the steps around ``step``."""
    T = run.trace.n_steps
    start, stop = export.file_range(step, T)
    _, _, data_name = current_dataset()
    summary = lecture.settings_summary(ss)
    now = step_now(ss, step)
    meta = export.Meta(
        name=data_name[:80],
        points=len(run.y),
        summary=summary,
        settings=t("{settings} · at most {epochs}").format(
            settings=lecture.settings_text(ss), epochs=count(settings.max_epochs, "epoch")
        ),
        version=VERSION,
        exported=datetime.date.today().isoformat(),
        link=export.live_link(page_url(), ss),
        t=min(max(step, start), stop),
        cut=export.cut_text(start, stop, T),
    )
    st.download_button(
        export.download_label(start, stop, T),
        # built on click only, at the step the page shows then (it may have posted it since)
        lambda: heavy_html(
            run, start, stop, data_name, export.at_step(meta, min(max(now(), start), stop))
        ),
        export.file_name(data_name if CUSTOM in ss else ss["data_name"], start, stop, T),
        "text/html",
        key="lec_run_download",
        on_click="ignore",
        help=t(
            "One HTML file with every step, the controls, keys, maths, chart and presenter "
            "mode: it plays from a USB stick or a course page, with no network."
        ),
    )


@guard.fragment
def instrument(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> None:
    """The player (controls, status, maths, chart: stepped in the browser) and the log.

    A report of the browser's step reruns only this, and sends only the step (the
    scene was sent from outside); a step outside the scene's window, or the
    presenter switch, redraws the page. The run comes from the cache on every
    rerun: a fragment's arguments live as long as the session.
    """
    if (followed := class_follow.follow_here(ss)) is not None:
        go_to(ss, followed)  # the lecturer stepped: this fragment moves, the page stays
    run = lecture_run(X, y, settings)
    T = run.trace.n_steps
    take_report(ss, T)  # the step the page posted since this fragment last ran
    if (along := class_follow.play_along(ss, T)) is not None:
        go_to(ss, along[0])  # the lecturer plays: where they are now; the browser plays on
    step = min(int(ss["lec_t"]), T)
    if (window_now := scene_window(ss, ss[RUN], step)) is None:
        st.rerun(scope="app")  # a new layout, or a step the scene on the page does not hold
    player(
        ss,
        t=step,
        n_steps=T,
        window_now=window_now,
        run_id=ss[RUN],
        presenter=bool(ss["app_presenter"]),
        asked=arrive.asked_here(ss),  # the projector and followers ring the class's question
        summary=lecture.settings_summary(ss) if ss["app_presenter"] else "",
        lead=class_follow.leading(ss),  # a lecturer's Play is followed: the browser says so
        # a follower plays along with the lecturer's Play; the lecturer's plays on its clock
        along=class_follow.lead_clock(ss) if along is None else along[1],
        follow=class_follow.live_follow(ss),  # a follower draws the lecturer's next step itself
        remote=class_follow.remote_seen(ss),  # the lecturer's remote presses this page's buttons
        # a student alone with the log closed posts the step: nothing here redraws with it
        post=None
        if class_follow.leading(ss) or class_follow.following(ss) or ss.get("lec_log")
        else post_to(),
    )
    if not ss["app_presenter"] and class_follow.following(ss):
        st.caption(lecture.settings_summary(ss))
    # a student following the lecturer: their instrument reruns at each of the lecturer's
    # steps, a hundred at once, and the file is the lecturer's run (Explore on my own
    # brings the button back)
    if not class_follow.following(ss):
        download_run(run, settings, step)
    k = run.trace.mistakes_before(step)
    # on_change="rerun" makes the expander lazy: the log is built only while it is open
    log = st.expander(t("Mistake log ({k} so far)").format(k=k), key="lec_log", on_change="rerun")
    if log.open:
        with log:
            if k == 0:
                st.caption(t("No mistakes yet: w has not changed."))
            else:
                first = lecture.log_window(k)  # a long log: only its last rows go to the page
                if first > 1:
                    st.caption(
                        t(
                            "The last {shown} of the {k} mistakes so far (from k = {first}); "
                            "the CSV holds them all."
                        ).format(shown=number(k - first + 1), k=number(k), first=number(first))
                    )
                st.dataframe(lecture.shown_log(run, k, first_k=first), hide_index=True)
                st.download_button(
                    t("Download the log (CSV, {mistakes})").format(mistakes=count(k, "mistake")),
                    lambda: heavy_csv(run, k),  # built on click only
                    "mistakes.csv",
                    "text/csv",
                    key="lec_log_download",
                    on_click="ignore",
                )
    finish_run()  # the step in the URL, and to the class that follows the lecturer


run = lecture_run(X, y, settings)
T = run.trace.n_steps
if (playing := class_follow.play_along(ss, T)) is not None:
    go_to(ss, playing[0])  # a follower's window holds the step the lecturer's Play is at
if int(ss["lec_t"]) > T:
    st.info(
        t("This run ends after {T} steps, so step {t} shows its end.").format(T=T, t=ss["lec_t"])
    )
    go_to(ss, T)
start, stop = window(int(ss["lec_t"]), T)
carry(scene(X, y, settings, start, stop, data_name, ss[RUN], language()))
sent_scene(ss, ss[RUN], start, stop)  # only once sent: a run stopped before sends none
if presenter:
    presenter_style()
with st.container(
    key=PRESENTER_KEY if presenter else "lec_instrument"
):  # the player's script keys on it
    instrument(X, y, settings)
    # a joined student: the lecturer's question, under the chart (a fragment of its own): a
    # card drawn above it would push the chart a screen down on the phone of a student
    # watching it (its answers are pinned to the screen's bottom, ui.classmode.onscreen)
    strip.lecture_card(ss)
if run.reason:
    st.warning(run.reason)
seat = seats.seat_of(ss)


def asked() -> Question | str:
    """The question the lecturer picked: the next example at this step, or one of the bank's,
    whose state the lecture takes as it is asked (the followers take it too)."""
    picked = ss.get("room_bank_pick", bank.NEXT)
    if picked == bank.NEXT:
        return question.at_step(lecture_run(X, y, settings), int(ss["lec_t"]))
    made = question.from_bank(picked)
    if not isinstance(made, str):
        class_follow.apply_lecture(ss, bank.BANK[picked].query)
    return made


def pick() -> None:
    """The list Ask the class asks from (in the class strip, beside Ask)."""
    st.selectbox(
        t("The question Ask the class asks"),
        [bank.NEXT, *bank.BANK],
        format_func=lambda k: t(bank.NEXT_TITLE) if k == bank.NEXT else bank.BANK[k].label,
        key="room_bank_pick",
        width=640,  # the popover takes its width: each question's title whole
        help=t(
            "The bank's questions set the lecture to their data, settings and step as they "
            "are asked; the engine computes their answers."
        ),
    )


if seat is not None and seat.lecturer:  # the class strip asks the question picked there
    # the player does the lecturer's remote's presses, heard on the class channel: mounted
    # with the page, outside the strip's fragment (which runs every second)
    class_live.listen(ss, seat, topic=class_live.HEAR_ONLY, shown="")
    strip.lend(
        ss,
        strip.LectureHooks(
            question=asked,
            step_to=lambda step: go_to(ss, step),
            pick=pick,
            posted=lambda: take_report(ss, T),
        ),
    )
