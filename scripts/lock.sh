#!/usr/bin/env bash
# The lock: requirements.txt and requirements-dev.txt, exact versions with hashes, generated
# from the ranges in requirements.in and requirements-dev.in by pip-tools.
#
#   bash scripts/lock.sh             re-lock after editing a .in file: versions already locked
#                                    stay where they still fit the ranges
#   bash scripts/lock.sh --upgrade   how the project upgrades: every package to the newest
#                                    version its range allows, then the whole test command
#                                    (which installs the new lock). Commit the two .txt files
#                                    only if it passes; on a new Streamlit, read what
#                                    tests/ui/server/test_server_internals.py says and mend
#                                    ui/server/internals.py (and its TESTED) first.
#
# The lock is resolved for Python 3.11 on Linux x86-64 (this project's machines); the hashes
# cover every file PyPI has for each pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."

upgrade=()
if [ "${1:-}" = "--upgrade" ]; then upgrade=(--upgrade); fi

# pip-tools in the project's own environment (.venv), never in the system's Python
python3 scripts/environment.py
py=.venv/bin/python
[ -x "$py" ] || py=.venv/Scripts/python.exe
"$py" -m pip install -q --disable-pip-version-check "pip-tools==7.6.2"
compile() {
  "$py" -m piptools compile --quiet --generate-hashes --strip-extras --no-emit-index-url \
    --no-emit-find-links "${upgrade[@]}" -o "$2" "$1"
}
compile requirements.in requirements.txt
compile requirements-dev.in requirements-dev.txt  # constrained by requirements.txt
echo "== locked: $(grep -c '==' requirements.txt) runtime packages," \
  "$(grep -c '==' requirements-dev.txt) with the tests'"
grep -E '^(streamlit|numpy|pandas|plotly|scipy|numba)==' requirements.txt

if [ "${#upgrade[@]}" -gt 0 ]; then
  echo "== the whole test command on the new lock"
  bash scripts/test.sh
fi
