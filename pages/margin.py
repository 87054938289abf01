"""Margin lab: drag the points and watch γ, R, the bound (R/γ)² and the mistakes M move."""

from typing import Any

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.app.sidebar import CUSTOM, current_dataset
from ui.app.state import MAX_EPOCHS, assign, bind, passes_within, session_key
from ui.classmode import challenge
from ui.classmode import classroom as cr
from ui.classmode import entries as en
from ui.lecture.restart import follow
from ui.look.numbers import count, number
from ui.look.plots import CHART
from ui.look.text import safe
from ui.margin import figures as mf
from ui.margin import lab
from ui.margin.canvas import canvas, svg_panel
from ui.margin.edits import MAX_POINTS
from ui.server import guard
from ui.shell import finish_run, require_router
from ui.words import N_, t

require_router()
ss = st.session_state
C_HELP = N_(
    "x becomes (x, c): the line stays, R and γ change. See “The bias as a feature c”. "
    "The Step by step page does not take this c: its bias feature is always 1."
)


def edit(event: str, payload: object = None) -> None:
    lab.on_surface(ss, event, payload)


def refuse(sentence: str) -> None:
    lab.refuse(ss, sentence)


def challenge_numbers(X: np.ndarray, y: np.ndarray, c: cr.Challenge) -> dict[str, Any] | str:
    """The set measured with the challenge's settings (the server's numbers, never the
    browser's), or why it does not meet the challenge."""
    if len(y) > c.max_points:
        return t("This challenge takes at most {most} points; you have {n}.").format(
            most=c.max_points, n=len(y)
        )
    an = lab.cached_analysis(X, y, bias=True, c=1.0, max_epochs=cr.CHALLENGE_EPOCHS)
    gamma, R, bound, M = lab.numbers(an)
    converged = an.trace.converged
    said: dict[str, Any] = {"gamma": gamma, "R": R, "bound": bound, "M": M, "converged": converged}
    passes = an.trace.n_epochs
    said["reason"], said["passes"] = an.reason, passes
    refusal = en.judge(
        c, n=len(y), gamma=gamma, converged=converged, reason=an.reason, M=M, passes=passes
    )
    return refusal or said


def submit(cid: int) -> None:
    found = challenge.open_challenge(ss)
    present = ss[lab.HISTORY].present
    if found is None or found[1].id != cid:
        ss[CHALLENGE_SAID] = t("That challenge is no longer open.")
        return
    said = challenge_numbers(present.X, present.y, found[1])
    if isinstance(said, str):
        ss[CHALLENGE_SAID] = said
        return
    ss[CHALLENGE_SAID] = challenge.submit_set(ss, present.X, present.y, cid=cid, **said)[1]


CHALLENGE_SAID = session_key("mar_challenge_said")
CHALLENGE_NEW = session_key("mar_challenge_new")


def start_small() -> None:
    """Seed 001's four points, a set the challenge takes, to build on."""
    ss.pop(CUSTOM, None)
    assign(ss, "data_name", "four_points")
    assign(ss, "data_n", 4)
    ss[CHALLENGE_NEW] = True


def challenge_box(X: np.ndarray, y: np.ndarray) -> None:
    """The lecturer's open challenge, for a student in a class: this set, and Submit."""
    if ss.pop(CHALLENGE_NEW, False):
        st.rerun(scope="app")  # new data: the sidebar and the lab start from them
    found = challenge.told_in_page(ss)
    if found is None:
        return
    _, c = found
    box = st.container(border=True, key="mar_challenge")
    box.markdown(
        t(
            ":material/emoji_events: **Challenge {id}:** at most {most} points, γ ≥ "
            "{gamma}; make as many mistakes as you can (given order, w = 0, bias c = 1; "
            "the run may take up to {passes} passes)."
        ).format(
            id=c.id,
            most=c.max_points,
            gamma=f"{c.min_gamma:g}",
            passes=number(passes_within(c.max_points)),
        )
    )
    said = challenge_numbers(X, y, c)
    if isinstance(said, str):
        box.caption(said)
        if len(y) > c.max_points:
            box.button(
                t("Start from Cornell CS6780's four points"),
                key="mar_challenge_small",
                on_click=start_small,
                icon=":material/restart_alt:",
            )
    else:
        box.caption(
            t("This set: M = {M}, γ = {gamma}, (R/γ)² = {bound}.").format(
                M=said["M"], gamma=number(said["gamma"]), bound=number(said["bound"])
            )
        )
    box.button(
        t("Submit this set"),
        key="mar_submit",
        on_click=submit,
        args=(c.id,),
        disabled=isinstance(said, str),
        icon=":material/send:",
        type="primary",
    )
    if ss.get(CHALLENGE_SAID):
        box.caption(ss[CHALLENGE_SAID])


# an expander whose contents run only while it is open
def lazy(label: str, key: str) -> DeltaGenerator | None:
    e = st.expander(label, key=key, on_change="rerun")
    return e if e.open else None


st.title(t("Margin lab"))
if not ss["app_presenter"]:  # on a projector the line under the tools says it: room for the picture
    st.caption(lab.explain("In one line"))
X, y, name = current_dataset()
if len(y) > MAX_POINTS:
    st.warning(
        t(
            "The margin lab draws and edits at most {most} points; {name} has {n}. "
            "Pick a smaller dataset in the sidebar."
        ).format(most=MAX_POINTS, name=safe(name), n=len(y))
    )
    st.stop()
ss[lab.SIDEBAR] = lab.sidebar_says(ss, lab.sync(ss, X, y, name, custom=CUSTOM in ss))
follow(ss, X, y)  # the drawn points are the lecture's data: new points, a new run from w0


