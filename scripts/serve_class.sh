#!/usr/bin/env bash
# A class past one process: N app servers behind nginx, with Redis for the links.
#
#   bash scripts/serve_class.sh [N] [--port 8080] [--host 0.0.0.0] [--run-dir DIR]
#
# Starts N `streamlit run app.py` on free loopback ports (by default one per core: one
# Streamlit process runs Python on one core at a time), one redis-server on 127.0.0.1 (protected mode;
# every app server gets PERCEPTRON_STORE=redis://127.0.0.1:<port>/0, so a link's data=<id>
# opens on any of them), and nginx on --port (sticky sessions by a cookie hash, the
# websocket upgraded, passive health checks: deploy/nginx.conf.template says why). No root
# needed: everything runs as the current user, with its configurations, pid files, logs and
# temp files in one run directory (a temp one by default, removed at the end). Ctrl-C stops
# them all. For several machines, see deploy/nginx.conf.template and
# deploy/redis.conf.template (`python3 -m deploy.class_server render --help`).
#
# Needs Debian's redis-server and nginx (`apt-get install redis-server nginx`, as
# scripts/test.sh does); the app's packages come from .venv (made here if missing).
# nginx compresses with gzip, and with brotli too where Debian's module is installed
# (`apt-get install libnginx-mod-http-brotli-filter`); the start says which.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in redis-server nginx; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    echo "needs Debian's $tool: sudo apt-get install redis-server nginx" >&2
    exit 1
  fi
done
# the project's own environment (.venv, made and filled by scripts/environment.py if needed)
python3 scripts/environment.py
# exec: Ctrl-C and SIGTERM reach the Python launcher, which stops every process it started.
exec .venv/bin/python -m deploy.class_server serve "$@"
