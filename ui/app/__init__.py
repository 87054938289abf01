"""The app's session and URL: every setting and session key in one table, links that
carry data, and the dataset sidebar every page shares.

Owns ``state`` (``SETTINGS`` and ``SESSION_KEYS``: a key is declared here or it fails at
import), ``links`` (the URL and the data it carries through the store) and ``sidebar``.
Imports ``ui.look``, ``ui.server``, ``ui.compute``, the engine and the store; no class
mode and no lesson. A new setting, session key or URL parameter goes here.
"""
