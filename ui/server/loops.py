"""One asyncio loop for every session's script thread: an open tab holds one file, not four.

Streamlit gives each session an asyncio loop of its own, made with
``asyncio.new_event_loop()`` while the server's loop runs (a tab's connection), installed
in the session's script thread and never run by Streamlit. A loop holds three open files
(an epoll and a socket pair) for as long as its tab is open, the tab's websocket a fourth:
under a limit of 1,024 files that is 250 tabs. No page of this app drives a loop (there is
no asyncio in a page), so one loop serves every script thread.

:func:`share` sets this process's event-loop policy (Python's public API) to one that
hands out that shared loop for a loop made *while another loop runs on the same thread*,
which is how a session's loop is made; a loop made anywhere else (a thread of its own,
``asyncio.run``) is a new loop as always. The shared loop is never closed: a session's end
closes "its" loop, and the others go on with it. Sessions opened before :func:`share`
(the first tabs of a server) keep their own loops.

May import: the standard library.
"""

from __future__ import annotations

import asyncio


class SharedLoop(asyncio.SelectorEventLoop):
    """A loop that many sessions' script threads install and none runs: ``close`` leaves it
    open for the others."""

    def close(self) -> None:
        """Left open: the other sessions' script threads still install it."""


class SharingPolicy(asyncio.DefaultEventLoopPolicy):
    """The default policy, except that a loop made while this thread runs a loop is
    :attr:`shared`."""

    def __init__(self) -> None:
        super().__init__()
        self.shared = SharedLoop()

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop runs here: a loop of its own, to be run
            return super().new_event_loop()
        return self.shared


def share() -> bool:
    """Share one loop among the sessions that start from now on, once per process; True
    once they do."""
    if not isinstance(asyncio.get_event_loop_policy(), SharingPolicy):
        asyncio.set_event_loop_policy(SharingPolicy())
    return True


def shared() -> bool:
    """Whether this process's sessions share one script loop (:func:`share`)."""
    return isinstance(asyncio.get_event_loop_policy(), SharingPolicy)
