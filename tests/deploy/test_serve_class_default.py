"""``bash scripts/serve_class.sh`` with no N: one app server per core, behind nginx.

A lecturer types the command as the README gives it; the launcher counts the cores this
process may use (its CPU affinity) and starts that many app servers, Redis and nginx, and
Ctrl-C stops them all. A wrong N is refused in one sentence, before anything starts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from deploy import class_server
from tools.streamlit_server import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_no_n_starts_one_app_server_per_core(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "deploy.class_server", "serve", "--port", str(port)),
            *("--host", "127.0.0.1", "--run-dir", str(tmp_path / "run")),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    said: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            said.append(line)
            if "Ctrl-C stops them all" in line:
                break
        text = "".join(said)
        cores = len(os.sched_getaffinity(0))
        assert f"starting redis-server, {cores} app servers and nginx" in text, text
        apps = next(line for line in said if "app servers:" in line)
        assert apps.count("http://127.0.0.1:") == cores, apps
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
            assert answer.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, "".join(said) + out
    assert "stopped." in out


@pytest.mark.parametrize(
    ("n", "words"), [("0", "N must be 1 to 64, not 0"), ("two", "N must be a whole number")]
)
def test_a_wrong_n_is_refused_in_a_sentence(n: str, words: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        class_server.main(["serve", n])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
