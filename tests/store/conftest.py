"""Fixtures of the store's tests: a real ``redis-server`` per test, stores of both
backends made the way the app makes them (``open_store``), and what several test files
share (a small dataset, the time a stopped Redis is noticed within, the bytes in use)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from perceptron_store import Store, open_store

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
BACKENDS = ["sqlite", "redis"]
SOON = 1.0  # seconds: a stopped Redis is noticed within this

X4 = np.array([[1.0, 2.0], [-3.0, 4.5], [0.25, -1.0], [2.0, 2.0]])
Y4 = np.array([1.0, -1.0, -1.0, 1.0])


def used(store: Store) -> int:
    """The bytes a store counts against its cap now (both backends have ``used_bytes``)."""
    return int(store.used_bytes())  # type: ignore[attr-defined]


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """One ``redis-server`` on a loopback port, without persistence, that a test can stop,
    start again on the same port, pause (SIGSTOP) and resume."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = free_port() if port is None else port
        self.proc: subprocess.Popen[bytes] | None = None
        self.paused = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.proc is None, "already running"
        log = self.workdir / "redis.log"
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    REDIS_SERVER,
                    "--port", str(self.port),
                    "--bind", "127.0.0.1",
                    "--save", "",
                    "--appendonly", "no",
                    "--daemonize", "no",
                    "--dir", str(self.workdir),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 10
        while not answers_ping(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop(kill=True)
                raise RuntimeError(f"redis-server did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.02)

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server: SIGTERM (a shutdown) or SIGKILL (a crash)."""
        if self.proc is None:
            return
        if self.paused:
            self.resume()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def pause(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)
        self.paused = False


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real redis-server on a free loopback port, stopped after the test."""
    if not os.path.exists(REDIS_SERVER):
        pytest.fail("redis-server is missing: `bash scripts/test.sh` installs Debian's package")
    workdir = tmp_path / "redis"
    workdir.mkdir()
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


MakeStore = Callable[..., Store]


@pytest.fixture(params=BACKENDS)
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeStore]:
    """Makes stores of one backend through ``open_store``; two made in one test share
    their data (one SQLite file, one Redis), as two app processes would."""
    made: list[Store] = []

    def make(max_bytes: int = 10_000_000, recent_s: float | None = None) -> Store:
        if request.param == "sqlite":
            setting = f"sqlite://{tmp_path / 'data' / 'store.sqlite3'}"
        else:
            setting = request.getfixturevalue("redis_server").url
        kept = {} if recent_s is None else {"recent_s": recent_s}
        store = open_store(setting, max_bytes=max_bytes, **kept)
        made.append(store)
        return store

    try:
        yield make
    finally:
        for store in made:
            store.close()


@pytest.fixture
def store(make_store: MakeStore) -> Store:
    return make_store()
