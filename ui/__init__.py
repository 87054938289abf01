"""Perceptron Lab's UI layer: one package per lesson and one shared kit.

- ``ui.kit``: what every page shares (shell and page table, session state and
  URL settings, sidebar, palette, plots, text and assets, shared runs, the
  components, caches, guards). It imports no lesson.
- ``ui.<lesson>`` (``lecture``, ``xor``, ``margin``, ``proof``, ``sgd``,
  ``variants``, ``experts``, ``spam``, named by the page's URL): ``figures.py``
  pure builders (numbers in, Plotly figure dicts out), ``runs.py`` cached engine
  calls, and what else the lesson needs. A lesson imports ``ui.kit`` and the
  engine, never another lesson.
"""
