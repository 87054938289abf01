"""Perceptron Lab: the router and the shared sidebar. Run with `streamlit run app.py`."""

from ui.shell import run_app

run_app()
