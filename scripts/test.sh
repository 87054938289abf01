#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs the whole suite:
# ruff (lint + format), mypy over all the code, the check of Streamlit's internals, the
# TypeScript check of the JavaScript components, and pytest (engine, AppTest, browser, the
# store on SQLite and on a real redis-server, two app servers behind nginx, simulated
# students). The tests run in parallel (pytest-xdist, PYTEST_WORKERS of them, each file on one
# worker); those that time the app against the clock (marked `serial`) run after them, alone.
# Extra arguments go to one plain pytest instead, e.g. `bash scripts/test.sh tests/engine -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests start for real: chromium (browser tests), redis-server (the
# store's Redis backend), nginx (the multi-server deployment) and its brotli filter module
# (the deployment's compression; a module package has no command: its file is looked
# for). Each is installed only if missing; apt-get update runs once, non-interactively.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so ] ||
  missing+=(libnginx-mod-http-brotli-filter)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "== installing Debian's ${missing[*]} for the tests"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The lock, into the project's own environment (.venv; the system's Python is never touched,
# so this works where it refuses pip: PEP 668), every file checked against its hash. From
# here on `python3` is .venv's.
echo "== the locked Python packages (requirements-dev.txt) in .venv"
python3 scripts/environment.py --dev
export VIRTUAL_ENV="$PWD/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
echo "== installing the locked TypeScript (package-lock.json)"
npm ci --no-audit --no-fund --loglevel=error >/dev/null

echo "== the docs (mkdocs build --strict: a broken link or a page left out fails)"
# (not --quiet: it hides the warnings that --strict turns into a failure)
NO_MKDOCS_2_WARNING=1 python3 -m mkdocs build --strict --site-dir "${DOCS_SITE:-.site}"
echo "== ruff"
python3 -m ruff check .
python3 -m ruff format --check .
echo "== mypy (all the code: pyproject.toml's files)"
python3 -m mypy
echo "== the catalogues (ui/words/locale): each language's share of the app's messages"
python3 scripts/catalogue.py --check
echo "== Streamlit's internals (ui/server/internals.py)"
python3 -m ui.server.internals
echo "== tsc --checkJs (the JavaScript tsconfig.json lists)"
npx --no-install tsc -p tsconfig.json

echo "== pytest"
if [ "$#" -gt 0 ]; then
  exec python3 -m pytest "$@"
fi
python3 -m pytest -n "${PYTEST_WORKERS:-3}" --dist loadfile -m "not serial"
python3 -m pytest -p no:xdist -m serial
