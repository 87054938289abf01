"""Perceptron Lab: the router. Run with `streamlit run app.py`."""

import streamlit as st

st.set_page_config(page_title="Perceptron Lab", page_icon="➕", layout="wide")

pages = [
    st.Page("pages/home.py", title="What is a perceptron?", icon="🏠", default=True),
]
st.navigation(pages).run()
