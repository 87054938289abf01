"""Install day, as a newcomer lives it: a clone of the project alone, the system's own Python
first on the PATH (Debian's, which refuses pip: PEP 668), and the README's commands typed as
written. Also the sentences for a Python too old and for no network, and the app under every
other Python 3.11+ on the machine.

Each test reads the command from the README itself, so the README cannot drift from what
works. They take minutes (a fresh environment each), and need the package index (as a
newcomer does); the pip cache of the machine makes a second run faster.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def readme_command(after: str) -> str:
    """The first shell block under the README's line that starts with ``after``."""
    text = (ROOT / "README.md").read_text()
    found = re.search(re.escape(after) + r".*?```(?:bash|sh)\n(.+?)\n```", text, re.S)
    assert found, f"the README has no command under “{after}”"
    return found.group(1).strip()


def newcomer_env(home: Path) -> dict[str, str]:
    """A shell as a newcomer opens it: the system's Python first, none of this test run's
    environment (its .venv, pytest's variables), its own empty home for caches."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "VIRTUAL_ENV", "PYTHON", "STREAMLIT", "COV_"))
    }
    keep = [p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p and p]
    env["PATH"] = os.pathsep.join(["/usr/bin", "/bin", *keep])
    env["PIP_CACHE_DIR"] = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
    env["XDG_CACHE_HOME"] = str(home / "cache")
    return env


@pytest.fixture
def clone(tmp_path) -> Path:
    """The project's committed tree, cloned alone into an empty folder."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: there is nothing to clone")
    if not os.path.exists(SYSTEM_PYTHON):
        pytest.skip(f"{SYSTEM_PYTHON} is not on this machine: no system Python to try")
    target = tmp_path / "perceptron-lab"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_health(url: str, server: subprocess.Popen[str], seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            out = server.stdout.read() if server.stdout else ""
            pytest.fail(f"the run command ended (code {server.returncode}):\n{out[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            time.sleep(1)
    pytest.fail(f"the app did not answer on {url} within {seconds:.0f} s")


LECTURE_DRAWS = """
import sys
from playwright.sync_api import expect, sync_playwright
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=sys.argv[2], headless=True, args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(sys.argv[1] + "/lecture")
    expect(page.locator(".lec .fig")).to_be_visible(timeout=60_000)
    expect(page.locator(".lec")).to_contain_text("step t = 0")
    browser.close()
"""


def lecture_draws(url: str) -> None:
    """The lecture page's instrument shows its chart and its status line in a browser (a
    process of its own: the worker may already drive a browser of its own)."""
    done = subprocess.run(
        [sys.executable, "-c", LECTURE_DRAWS, url, CHROMIUM],
        capture_output=True,
        text=True,
        check=False,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.timeout(1200)
def test_the_readmes_run_command_serves_the_app_from_a_clone_with_the_system_python(
    clone, tmp_path
) -> None:
    command = readme_command("Run the app")
    assert "pip install" not in command  # the project makes its own environment
    port = free_port()
    env = newcomer_env(tmp_path) | {"STREAMLIT_SERVER_PORT": str(port)}
    server = subprocess.Popen(  # as typed: through a shell, in the clone
        command,
        shell=True,
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for_health(url, server, seconds=900)
        lecture_draws(url)
        venv_python = clone / ".venv" / "bin" / "python"
        assert venv_python.exists()  # its own environment, in the clone
        base = subprocess.run(
            [str(venv_python), "-c", "import sys; print(sys.base_prefix)"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        assert base == "/usr"  # made from the system's Python, which it left untouched
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have ended by itself
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


@pytest.mark.timeout(1800)
def test_the_readmes_test_command_passes_a_small_tier_in_a_clone(clone, tmp_path) -> None:
    command = readme_command("Run all tests")
    assert command == "bash scripts/test.sh"
    done = subprocess.run(
        f"{command} tests/engine -q -x -p no:cacheprovider",
        shell=True,
        cwd=clone,
        env=newcomer_env(tmp_path),
        capture_output=True,
        text=True,
        check=False,
        timeout=1700,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    assert re.search(r"\d+ passed", out), out[-2000:]
    assert "== the docs" in out and "== mypy" in out  # the whole set-up ran, not only pytest


def run_environment(
    clone: Path, env: dict[str, str], code: str
) -> subprocess.CompletedProcess[str]:
    """scripts/environment.py, driven from a few lines of Python under the system's Python."""
    return subprocess.run(
        [SYSTEM_PYTHON, "-c", "import sys; sys.path.insert(0, 'scripts'); " + code],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def older_pythons() -> list[str]:
    """Python 3 interpreters older than 3.11 on the machine (pyenv's), if any."""
    found = []
    for c in sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))):
        minor = re.search(r"/3\.(\d+)\.", c)
        if minor and int(minor.group(1)) < 11:
            found.append(c)
    return found


def test_a_python_too_old_is_told_which_version_before_anything_is_installed(
    clone, tmp_path
) -> None:
    env = newcomer_env(tmp_path)
    # every older Python on the machine, running the README's command for real
    for old in older_pythons():
        done = subprocess.run(
            [old, "scripts/run.py"], cwd=clone, env=env, capture_output=True, text=True
        )
        assert done.returncode == 1, (old, done.stderr)
        said = done.stderr.strip().splitlines()
        assert len(said) == 1 and "needs Python 3.11 or newer; this is Python 3." in said[0]
    # and the check itself on this machine's system Python, the needed version moved past it
    done = run_environment(
        clone, env, "import environment; environment.NEEDED = (99, 0); environment.ensure('app')"
    )
    assert done.returncode == 1
    assert "needs Python 99.0 or newer; this is Python 3." in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1  # one sentence, no traceback
    assert not (clone / ".venv").exists()  # nothing made, nothing installed


@pytest.mark.timeout(900)
def test_no_network_names_the_package_and_starts_nothing(clone, tmp_path) -> None:
    env = newcomer_env(tmp_path) | {
        "PIP_INDEX_URL": "http://127.0.0.1:9/simple",  # nothing listens there
        "PIP_NO_CACHE_DIR": "1",
        "PIP_RETRIES": "0",
        "PIP_TIMEOUT": "2",
    }
    done = subprocess.run(
        [SYSTEM_PYTHON, "scripts/run.py"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=800,
    )
    assert done.returncode == 1
    said = done.stderr.strip().splitlines()[-1]
    assert re.match(r"Perceptron Lab: could not install the package [a-z0-9_.\-]+==\S+ ", said), (
        said
    )
    assert "Nothing was started" in said
    assert "You can now view your Streamlit app" not in done.stdout + done.stderr
    stamp = clone / ".venv" / "perceptron-lock.sha256"
    assert not stamp.exists()  # the next run installs again


def other_pythons() -> dict[str, str]:
    """One interpreter of each Python 3.11+ version on the machine other than this one's:
    version ("3.12") -> path."""
    found: dict[str, str] = {}
    here = f"{sys.version_info[0]}.{sys.version_info[1]}"
    candidates = [shutil.which(f"python3.{m}") for m in range(11, 20)]
    candidates += glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))
    for c in filter(None, candidates):
        out = subprocess.run(
            [c, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        version = out.stdout.strip()
        if out.returncode != 0 or version == here:
            continue
        if tuple(map(int, version.split("."))) >= (3, 11):
            found.setdefault(version, c)
    return found


@pytest.mark.timeout(1800)
def test_every_python_311_or_newer_on_the_machine_runs_a_page_from_the_lock(tmp_path) -> None:
    versions = other_pythons()
    if not versions:
        pytest.skip(
            f"no Python 3.11+ but this one ({sys.version_info[0]}.{sys.version_info[1]}) on "
            "this machine: the other tests check the lock on it"
        )
    page = (
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('app.py', default_timeout=120).run()\n"
        "at.switch_page('pages/lecture.py').run()\n"
        "assert not at.exception, at.exception\n"
        "print('ok', len(at.markdown))\n"
    )
    for version, python in versions.items():
        venv = tmp_path / f"python{version}"
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        pip = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--require-hashes",
             "-r", str(ROOT / "requirements.txt")],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert pip.returncode == 0, f"{version}: {pip.stderr[-2000:]}"
        ran = subprocess.run(
            [str(venv / "bin" / "python"), "-c", page],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert ran.returncode == 0 and ran.stdout.startswith("ok"), (
            f"{version}: {ran.stderr[-2000:]}"
        )
