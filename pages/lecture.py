"""Lecture: step through the online perceptron with the proof's quantities live."""

import streamlit as st

from perceptron_core import RULES
from ui import lecture, runs
from ui.figures import LectureView, lecture_figure
from ui.shell import require_router
from ui.sidebar import current_dataset
from ui.state import ORDERS, W0_MODES, bind

require_router()
ss = st.session_state


def restart() -> None:
    ss["lec_t"] = 0  # new settings, new run: start from w0


presenter = ss.get("app_presenter", False)
st.title("The perceptron, step by step")

X, y, data_name = current_dataset()
with st.expander("Run settings", expanded=False) if not presenter else st.container():
    if not presenter:
        c = st.columns(4)
        c[0].toggle("bias (x ← (x, 1))", **bind(ss, "lec_bias", then=restart))
        c[0].toggle(
            "normalize x to length 1",
            **bind(ss, "lec_normalize", then=restart),
            help="Seed 000 assumes ‖x‖ = 1; with bias the vectors seen are (x, 1).",
        )
        c[1].number_input(
            "learning rate η", 0.001, 1000.0, **bind(ss, "lec_eta", then=restart), format="%g"
        )
        c[1].number_input("max epochs", 1, 500, **bind(ss, "lec_max_epochs", then=restart))
        c[2].selectbox("start w0", W0_MODES, **bind(ss, "lec_w0", then=restart))
        if ss["lec_w0"] == "typed":
            c[2].text_input("w0 = (w1, w2[, b])", **bind(ss, "lec_w0_typed", then=restart))
        c[2].selectbox(
            "order",
            ORDERS,
            **bind(ss, "lec_order", then=restart),
            format_func=lambda o: {
                "given": "given order",
                "shuffle": "reshuffle each epoch (seed)",
            }[o],
        )
        c[3].selectbox(
            "mistake rule",
            list(RULES),
            **bind(ss, "lec_rule", then=restart),
            format_func=lambda r: RULES[r].text,
        )
        c[3].caption(f"Source: {RULES[ss['lec_rule']].source}")

w0, w0_problem = lecture.start_weights(ss, X.shape[1] + ss["lec_bias"])
if w0_problem:
    st.warning(w0_problem)
run = runs.lecture_run(
    X,
    y,
    bias=ss["lec_bias"],
    eta=float(ss["lec_eta"]),
    w0=w0,
    seed=int(ss["data_seed"]) if ss["lec_order"] == "shuffle" else None,
    rule=ss["lec_rule"],
    normalize=ss["lec_normalize"],
    max_epochs=int(ss["lec_max_epochs"]),
)
trace = run.trace
T = trace.n_steps
t = min(int(ss["lec_t"]), T)

b = st.columns(5)
if b[0].button("Step ▶", key="lec_step", shortcut="Right", help="show one example (→)"):
    t = min(t + 1, T)
if b[1].button("Next mistake", key="lec_next", shortcut="N", help="(n)"):
    t = lecture.next_mistake(trace, t)
if b[2].button("Finish epoch", key="lec_epoch", shortcut="E", help="(e)"):
    t = lecture.end_of_epoch(trace, t)
if b[3].button("Run to the end", key="lec_run", shortcut="End", help="(End)"):
    t = T
if b[4].button("Reset", key="lec_reset", shortcut="Home", help="back to w0 (Home)"):
    t = 0
ss["lec_t"] = t

k = trace.mistakes_before(t)
epoch = min(t // trace.n_examples + 1, trace.n_epochs)
status = f"**{data_name}** · epoch **{epoch}** · step **t = {t}** of {T} · mistakes **k = {k}**"
if run.mm is not None:
    status += (
        f" · γ = {run.mm.gamma:.3g}, R = {run.mm.radius:.3g}, bound (R/γ)² = **{run.mm.bound:.3g}**"
    )
else:
    status += " · **not separable**: no w*, no bound"
if t == T:
    status += (
        " · ✅ converged" if trace.converged else f" · ⛔ stopped after {trace.n_epochs} epochs"
    )
st.markdown(status)

fig = lecture_figure(
    LectureView(run.X, y, trace, t, run.mm, run.curves, run.reason),
    height=820 if presenter else 700,
    font_size=18 if presenter else 13,
)
st.plotly_chart(fig, key="lec_chart", config={"displaylogo": False})
if run.reason:
    st.warning(run.reason)

if t > 0:
    predict, update = lecture.step_math(run, t)
    st.latex(predict)
    if update:
        st.latex(update)
else:
    st.markdown("Press **Step ▶** (or →) to show the first example to the perceptron.")

with st.expander(f"Mistake log ({k} so far)"):
    log = lecture.mistake_log(run, k)
    st.dataframe(log, hide_index=True)
    st.download_button(
        "Download the log (CSV)",
        log.to_csv(index=False),
        "mistakes.csv",
        "text/csv",
        key="lec_log_download",
        on_click="ignore",
    )
