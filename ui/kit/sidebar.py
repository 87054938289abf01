"""The shared sidebar: the one current dataset every page works on.

A change of the dataset writes only the dataset: a lesson whose state belongs to
the data (the lecture's step) notices the change itself.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from perceptron_core import DATASETS, CSVError, load_csv, to_csv
from ui.kit import runs
from ui.kit.state import MAX_SEED, assign, bind, param_key, session_key
from ui.kit.text import safe, shorten

CUSTOM = session_key("data_custom")
UPLOAD_ERROR = session_key("data_upload_error")


def _regenerate() -> None:
    assign(st.session_state, "data_seed", (st.session_state["data_seed"] + 1) % (MAX_SEED + 1))


def _fit_n() -> None:
    ss = st.session_state
    spec = DATASETS[ss["data_name"]]
    n = spec.n_default if spec.fixed_size else int(np.clip(ss["data_n"], spec.n_min, spec.n_max))
    assign(ss, "data_n", n)


def _upload() -> None:
    upload = st.session_state.get("data_upload")
    if upload is None:
        return
    try:
        X, y = load_csv(upload)
    except CSVError as exc:
        st.session_state[UPLOAD_ERROR] = f"{safe(upload.name)}: {safe(exc, limit=300)}"
        return
    st.session_state.pop(UPLOAD_ERROR, None)
    st.session_state[CUSTOM] = (X, y, shorten(upload.name, 80))  # raw: each sink escapes


def _drop_custom() -> None:
    st.session_state.pop(CUSTOM, None)


def current_dataset() -> tuple[np.ndarray, np.ndarray, str]:
    """(X, y, a name for it): the uploaded set if any, else the generated one.

    The name may be a file's name: outside text, for ``kit.text.safe`` at every sink.
    """
    if CUSTOM in st.session_state:
        return st.session_state[CUSTOM]
    name = st.session_state["data_name"]
    spec = DATASETS[name]
    params = tuple((p.name, float(st.session_state[param_key(name, p.name)])) for p in spec.params)
    X, y = runs.dataset(
        name, int(st.session_state["data_n"]), int(st.session_state["data_seed"]), params
    )
    return X, y, f"{spec.title} (n = {len(y)}, seed {st.session_state['data_seed']})"


def dataset_sidebar(*, used_here: bool = True) -> None:
    """Dataset choice, size, seed, parameters, upload and download.

    ``used_here=False``: the page on show has data of its own, and says so here.
    """
    sb = st.sidebar
    ss = st.session_state
    sb.header("Dataset")
    if not used_here:
        sb.caption("This page has data of its own; this dataset is for the other pages.")
    custom = CUSTOM in st.session_state
    if custom:
        X, y, name = st.session_state[CUSTOM]
        sb.info(f"Using your data: {safe(name)} ({len(y)} points).")
        sb.button("Back to generated data", key="data_back", on_click=_drop_custom)
    else:
        sb.selectbox(
            "dataset",
            list(DATASETS),
            format_func=lambda k: DATASETS[k].title,
            **bind(ss, "data_name", then=_fit_n),
        )
        spec = DATASETS[st.session_state["data_name"]]
        sb.caption(f"{spec.description} *Source: {spec.source}.*")
        if not spec.fixed_size:
            sb.slider(
                "number of points n",
                spec.n_min,
                spec.n_max,
                step=1,
                **bind(ss, "data_n", then=_fit_n),
            )
            for p in spec.params:
                sb.slider(
                    p.label,
                    p.low,
                    p.high,
                    step=p.step,
                    help=p.help or None,
                    **bind(ss, param_key(spec.key, p.name), then=_fit_n),
                )
            c1, c2 = sb.columns([1, 1], vertical_alignment="bottom")
            c1.number_input("seed", 0, MAX_SEED, step=1, **bind(ss, "data_seed", then=_fit_n))
            c2.button(
                "Regenerate",
                key="data_regenerate",
                on_click=_regenerate,
                help="new random data: seed + 1",
            )
    X, y, name = current_dataset()
    sb.download_button(
        "Download CSV",
        lambda: to_csv(X, y),  # built on click, not on every run of every page
        file_name="perceptron-data.csv",
        mime="text/csv",
        key="data_download",
        on_click="ignore",
    )
    sb.file_uploader(
        "Upload CSV (columns x1, x2, y)", type=["csv", "txt"], key="data_upload", on_change=_upload
    )
    if UPLOAD_ERROR in st.session_state:
        sb.error(st.session_state[UPLOAD_ERROR], icon=":material/warning:")
