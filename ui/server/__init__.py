"""The server's protections, and every use of Streamlit's private API.

Owns what keeps one server fair and alive under a class and a mischievous student:
``door`` (ASGI middleware before Streamlit: the browser's cookie, new tabs, the session
cap, frames, idle streams), ``clients`` (who asks, and how much each may), ``code`` (the
app's components' code as files of its own route), ``internals`` (Streamlit's private
API, checked at start: the only module that imports its private modules or names a DOM
test id), ``guard`` (every browser event bounded
in size and work, one error sentence instead of a traceback), ``fair`` (a busy
session waits its turn), ``cache`` (results by value within a byte budget, one heavy
computation at a time), ``memory`` (memory given back), ``loops`` (one script loop
for every session: a tab holds one file), ``sockets`` (each write sent at once),
``reconnect`` and ``blas``.
Imports Streamlit and libraries only: nothing else of the app. A new limit on what a
browser may send, or a new use of Streamlit's internals, goes here.
"""
