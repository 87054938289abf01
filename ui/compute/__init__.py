"""Computing: the lecture's run as the pages share it, from the engine, cached.

Owns the run settings (``model``) and the cached engine calls every page shares
(``runs``; a lesson's own cached calls are in its ``ui/<lesson>/runs.py``). Imports
the engine (``perceptron_core``) and ``ui.server.cache``: no page state, no widgets.
"""
