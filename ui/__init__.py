"""Perceptron Lab's UI layer: session state, figure builders and shared widgets.

Figure builders (``figures``, ``geometry``) are pure: numbers in, Plotly
figures out, testable without a Streamlit session.
"""
