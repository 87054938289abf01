"""Class mode: a lecturer and a room of students.

Owns the room in the store (``classroom``, with its ``answers``, a challenge's
``entries`` and the ``codes`` of rooms and seats; no Streamlit), a session's seat in it and
what the page says of it, the class strip, following the lecturer, the lecturer's
question and the challenge, and the room's state on the live channel (``live``, over
``ui.live``) that tells students' pages of a change.
Imports ``ui.look``, ``ui.server``, ``ui.app``, ``ui.live``, the engine and the store; never a
lesson (a lesson lends it hooks instead). A new class feature goes here.
"""
