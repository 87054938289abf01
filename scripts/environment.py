"""The project's own Python environment: ``.venv`` in the clone, with the lock installed.

    python3 scripts/environment.py          the app's packages (requirements.txt)
    python3 scripts/environment.py --dev    the tests' too (requirements-dev.txt)

It never touches the system's Python, so it works where that Python refuses pip (PEP 668:
Debian, Ubuntu, Homebrew), needs no root, and runs the same on Windows. It installs only
when the lock changed since the last install (a stamp in ``.venv`` holds each lock's
SHA-256), every file checked against its hash. On failure it says what failed in one
sentence and exits 1, and the caller starts nothing: no app half installed.

Written for any Python 3, so an older one gets the sentence below, not a syntax error.
Standard library only: it runs before anything is installed.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
from typing import Optional, Set

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
STAMP = os.path.join(VENV, "perceptron-lock.sha256")
NEEDED = (3, 11)
PYTHON = "%d.%d.%d" % tuple(sys.version_info[:3])
LOCKS = {"app": "requirements.txt", "dev": "requirements-dev.txt"}
# The app server's memory settings for glibc, read when the process starts (the same as
# ui/server/memory.py's MALLOC_ENV, which says why): a large block is given back when freed.
SERVER_ENV = {
    "MALLOC_ARENA_MAX": "2",
    "MALLOC_MMAP_THRESHOLD_": "131072",
    "MALLOC_TRIM_THRESHOLD_": "131072",
}


def say(sentence: str) -> None:
    print("Perceptron Lab: " + sentence, file=sys.stderr, flush=True)


def python_in_venv() -> str:
    """The environment's interpreter: bin/python, or Scripts\\python.exe on Windows."""
    if os.name == "nt":
        return os.path.join(VENV, "Scripts", "python.exe")
    return os.path.join(VENV, "bin", "python")


def lock_hash(name: str) -> str:
    with open(os.path.join(ROOT, name), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def installed() -> Set[str]:
    try:
        with open(STAMP) as f:
            return set(f.read().split())
    except OSError:
        return set()


def check_python() -> None:
    if sys.version_info[:2] < NEEDED:
        say(
            "this needs Python %d.%d or newer; this is Python %d.%d (%s). Install a newer "
            "Python (python.org, or your system's packages) and run the command with it."
            % (NEEDED[0], NEEDED[1], sys.version_info[0], sys.version_info[1], sys.executable)
        )
        sys.exit(1)


def make_venv() -> None:
    """Create .venv with pip; on failure remove what was made and say why."""
    if os.path.exists(python_in_venv()):
        return
    say("making the project's own Python environment in .venv (once)")
    made = subprocess.run(
        [sys.executable, "-m", "venv", VENV], capture_output=True, text=True, check=False
    )
    if made.returncode != 0 or not os.path.exists(python_in_venv()):
        shutil.rmtree(VENV, ignore_errors=True)
        detail = (made.stderr or made.stdout).strip().splitlines()
        hint = ""
        if "ensurepip" in (made.stderr + made.stdout):
            hint = (
                " Python's venv module is not installed: on Debian or Ubuntu, "
                "`sudo apt install python3-venv`, then run the command again."
            )
        say("could not make .venv (%s).%s" % (detail[-1] if detail else "no reason given", hint))
        sys.exit(1)


def failed_package(pip_output: str, offline: bool) -> Optional[str]:
    """The package pip could not fetch, as pip named it (offline: the last it was
    collecting), or None."""
    patterns = [
        r"(?:No matching distribution found|Could not find a version that satisfies the "
        r"requirement) (?:for )?([A-Za-z0-9_.\-]+(?:==[^\s;)]+)?)"
    ]
    if offline:
        patterns.append(r"Collecting ([A-Za-z0-9_.\-]+==[^\s;]+)\s*$")
    for pattern in patterns:
        found = re.findall(pattern, pip_output, flags=re.MULTILINE)
        if found:
            return str(found[-1])
    return None


def unlocked_package(pip_output: str) -> Optional[str]:
    """A package this Python needs that the lock does not hold (pip's hash mode says so)."""
    found = re.search(r"These do not:\s*\n\s*([A-Za-z0-9_.\-]+)", pip_output)
    return found.group(1) if found else None


def install(kind: str) -> None:
    """Install the lock of ``kind`` ("app" or "dev") into .venv unless it is already there."""
    lock = LOCKS[kind]
    wanted = lock_hash(lock)
    if wanted in installed():
        return
    say("installing the locked packages of %s into .venv (a minute or two, once)" % lock)
    pip = subprocess.run(
        [
            python_in_venv(),
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            "--require-hashes",
            "-r",
            os.path.join(ROOT, lock),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if pip.returncode != 0:
        output = pip.stdout + pip.stderr
        sys.stderr.write("\n".join(output.strip().splitlines()[-12:]) + "\n")
        missing = unlocked_package(output)
        offline = bool(
            re.search(r"NewConnectionError|Temporary failure|Network is unreachable", output)
        )
        package = failed_package(output, offline)
        if missing:
            say(
                "could not install %s: this Python (%s) needs %s, which the lock does not "
                "hold. Nothing was started; please report it." % (lock, PYTHON, missing)
            )
        elif offline or package:
            say(
                "could not install %s from %s (no network?). Nothing was started; run the "
                "command again when it can reach the package index."
                % ("the package " + package if package else "the locked packages", lock)
            )
        else:
            say("could not install %s (pip's last lines are above). Nothing was started." % lock)
        sys.exit(1)
    kept = installed() | {wanted}
    if kind == "dev":  # the dev lock holds the app's packages at the app lock's versions
        kept.add(lock_hash(LOCKS["app"]))
    with open(STAMP, "w") as f:
        f.write("\n".join(sorted(kept)) + "\n")


def ensure(kind: str = "app") -> str:
    """.venv with the lock of ``kind``; returns its interpreter's path."""
    check_python()
    make_venv()
    install(kind)
    return python_in_venv()


if __name__ == "__main__":
    ensure("dev" if "--dev" in sys.argv[1:] else "app")
