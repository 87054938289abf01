"""The app shell: page config, session state from the URL, the router and the shared sidebar."""

from __future__ import annotations

import gc

import pandas  # noqa: F401  (heavy imports first, then freeze: see below)
import plotly.graph_objects  # noqa: F401
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

import perceptron_core

from . import state
from .sidebar import dataset_sidebar

# Streamlit runs gc.collect(2) after every script run. Moving everything alive
# after the imports (modules, numba's compiled kernel) into the permanent
# generation, once per process, keeps those collections from walking it all.
perceptron_core.train([[1.0, 0.0]], [1], max_epochs=1)  # compile or load the kernel
gc.collect()
gc.freeze()


OWN_DATA = ("", "experts", "spam")  # url paths of pages that do not use the shared dataset


def run_app() -> None:
    """What ``app.py`` does on every run."""
    st.set_page_config(page_title="Perceptron Lab", page_icon="➕", layout="wide")
    state.init(st.session_state, st.query_params)
    page = st.navigation(
        [
            st.Page(
                "pages/home.py", title="What is a perceptron?", icon=":material/home:", default=True
            ),
            st.Page(
                "pages/lecture.py",
                title="Step by step",
                icon=":material/play_circle:",
                url_path="lecture",
            ),
            st.Page(
                "pages/xor.py",
                title="Beyond linear: XOR",
                icon=":material/blur_on:",
                url_path="xor",
            ),
            st.Page(
                "pages/sgd.py",
                title="The perceptron as SGD",
                icon=":material/trending_down:",
                url_path="sgd",
            ),
            st.Page(
                "pages/experts.py",
                title="Application: following experts",
                icon=":material/groups:",
                url_path="experts",
            ),
            st.Page(
                "pages/spam.py",
                title="Example: a spam filter",
                icon=":material/mail:",
                url_path="spam",
            ),
            st.Page(
                "pages/variants.py",
                title="Which perceptron to deploy?",
                icon=":material/compare:",
                url_path="variants",
            ),
            st.Page(
                "pages/proof.py",
                title="The proof, line by line",
                icon=":material/functions:",
                url_path="proof",
            ),
            st.Page(
                "pages/margin.py",
                title="Margin lab",
                icon=":material/open_with:",
                url_path="margin",
            ),
        ]
    )
    st.sidebar.toggle(
        "Presenter mode",
        help="hide the settings and enlarge the fonts for a projector",
        **state.bind(st.session_state, "app_presenter"),
    )
    dataset_sidebar(used_here=page.url_path not in OWN_DATA)
    for notice in st.session_state.pop(state.NOTICES, []):  # shown once, on arrival
        st.warning(notice, icon="⚠️")
    page.run()
    state.sync_query(st.session_state, st.query_params)


def require_router() -> None:
    """Call first in every page: make sure it runs inside ``run_app``.

    From the mere presence of a ``pages/`` folder Streamlit starts in its old
    multipage mode and runs a page file on its own until the first
    ``st.navigation`` call, so a first visitor arriving at ``/lecture`` (and every
    ``AppTest`` run) would get the page without the router, the session state or
    the sidebar. Then run the shell here, which runs this page inside it, and stop.
    """
    if PagesManager.uses_pages_directory:
        run_app()  # its st.navigation switches the old mode off for the whole server
        st.stop()
