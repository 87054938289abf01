"""Cached engine calls and figures for the pages (``st.cache_data``: by value, per caller copy).

Students on the default settings share one cache entry; nothing cached is
mutable shared state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from perceptron_core import make_dataset

from .figures import lecture_figure
from .model import Run, RunSettings, record_run


@st.cache_data(max_entries=512, show_spinner=False)
def dataset(name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]) -> tuple:
    """A registry dataset, by value (X (n, 2), y (n,))."""
    return make_dataset(name, n=n, seed=seed, **dict(params))


@st.cache_data(max_entries=256, show_spinner=False)
def lecture_run(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Run:
    """``model.record_run``, cached."""
    return record_run(X, y, settings)


@st.cache_data(max_entries=256, show_spinner=False)
def lecture_chart(
    X: np.ndarray, y: np.ndarray, settings: RunSettings, start: int, stop: int, presenter: bool
) -> dict[str, Any]:
    """The lecture figure at step ``start`` with one frame per step up to ``stop``."""
    run = lecture_run(X, y, settings)
    return lecture_figure(
        run,
        start,
        replay=range(start, stop + 1),
        height=820 if presenter else 700,
        font_size=18 if presenter else 13,
    )
