#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs the whole suite:
# ruff (lint + format), mypy on perceptron_core, and pytest (engine, AppTest, browser).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/engine -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "== installing Debian's chromium for the browser tests"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

echo "== installing Python packages"
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
  -r requirements-dev.txt

echo "== ruff"
python3 -m ruff check .
python3 -m ruff format --check .
echo "== mypy perceptron_core"
python3 -m mypy perceptron_core
echo "== pytest"
python3 -m pytest "$@"
