"""ui.server.sockets: a connection accepted from a listening socket of protocol 0 (as
Streamlit binds it) sends each write at once once the listener has TCP_NODELAY."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from ui.server import sockets


@contextmanager
def listening() -> Iterator[socket.socket]:
    """A listening socket made as Streamlit makes its server's."""
    with socket.socket(socket.AF_INET) as listener:  # protocol 0
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        yield listener


def connection(listener: socket.socket) -> int:
    """TCP_NODELAY of the server's end of a new connection to ``listener``."""
    with socket.create_connection(listener.getsockname(), timeout=5):
        conn, _ = listener.accept()
        with conn:
            return conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_a_connection_to_a_protocol_0_listener_keeps_nagle_unless_the_listener_is_set():
    with listening() as listener:
        assert connection(listener) == 0  # what every connection of the server had
        assert sockets.nodelay_listeners() >= 1
        assert listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        assert connection(listener) != 0  # accepted from now on: each write goes at once


def test_other_descriptors_are_left_alone():
    with socket.socket(socket.AF_INET) as idle, socket.socket(socket.AF_UNIX) as unix:
        sockets.nodelay_listeners()
        assert idle.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0  # not listening
        assert unix.fileno() >= 0  # still open: the scan closes only its own handles


def test_the_scan_leaves_no_handle_open_on_a_pipe():
    """A leaked copy of a pipe's write end keeps its reader from ever seeing the end (a
    test process's Playwright driver waited for it forever)."""
    read, write = os.pipe()
    os.set_blocking(read, False)  # a leaked handle: BlockingIOError, not a hang
    sockets.nodelay_listeners()
    os.close(write)
    assert os.read(read, 1) == b""  # the end: no other handle of the write end is open
    os.close(read)
