"""Class mode: a lecturer and a room of students.

Owns the room in the store (``classroom``, no Streamlit), a session's seat in it and
what the page says of it, the class strip, following the lecturer, the lecturer's
question and the challenge, and the push that tells students' sessions of a change.
Imports ``ui.look``, ``ui.server``, ``ui.app``, the engine and the store; never a
lesson (a lesson lends it hooks instead). A new class feature goes here.
"""
