"""Perceptron Lab: the server and the router. Run with `python3 scripts/run.py`
(`streamlit run app.py` inside the project's .venv).

This one file is two things. Imported by the server (``streamlit run app.py`` finds the
``st.App`` below and serves it), it is the server: Streamlit's pages plus the app's own
routes, middleware (the door, ``ui.server.door``) and lifespan, from ``ui.shell.asgi``.
Run by Streamlit as the page script (as ``__main__``, on every rerun), it is the router
and the shared sidebar.
"""

import streamlit as st

from ui.server import blas  # noqa: F401  (one BLAS thread per process, see ui/server/blas.py)

if __name__ == "__main__":
    # The tab's title before the imports below (about a second on a server's first run,
    # which Streamlit starts by naming the tab after this file, "app").
    # ui.shell sets the whole page config again on every run.
    st.set_page_config(page_title="Perceptron Lab")

    from ui.shell import run_app

    run_app()
else:
    from ui.shell import asgi

    app = st.App(
        __file__, routes=asgi.routes(), middleware=asgi.middleware(), lifespan=asgi.lifespan
    )
