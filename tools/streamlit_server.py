"""A ``streamlit run`` on a free localhost port, for the benchmarks, the tests and the
deployment.

Started with the class settings that matter for measuring: headless, no usage
statistics, no file watcher (an edit on disk must not unload the app's modules
under running sessions). Stopped by its own PID, never by name: other servers
on the machine are not ours.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TypedDict, Unpack

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
# the app server's environment as scripts/run.py gives it (glibc's memory settings)
from environment import SERVER_ENV  # type: ignore[import-not-found,unused-ignore]  # noqa: E402

from ui.server import clients  # noqa: E402


class Options(TypedDict, total=False):
    """How a server is started (every key optional): ``port`` (a free one if None), ``log``
    (its output; none if None), ``app_dir`` (the app's copy it runs: this repository by
    default), ``env`` (added to this process's environment, say ``PERCEPTRON_STORE``) and
    ``address`` (where it listens: 127.0.0.1 unless given; "0.0.0.0" is every interface,
    as a lecture laptop's server for the phones in the room)."""

    port: int | None
    address: str
    log: IO[bytes] | None
    app_dir: Path
    env: Mapping[str, str] | None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(
    script: str | Path = "app.py", **options: Unpack[Options]
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run script`` (see :class:`Options`) and return
    (process, URL) at once, before it answers (see :func:`wait_ready`): several servers
    start side by side."""
    port = options.get("port") or free_port()
    app_dir = options.get("app_dir", ROOT)
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "streamlit", "run", str(script)),
            *("--server.port", str(port), "--server.address", options.get("address", "127.0.0.1")),
            *("--server.headless", "true", "--browser.gatherUsageStats", "false"),
            *("--server.fileWatcherType", "none"),
        ],
        cwd=app_dir,
        stdout=options.get("log") or subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        env=SERVER_ENV
        | os.environ
        # the browsers' secret this process signs its scripted browsers with (a
        # deployment's servers share it)
        | {clients.SECRET_ENV: clients.shared_secret()}
        | dict(options.get("env") or {})
        | {"PYTHONPATH": str(app_dir), "PYTHONUNBUFFERED": "1"},
    )
    return proc, f"http://127.0.0.1:{port}"


def wait_until(
    proc: subprocess.Popen[bytes],
    ready: Callable[[], bool],
    *,
    what: str,
    timeout: float,
    every: float = 0.3,
) -> None:
    """Wait until ``ready()`` (asked every ``every`` s); stop ``proc`` and raise
    RuntimeError if it exits first or is not ready within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        if ready():
            return
        time.sleep(every)
    stop(proc)
    raise RuntimeError(f"{what} did not come up within {timeout:g} s")


def healthy(url: str) -> bool:
    """Whether the Streamlit server at ``url`` answers /_stcore/health with ok."""
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return bool(r.read().strip() == b"ok")
    except OSError:
        return False


def wait_ready(
    proc: subprocess.Popen[bytes], url: str, *, what: str = "streamlit run", timeout: float = 60
) -> None:
    """Wait until the server at ``url`` answers /_stcore/health with ok (see
    :func:`wait_until`)."""
    wait_until(proc, lambda: healthy(url), what=what, timeout=timeout)


def start(
    script: str | Path = "app.py", **options: Unpack[Options]
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run script`` (see :class:`Options`; the app's copy has its own
    code and ``.streamlit/config.toml``) and return (process, URL) once /_stcore/health
    is ok."""
    proc, url = launch(script, **options)
    wait_ready(proc, url, what=f"streamlit run {script} in {options.get('app_dir', ROOT)}")
    return proc, url


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a process this process started (by its own handle, never by name): ``sig``,
    then SIGKILL if it has not exited within 10 s."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@contextmanager
def serve(
    script: str | Path = "app.py", **options: Unpack[Options]
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``start`` ... ``stop``, as a context manager yielding (process, URL)."""
    proc, url = start(script, **options)
    try:
        yield proc, url
    finally:
        stop(proc)


def port_of(url: str) -> int:
    """The port of a server's URL (``http://127.0.0.1:8501`` -> 8501)."""
    return int(url.rsplit(":", 1)[1])
