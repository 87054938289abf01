"""Home: what the perceptron is, and the theorem this lab is about."""

import streamlit as st

from perceptron_core import make_dataset, max_margin, train
from ui.kit.shell import PAGES, require_router
from ui.kit.text import asset

require_router()
st.title("Perceptron Lab")
st.markdown(asset("home"))

st.subheader("Where to go")
for spec in PAGES:  # the shell's page table: a new page is linked here by its row
    if spec.url_path:
        st.page_link(spec.path, label=spec.blurb, icon=spec.icon)

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
