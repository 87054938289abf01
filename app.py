"""Perceptron Lab: the router and the shared sidebar. Run with `streamlit run app.py`."""

from ui import blas  # noqa: F401  (first: one BLAS thread per process, see ui/blas.py)
from ui.shell import run_app

run_app()
