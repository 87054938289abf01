"""A page whose fragment has an element after it, for ``test_fragment_sibling.py``: a
page run that sleeps before drawing them (``?slow=<s>``), so that a click on the
fragment's button lands while the page runs and its rerun is queued behind the page's."""

from __future__ import annotations

import time

import streamlit as st

from ui.server import guard

st.button("Run the page", key="page_button")
time.sleep(float(st.query_params.get("slow", "0")))


@guard.fragment
def counter() -> None:
    st.button("Run the fragment", key="fragment_button")
    st.markdown(f"The fragment at {time.monotonic():.6f}")


with st.container(key="box"):
    counter()
    st.markdown("The element after the fragment")
