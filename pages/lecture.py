"""Lecture: step through the online perceptron with the proof's quantities live."""

import numpy as np
import streamlit as st

from perceptron_core import RULES
from ui.kit import guard
from ui.kit.cache import heavy_slot
from ui.kit.model import Run, RunSettings
from ui.kit.plots import CHART, as_figure
from ui.kit.runs import lecture_run
from ui.kit.shell import require_router
from ui.kit.sidebar import current_dataset
from ui.kit.state import ORDERS, W0_MODES, bind, session_key, sync_query
from ui.kit.text import vector
from ui.lecture import steps as lecture
from ui.lecture.player import player, window
from ui.lecture.restart import follow, go_to
from ui.lecture.runs import lecture_chart

require_router()
ss = st.session_state
presenter = ss.get("app_presenter", False)
st.title("The perceptron, step by step")

X, y, data_name = current_dataset()
with st.expander("Run settings", expanded=False) if not presenter else st.container():
    if not presenter:
        c = st.columns(4)
        c[0].toggle("bias (x ← (x, 1))", **bind(ss, "lec_bias"))
        c[0].toggle(
            "normalize x to length 1",
            **bind(ss, "lec_normalize"),
            help="Seed 000 assumes ‖x‖ = 1; with bias the vectors seen are (x, 1).",
        )
        c[1].number_input("learning rate η", 0.001, 1000.0, **bind(ss, "lec_eta"), format="%g")
        c[1].number_input("max epochs", 1, 500, **bind(ss, "lec_max_epochs"))
        c[2].selectbox("start w0", W0_MODES, **bind(ss, "lec_w0"))
        if ss["lec_w0"] == "typed":
            c[2].text_input("w0 = (w1, w2[, b])", **bind(ss, "lec_w0_typed"))
        c[2].selectbox(
            "order",
            ORDERS,
            **bind(ss, "lec_order"),
            format_func=lambda o: {
                "given": "given order",
                "shuffle": "reshuffle each epoch (seed)",
            }[o],
        )
        c[3].selectbox(
            "mistake rule",
            list(RULES),
            **bind(ss, "lec_rule"),
            format_func=lambda r: RULES[r].text,
        )
        c[3].caption(f"Source: {RULES[ss['lec_rule']].source}")

follow(ss, X, y)  # new data or settings, here or on another page: a new run, from w0
settings, notes = lecture.run_settings(ss, X)
for kind, note in notes:
    (st.warning if kind == "warning" else st.info)(note)


def heavy_csv(run: Run, k: int) -> bytes:
    """The whole log as CSV, in the heavy-work slot: Streamlit builds it again for every
    request of the file, and a request can be sent without a click."""
    with heavy_slot():
        return lecture.mistake_log_csv(run, k)


WINDOW_KEY = session_key("lec_window")  # (start, stop) of the chart on the page


@guard.fragment
def stepper(X: np.ndarray, y: np.ndarray, settings: RunSettings, data_name: str) -> None:
    """Controls, status and the math: a click reruns only this, not the chart.

    Inside the chart's window a Step only moves the chart to frame t in the
    browser (the player); a step outside it redraws the page, chart included.
    The run comes from the cache on every click: a fragment's arguments live as
    long as the session, and a run at the largest settings is 10 MB.
    """
    run = lecture_run(X, y, settings)
    trace = run.trace
    T = trace.n_steps
    t = min(int(ss["lec_t"]), T)
    b = st.columns(5)
    moves = (
        ("Step ▶", "lec_step", "Right", "show one example (→)", lambda t: min(t + 1, T)),
        ("Next mistake", "lec_next", "N", "(n)", lambda t: lecture.next_mistake(trace, t)),
        ("Finish epoch", "lec_epoch", "E", "(e)", lambda t: lecture.end_of_epoch(trace, t)),
        ("Run to the end", "lec_run", "End", "(End)", lambda t: T),
        ("Reset", "lec_reset", "Home", "back to w0 (r or Home)", lambda t: 0),
    )
    for col, (label, key, shortcut, tip, move) in zip(b, moves, strict=True):
        if col.button(label, key=key, shortcut=shortcut, help=tip, width="stretch"):
            t = move(t)
    go_to(ss, t)
    if window(t, T) != ss[WINDOW_KEY]:
        st.rerun(scope="app")  # the chart on the page does not hold step t: redraw it

    k = trace.mistakes_before(t)
    st.markdown(lecture.status_line(run, t, data_name))
    player(ss, chart="lec_chart", reset="lec_reset", t=t, n_steps=T)
    if t > 0:
        for line in lecture.step_math(run, t):
            st.latex(line)
    else:
        st.markdown("Press **Step ▶** (or →) to show the first example to the perceptron.")
        st.latex(r"w = w_0 = " + vector(run.trace.weights[0]))
    # on_change="rerun" makes the expander lazy: the log is built only while it is open
    log = st.expander(f"Mistake log ({k} so far)", key="lec_log", on_change="rerun")
    if log.open:
        with log:
            if k == 0:
                st.caption("No mistakes yet: w has not changed.")
            else:
                first = lecture.log_window(k)  # a long log: only its last rows go to the page
                if first > 1:
                    st.caption(
                        f"The last {k - first + 1:,} of the {k:,} mistakes so far "
                        f"(from k = {first:,}); the CSV holds them all."
                    )
                st.dataframe(lecture.mistake_log(run, k, first_k=first), hide_index=True)
                st.download_button(
                    f"Download the log (CSV, {k:,} mistakes)",
                    lambda: heavy_csv(run, k),  # built on click only
                    "mistakes.csv",
                    "text/csv",
                    key="lec_log_download",
                    on_click="ignore",
                )
    sync_query(ss, st.query_params)


run = lecture_run(X, y, settings)
T = run.trace.n_steps
if int(ss["lec_t"]) > T:
    st.info(f"This run ends after {T} steps, so step {ss['lec_t']} shows its end.")
    go_to(ss, T)
ss[WINDOW_KEY] = start, stop = window(int(ss["lec_t"]), T)
stepper(X, y, settings, data_name)
spec = lecture_chart(X, y, settings, start, stop, ss["app_presenter"])
with st.container(key="lec_chart"):
    st.plotly_chart(as_figure(spec), config=CHART, key="lec_plot")
st.caption(
    "**Play** replays the run in your browser (space plays and pauses); "
    "the slider scrubs. Step and the math continue from where you pause."
)
if run.reason:
    st.warning(run.reason)
