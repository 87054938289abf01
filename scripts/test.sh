#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs the whole suite:
# ruff (lint + format), mypy on perceptron_core, ui/kit/store.py and ui/kit/classroom.py,
# and pytest (engine, AppTest, browser, the store on SQLite and on a real redis-server).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/engine -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests start for real: chromium (browser tests), redis-server (the
# store's Redis backend, issue 15) and nginx (the multi-server deployment). Each is
# installed only if missing; apt-get update runs once, non-interactively.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "== installing Debian's ${missing[*]} for the tests"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "== installing Python packages"
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
  -r requirements-dev.txt

echo "== ruff"
python3 -m ruff check .
python3 -m ruff format --check .
echo "== mypy perceptron_core ui/kit/store.py ui/kit/classroom.py"
python3 -m mypy perceptron_core ui/kit/store.py ui/kit/classroom.py
echo "== pytest"
python3 -m pytest "$@"
