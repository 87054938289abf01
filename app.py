"""Perceptron Lab: the router and the shared sidebar. Run with `streamlit run app.py`."""

from ui.kit import blas  # noqa: F401  (first: one BLAS thread per process, see ui/kit/blas.py)
from ui.kit.shell import run_app

run_app()
