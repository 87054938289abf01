"""Home: what the perceptron is, and the theorem this lab is about."""

import streamlit as st

from perceptron_core import make_dataset, max_margin, train
from ui.kit.shell import require_router
from ui.kit.text import asset

require_router()
st.title("Perceptron Lab")
st.markdown(asset("home"))

st.subheader("Where to go")
st.page_link(
    "pages/lecture.py",
    label="Step by step: watch every update and the two claims of the proof",
    icon=":material/play_circle:",
)
st.page_link(
    "pages/proof.py",
    label="The proof, line by line: every inequality with this run's numbers, and an adversary",
    icon=":material/functions:",
)
st.page_link(
    "pages/xor.py",
    label="Beyond linear: why XOR never converges, and the feature map that fixes it",
    icon=":material/blur_on:",
)
st.page_link(
    "pages/sgd.py",
    label="The perceptron as SGD: the error E_p over the plane of w, losses, η and mini-batches",
    icon=":material/trending_down:",
)
st.page_link(
    "pages/experts.py",
    label="Application: learn whom to follow among n analysts, with at most n·k mistakes",
    icon=":material/groups:",
)
st.page_link(
    "pages/spam.py",
    label="Example: a spam filter on word counts; type an e-mail and see w·x and the verdict",
    icon=":material/mail:",
)
st.page_link(
    "pages/variants.py",
    label="Which perceptron to deploy? Last, voted and averaged on noisy 2-D data and digits",
    icon=":material/compare:",
)
st.page_link(
    "pages/margin.py",
    label="Margin lab: drag points and watch γ, R, the bound and the mistakes move",
    icon=":material/open_with:",
)

st.subheader("Worked example: the 4 points of Cornell CS6780")
X, y = make_dataset("four_points")
trace = train(X, y, bias=False)
mm = max_margin(X, y, bias=False)
st.markdown(
    "Points (1, 2)+, (2, 1)+, (−1, −1)−, (−1, 1)−, no bias, from **w = 0**, in the given order."
)
cols = st.columns(4)
cols[0].metric("mistakes M", trace.n_mistakes)
cols[1].metric("final w", f"({trace.w[0]:g}, {trace.w[1]:g})")
cols[2].metric("margin γ", f"{mm.gamma:.3f}")
cols[3].metric("bound (R/γ)²", f"{mm.bound:.2f}")