@guard.fragment
def lab_core() -> None:
    """What an edit changes. A drop reruns only this, unless the sidebar must change too."""
    history = ss[lab.HISTORY]
    if lab.sidebar_says(ss, history) != ss[lab.SIDEBAR]:
        st.rerun(scope="app")  # the sidebar shows the shared dataset's name and size
    X, y = history.present.X, history.present.y
    bias, const = ss["mar_bias"], float(ss["mar_c"]) if ss["mar_bias"] else 1.0
    settings = (bias, const, int(ss["mar_max_epochs"]))
    an = lab.cached_analysis(X, y, bias=bias, c=const, max_epochs=settings[2])
    error, note = ss.pop(lab.NOTICE, (None, None))
    nums = lab.numbers(an)
    prev = lab.before_last_edit(ss, settings, history.version, nums)
    left, right = st.columns([2, 1])
    with left:
        with st.container(horizontal=True, gap="small"):  # one row, also on a phone
            st.button(
                t("Undo"),
                key="mar_undo",
                on_click=edit,
                args=("undo",),
                disabled=not history.can_undo,
                icon=":material/undo:",
            )
            st.button(
                t("Redo"),
                key="mar_redo",
                on_click=edit,
                args=("redo",),
                disabled=not history.can_redo,
                icon=":material/redo:",
            )
            st.button(
                t("Reset"),
                key="mar_reset",
                on_click=edit,
                args=("reset", ss[lab.PRESET][0]),
                help=t("back to the dataset you started from (undo brings your edits back)"),
            )
        box = ss[lab.BOX] = lab.steady_box(X, ss.get(lab.BOX))
        scene = mf.canvas_scene(
            an,
            box,
            version=history.version,
            tick=ss.get(lab.TICK, 0),
            mode=ss["mar_mode"],
            readouts=lab.readouts(nums, prev, cut=an.cut),
            note=note,
            error=error,
        )
        canvas(scene, key="mar_canvas", on_edit=edit, on_refuse=refuse, fit=ss["app_presenter"])
    with right:
        if an.mm is None or an.orders is None:
            st.error(
                t("**Not separable.** {reason}").format(reason=an.reason), icon=":material/block:"
            )
            st.markdown(
                t(
                    "The perceptron made **{mistakes}** in {passes} and never finished a pass "
                    "without one (limit: {limit})."
                ).format(
                    mistakes=count(an.M, "mistake"),
                    passes=count(an.trace.n_epochs, "pass"),
                    limit=count(lab.run_passes(len(y), False, settings[2]), "pass"),
                )
            )
        else:
            st.markdown(lab.bound_sentence(an))
        if np.unique(y).size == 1:
            st.info(
                t(
                    "All points have the same label: pick “add +1” or “add −1” and add one of "
                    "the other label."
                )
            )
        challenge_box(X, y)
        s = st.columns([1, 1], vertical_alignment="bottom")
        s[0].toggle(t("bias (x ← (x, c))"), **bind(ss, "mar_bias"))
        s[1].number_input(
            t("max passes (not separable)"),
            1,
            MAX_EPOCHS,
            **bind(ss, "mar_max_epochs"),
            help=lab.passes_help(),
        )
        if ss["mar_bias"]:
            st.slider(t("bias feature c"), 0.1, 10.0, step=0.1, **bind(ss, "mar_c"), help=t(C_HELP))
        entries = lab.log_edit(ss, settings, history.version, an)
        svg_panel(mf.edits_svg(entries, history.version, nums[1]), key="mar_edits_chart")

    if e := lazy(t("How to use"), "mar_open_help"):
        e.markdown(lab.explain("How to use"))
    with st.expander(t("What you see"), key="mar_open_see"):
        st.markdown(lab.explain("What you see"))
        if band := lab.band_sentence(an):
            st.markdown(band)
    if e := lazy(t("Margins of each point (table)"), "mar_open_margins"):
        e.markdown(lab.explain("Margins of each point"))
        e.dataframe(mf.margins_frame(an), hide_index=True, key="mar_margins")
    if e := lazy(t("Edit the points as a table (keyboard)"), "mar_open_table"):
        tkey = lab.table_key(ss, history.version)  # fresh after every version and event
        e.data_editor(
            mf.points_frame(X, y),
            key=tkey,
            num_rows="dynamic",
            column_config=lab.POINTS_COLUMNS,
            on_change=lab.table_event,
            args=(ss, tkey),
        )
    if e := lazy(t("The bias as a feature c"), "mar_open_bias"):
        e.markdown(lab.explain("The bias as a feature c"))
        if an.mm is None or not bias:
            e.info(t("Turn bias on, with separable data, to see the bound move with c."))
        else:
            line = lab.in_plane(an.mm.w_star, True, const)
            cs = tuple(sorted({*np.geomspace(0.1, 10.0, 25).round(4).tolist(), const}))
            rows = lab.cached_sweep(X, y, line, cs, settings[2])
            e.plotly_chart(mf.constant_figure(rows, const), config=CHART, key="mar_c_chart")
    if e := lazy(t("Scaling the data"), "mar_open_scale"):
        e.markdown(lab.explain("Scaling the data"))
        unit = (1.0 / nums[1],) if nums[1] > 0 else ()  # the scale that makes R = 1
        scaled = lab.cached_scaling(an.Z, y, (*unit, 0.1, 1.0, 10.0), settings[2])
        e.dataframe(mf.scaling_frame(scaled), hide_index=True, key="mar_scaling")
    finish_run()  # the edited points (data=<id>), the mode and the settings belong in the link


lab_core()
