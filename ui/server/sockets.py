"""The server's connections send each write at once (``TCP_NODELAY``).

Streamlit binds its listening socket as ``socket.socket(family)``, whose protocol number
is 0, and asyncio turns Nagle's algorithm off only on sockets whose protocol says TCP; so
every connection the server accepts keeps it on. A response written in two parts (its
headers, then its body: every HTTP response of uvicorn) then waits for the browser's
acknowledgement of the first, which the browser delays by up to 40 ms: each request after
the first on a kept-alive connection took 40-48 ms here (a health check, a file of the
first visit, a student's step post), and every websocket message behind another one waits
the same. Linux, macOS and the BSDs give an accepted connection its listening socket's
``TCP_NODELAY``, so setting it on the listening sockets once, at the server's start, covers
every connection after. The sockets are found by their file descriptors (``/proc/self/fd``,
or ``/dev/fd``): no part of Streamlit is read or changed.

May import: the standard library only.
"""

from __future__ import annotations

import contextlib
import os
import socket


def _descriptors() -> list[int]:
    for where in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return [int(name) for name in os.listdir(where) if name.isdigit()]
    return []


def nodelay_listeners() -> int:
    """Set ``TCP_NODELAY`` on every listening TCP socket of this process; how many."""
    done = 0
    for fd in _descriptors():
        try:
            handle = os.dup(fd)  # a second handle: closing it leaves fd open
        except OSError:  # gone
            continue
        try:
            sock = socket.socket(fileno=handle)
        except OSError:  # not a socket: its handle is closed here, or a pipe stays open
            os.close(handle)
            continue
        with sock:
            try:
                tcp = sock.family in (socket.AF_INET, socket.AF_INET6)
                listening = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
                if tcp and sock.type == socket.SOCK_STREAM and listening:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    done += 1
            except OSError:  # a socket of another kind (a unix socket's option)
                continue
    return done
