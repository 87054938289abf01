"""Perceptron Lab: the router and the shared sidebar. Run with `python3 scripts/run.py`
(`streamlit run app.py` inside the project's .venv)."""

import streamlit as st

# The tab's title before the imports below (about a second on a server's first run,
# which Streamlit starts by naming the tab after this file, "app").
# ui.shell sets the whole page config again on every run.
st.set_page_config(page_title="Perceptron Lab")

from ui.server import blas  # noqa: E402, F401  (one BLAS thread per process, see ui/server/blas.py)
from ui.shell import run_app  # noqa: E402

run_app()
