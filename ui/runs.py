"""Cached engine calls for the pages (``st.cache_data``: every session gets its own copy)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from perceptron_core import make_dataset

from .model import Run, record_run


@st.cache_data(max_entries=512, show_spinner=False)
def dataset(name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]) -> tuple:
    """A registry dataset, by value (X (n, 2), y (n,))."""
    return make_dataset(name, n=n, seed=seed, **dict(params))


@st.cache_data(max_entries=256, show_spinner=False)
def lecture_run(
    X: np.ndarray,
    y: np.ndarray,
    *,
    bias: bool,
    eta: float,
    w0: tuple[float, ...] | None,
    seed: int | None,
    rule: str,
    normalize: bool,
    max_epochs: int,
) -> Run:
    """``model.record_run``, cached by value."""
    return record_run(
        X,
        y,
        bias=bias,
        eta=eta,
        w0=w0,
        seed=seed,
        rule=rule,
        normalize=normalize,
        max_epochs=max_epochs,
    )
