"""A ``streamlit run`` on a free localhost port, for the benchmarks and the browser tests.

Started with the class settings that matter for measuring: headless, no usage
statistics, no file watcher (an edit on disk must not unload the app's modules
under running sessions). Stopped by its own PID, never by name: other servers
on the machine are not ours.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(
    script: str | Path = "app.py",
    *,
    port: int | None = None,
    log: IO[bytes] | None = None,
    app_dir: Path = ROOT,
    env: Mapping[str, str] | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run script`` in ``app_dir`` on 127.0.0.1:``port`` (a free one if
    None), with ``env`` added to this process's environment (say ``PERCEPTRON_STORE``),
    and return (process, URL) at once, before it answers (see :func:`wait_ready`): several
    servers start side by side."""
    port = port or free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "streamlit", "run", str(script)),
            *("--server.port", str(port), "--server.address", "127.0.0.1"),
            *("--server.headless", "true", "--browser.gatherUsageStats", "false"),
            *("--server.fileWatcherType", "none"),
        ],
        cwd=app_dir,
        stdout=log or subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        env=os.environ | dict(env or {}) | {"PYTHONPATH": str(app_dir), "PYTHONUNBUFFERED": "1"},
    )
    return proc, f"http://127.0.0.1:{port}"


def wait_ready(
    proc: subprocess.Popen[bytes], url: str, *, what: str = "streamlit run", timeout: float = 60
) -> None:
    """Wait until the server at ``url`` answers /_stcore/health with ok; stop it and raise
    RuntimeError if it exits or does not answer within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    stop(proc)
    raise RuntimeError(f"{what} did not answer /_stcore/health within {timeout:g} s")


def start(
    script: str | Path = "app.py",
    *,
    port: int | None = None,
    log: IO[bytes] | None = None,
    app_dir: Path = ROOT,
    env: Mapping[str, str] | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run script`` in ``app_dir`` (this repository, or a copy of the app
    elsewhere: its own code and ``.streamlit/config.toml``) and return (process, URL) once
    /_stcore/health is ok. ``env`` is added to the server's environment."""
    proc, url = launch(script, port=port, log=log, app_dir=app_dir, env=env)
    wait_ready(proc, url, what=f"streamlit run {script} in {app_dir}")
    return proc, url


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server this process started."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@contextmanager
def serve(
    script: str | Path = "app.py", *, log: IO[bytes] | None = None, app_dir: Path = ROOT
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``start`` ... ``stop``, as a context manager yielding (process, URL)."""
    proc, url = start(script, log=log, app_dir=app_dir)
    try:
        yield proc, url
    finally:
        stop(proc)
