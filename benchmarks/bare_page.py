"""The reference page of ``benchmarks/browser.py``: one button, one 500-point Plotly chart.

Streamlit as it comes, with nothing of the app: each click reruns this script
and redraws the chart, titled "t = <clicks>" so the benchmark sees it change.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

X = np.random.default_rng(0).normal(size=(500, 2))
t = st.session_state.setdefault("t", 0)
if st.button("Step", key="step"):
    st.session_state.t = t = t + 1
fig = go.Figure(
    go.Scatter(x=X[:, 0], y=X[:, 1], mode="markers"),
    layout={"title": {"text": f"t = {t}"}, "height": 700},
)
st.plotly_chart(fig, key="chart")
