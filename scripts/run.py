"""Run the app: make the project's environment if needed (scripts/environment.py), then
serve it.

    python3 scripts/run.py                            http://localhost:8501
    python3 scripts/run.py --server.address 0.0.0.0  a class on the room's Wi-Fi
    py scripts\\run.py                                the same on Windows (PowerShell)

Arguments go to ``streamlit run app.py``. Standard library only, any Python 3: an older
Python is told which version is needed before anything is installed.
"""

import os
import subprocess
import sys

# scripts/environment.py: this file's folder is first on the path when it runs (mypy, which
# reads it as scripts.run, cannot know that)
import environment  # type: ignore[import-not-found,unused-ignore]


def main() -> None:
    python = environment.ensure("app")
    command = [python, "-m", "streamlit", "run", os.path.join(environment.ROOT, "app.py")]
    command += sys.argv[1:]
    os.chdir(environment.ROOT)  # .streamlit/config.toml is read from here
    for name, value in environment.SERVER_ENV.items():  # a setting of the user's own wins
        os.environ.setdefault(name, value)
    if os.name == "nt":  # no exec on Windows: wait, and pass on Ctrl+C and the exit code
        try:
            sys.exit(subprocess.call(command))
        except KeyboardInterrupt:
            sys.exit(130)
    os.execv(python, command)


if __name__ == "__main__":
    main()
