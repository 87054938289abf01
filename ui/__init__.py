"""Perceptron Lab's UI layer: one package per concern, one package per lesson.

Layered: a package imports only those above it in this list (``tests/ui/test_layout.py``).

- ``ui.look``: colours, page style, number formats, Plotly defaults, safe text.
- ``ui.server``: the server's protections and every Streamlit internal.
- ``ui.compute``: the run settings and the cached engine calls pages share.
- ``ui.app``: the session and URL (``SETTINGS``, ``SESSION_KEYS``), links, the sidebar.
- ``ui.classmode``: a lecturer and a room of students.
- ``ui.shell``: the page table and what every run of every page does.
- ``ui.<lesson>`` (``lecture``, ``xor``, ``margin``, ``proof``, ``sgd``, ``variants``,
  ``experts``, ``spam``, ``room``, ``home``, named by the page's URL): ``figures.py``
  pure builders (numbers in, Plotly figure dicts out), ``runs.py`` cached engine
  calls, and what else the lesson needs. A lesson may use everything above, never
  another lesson.

The engine (``perceptron_core``) and the store (``perceptron_store``) import no Streamlit.
"""

# The app's version, as a file it exports signs it (pyproject.toml's; a test keeps them equal).
VERSION = "0.1.0"
