"""A class on N app servers behind nginx, with one Redis for the links' data.

One machine (``scripts/serve_class.sh N [--port 8080]`` runs ``serve``): N ``streamlit
run app.py`` on free loopback ports, one ``redis-server`` on 127.0.0.1 (protected mode, no
persistence: the store's time to live is the only keeping), and nginx on the given port
in front of them: sticky sessions by a cookie hash, the websocket upgraded on
``/_stcore/stream``, passive health checks, the frontend's files compressed and cached,
the icon font cut to the icons the app shows (``deploy/fonts/``, :func:`icon_font`).
Every process runs as the current user, no root: nginx's and Redis's configurations, pid
files, logs and temp files are in one run directory. Every app server gets
``PERCEPTRON_STORE=redis://127.0.0.1:<port>/0``, so a dataset saved through one opens
through any other. Ctrl-C (or SIGTERM) stops them all.

Several machines: ``render nginx --upstream HOST:PORT ...`` and ``render redis --bind
<private address> --password ...`` print the same templates filled in for them
(``deploy/nginx.conf.template``, ``deploy/redis.conf.template``; their comments say how).

``tests/deploy`` and ``benchmarks/load.py --through-nginx N`` use :func:`serve_class`,
the same code the script runs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file: the repository's packages
    sys.path.insert(0, str(ROOT))

from deploy.configs import (  # noqa: E402
    FAIL_TIMEOUT_S,
    IconFont,
    brotli_module,
    icon_font,
    nginx_conf,
    redis_conf,
    tool,
)
from tools import streamlit_server  # noqa: E402

ROUTE = re.compile(r"upstream=(.+?) route=(\S+)")


# ---------------------------------------------------------------------------- processes


def redis_ping(port: int, host: str = "127.0.0.1", timeout: float = 1.0) -> bool:
    """Whether a Redis answers PING on host:port (plain RESP, no client library)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def http_ok(url: str, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return bool(r.status == 200)
    except OSError:
        return False


@dataclass
class OnLoopback:
    """A server listening on a loopback port."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        """As nginx names it in $upstream_addr."""
        return f"127.0.0.1:{self.port}"


@dataclass
class App(OnLoopback):
    """One app server: its loopback port and process."""

    proc: subprocess.Popen[bytes]


def _stop_app(app: App) -> None:
    """Stop ``app``'s process as it is then (:meth:`Class.restart` replaces it)."""
    streamlit_server.stop(app.proc)


@dataclass
class Class(OnLoopback):
    """A running class: the front door ``url`` (nginx, on ``port``), the app servers, Redis."""

    run_dir: Path
    redis_port: int
    apps: list[App]
    redis: subprocess.Popen[bytes]
    nginx: subprocess.Popen[bytes]
    env: dict[str, str] = field(default_factory=dict)
    app_dir: Path = ROOT
    icons: IconFont | None = None  # the icon font nginx sends

    @property
    def store(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def access_log(self) -> Path:
        return self.run_dir / "access.log"

    def kill(self, i: int) -> None:
        """Kill app server i at once (SIGKILL: a crash, no goodbye to its browsers)."""
        streamlit_server.stop(self.apps[i].proc, signal.SIGKILL)

    def restart(self, i: int) -> None:
        """Start app server i again on its port (after :meth:`kill`), and return once
        nginx takes it back. nginx keeps a server that failed out of the hash ring for
        ``FAIL_TIMEOUT_S`` after its last failure, and a browser arriving meanwhile has its
        requests split between the servers as that time runs out (its page's last request
        on one, its websocket on the other): so nginx is reloaded, and its new workers
        start with every server in the ring."""
        app = self.apps[i]
        streamlit_server.stop(app.proc)
        log = open(self.run_dir / f"app-{i}.log", "ab")  # noqa: SIM115 (the child keeps it)
        with log:
            proc, url = streamlit_server.launch(
                "app.py",
                port=app.port,
                log=log,
                env=self.env | {"PERCEPTRON_STORE": self.store},
                app_dir=self.app_dir,
            )
        streamlit_server.wait_ready(proc, url, what=f"app server {i}")
        app.proc = proc
        self.reload_nginx()

    def reload_nginx(self) -> None:
        """Reload nginx (``SIGHUP``) and wait until its old workers have gone (10 s at
        most): from then on every request meets a worker with no server marked failed."""
        old = _children(self.nginx.pid)
        self.nginx.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + FAIL_TIMEOUT_S
        while time.monotonic() < deadline:
            now = _children(self.nginx.pid)
            if now and not (now & old):
                return
            time.sleep(0.05)

    def report(self, *, lines: int = 60) -> str:
        """What each server was doing: every live app server prints its threads' stacks
        to its log (``SIGUSR1``), then the last ``lines`` of each app's log and of
        nginx's error and access logs. For a test that waited in vain: a server that has
        run no page yet has no handler for the signal, and it ends the server."""
        for app in self.apps:
            if app.proc.poll() is None:
                app.proc.send_signal(signal.SIGUSR1)
        time.sleep(1.0)
        out = []
        logs = [self.run_dir / f"app-{i}.log" for i in range(len(self.apps))]
        for path in [*logs, self.run_dir / "error.log", self.access_log]:
            text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
            tail = "\n".join(text.splitlines()[-lines:])
            out.append(f"----- {path.name} (last {lines} lines)\n{tail}")
        return "\n".join(out)

    def routes(self) -> list[tuple[str, str, str]]:
        """(request line, upstream address, sticky key) of every request logged so far."""
        out = []
        if self.access_log.exists():
            for line in self.access_log.read_text(encoding="utf-8", errors="replace").splitlines():
                request = line.split('"')[1] if line.count('"') >= 2 else ""
                found = ROUTE.search(line)
                if found:
                    out.append((request, found.group(1), found.group(2)))
        return out

    def server_of(self, key: str) -> int:
        """The app server (index) that answered the last logged request with this sticky
        key (a browser's cookie ``perceptron_server``); ValueError if none."""
        for _, upstream, route in reversed(self.routes()):
            last = upstream.split(",")[-1].strip()  # "a, b": a failed, b answered
            if route == key:
                for i, app in enumerate(self.apps):
                    if app.address == last:
                        return i
        raise ValueError(f"no request with the sticky key {key!r} reached an app server")


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (nginx's workers), from /proc."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid):
            out.add(int(stat.parent.name))
    return out


def _start_redis(run_dir: Path, port: int) -> subprocess.Popen[bytes]:
    conf = run_dir / "redis.conf"
    conf.write_text(redis_conf(port=port, run_dir=run_dir), encoding="utf-8")
    proc = subprocess.Popen(
        [tool("redis-server"), str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    what = f"redis-server on port {port}"
    streamlit_server.wait_until(proc, lambda: redis_ping(port), what=what, timeout=20, every=0.1)
    return proc


def _others_pass(path: Path) -> bool:
    """Whether any user may pass through every directory above ``path`` (o+x on each)."""
    return all(parent.stat().st_mode & 0o001 for parent in path.parents)


def _start_nginx(
    run_dir: Path,
    work_dir: Path,
    listen: str,
    upstreams: Sequence[str],
    health: str,
    icons: IconFont,
) -> subprocess.Popen[bytes]:
    conf = run_dir / "nginx.conf"
    icon_file = None
    if icons.subset is not None:  # beside the cache: where nginx's workers can read it
        icon_file = work_dir / "fonts" / icons.subset.name
        icon_file.parent.mkdir(exist_ok=True)
        icon_file.parent.chmod(0o755)
        shutil.copyfile(icons.subset, icon_file)
        icon_file.chmod(0o644)
    text = nginx_conf(
        listen=listen,
        upstreams=upstreams,
        run_dir=run_dir,
        work_dir=work_dir,
        icons=icons,
        icon_file=icon_file,
    )
    conf.write_text(text, "utf-8")
    (work_dir / "compressor.sock").unlink(missing_ok=True)  # left by an nginx that was killed
    nginx = tool("nginx")
    args = ["-p", str(run_dir), "-c", str(conf), "-e", str(run_dir / "error.log")]
    test = subprocess.run([nginx, "-t", "-q", *args], capture_output=True, text=True)
    if test.returncode != 0:
        raise RuntimeError(f"nginx refused its configuration {conf}: {test.stderr.strip()}")
    proc = subprocess.Popen([nginx, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    what = f"nginx on {listen}"
    streamlit_server.wait_until(proc, lambda: http_ok(health), what=what, timeout=20, every=0.1)
    return proc


@contextmanager
def serve_class(
    n: int,
    *,
    port: int = 0,
    host: str = "127.0.0.1",
    run_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    app_dir: Path = ROOT,
) -> Iterator[Class]:
    """Start Redis, ``n`` app servers and nginx (on ``host``:``port``, a free loopback port
    if 0); yield the :class:`Class`; stop them all (nginx first, Redis last). ``run_dir``
    holds the configurations and logs (a temp directory, removed afterwards, if None);
    ``app_dir`` is the app's copy the servers run (this repository by default)."""
    if n < 1:
        raise ValueError("a class needs at least one app server")
    with ExitStack() as stack:
        if run_dir is None:
            run_dir = Path(tempfile.mkdtemp(prefix="perceptron-class-"))
            stack.callback(shutil.rmtree, run_dir, ignore_errors=True)
        run_dir = run_dir.resolve()
        run_dir.mkdir(parents=True, exist_ok=True)
        work_dir = run_dir
        if os.geteuid() == 0:
            # nginx's workers run as nobody and must pass through every directory above
            # their temp files, cache and socket: under a private one (/root, pytest's
            # temp directories) they get a directory of their own in the system's temp.
            if not _others_pass(run_dir):
                work_dir = Path(tempfile.mkdtemp(prefix="perceptron-nginx-"))
                stack.callback(shutil.rmtree, work_dir, ignore_errors=True)
            work_dir.chmod(0o711)
        port = port or streamlit_server.free_port()
        redis_port = streamlit_server.free_port()
        redis = _start_redis(run_dir, redis_port)
        stack.callback(streamlit_server.stop, redis)
        extra = dict(env or {})
        store_env = extra | {"PERCEPTRON_STORE": f"redis://127.0.0.1:{redis_port}/0"}
        apps: list[App] = []
        for i in range(n):  # side by side: each takes seconds to import
            with open(run_dir / f"app-{i}.log", "wb") as log:
                proc, url = streamlit_server.launch(
                    "app.py", log=log, env=store_env, app_dir=app_dir
                )
            apps.append(App(streamlit_server.port_of(url), proc))
            stack.callback(_stop_app, apps[-1])
        for i, app in enumerate(apps):
            streamlit_server.wait_ready(app.proc, app.url, what=f"app server {i} ({app.url})")
        listen = f"{host}:{port}" if host else str(port)
        health = f"http://127.0.0.1:{port}/_stcore/health"
        icons = icon_font()
        upstreams = [a.address for a in apps]
        nginx = _start_nginx(run_dir, work_dir, listen, upstreams, health, icons)
        stack.callback(streamlit_server.stop, nginx)
        yield Class(port, run_dir, redis_port, apps, redis, nginx, extra, app_dir, icons)


# ---------------------------------------------------------------------------- command line


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one): one
    Streamlit process runs Python on one core at a time, so a class gets one app server
    per core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS has no affinity
        return max(1, os.cpu_count() or 1)


MAX_SERVERS = 64  # more would be a typo: each app server holds ~350 MB


def servers(text: str) -> int:
    """The command line's N: a whole number of app servers, 1 to ``MAX_SERVERS``."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be a whole number, not {text!r}") from None
    if not 1 <= n <= MAX_SERVERS:
        raise argparse.ArgumentTypeError(f"N must be 1 to {MAX_SERVERS}, not {n}")
    return n


def _serve(args: argparse.Namespace) -> int:
    stop = {"signal": 0}
    if args.n is None:
        args.n = cores()

    def on_signal(signum: int, _frame: object) -> None:
        stop["signal"] = signum

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    run_dir = Path(args.run_dir) if args.run_dir else None
    print(f"starting redis-server, {args.n} app servers and nginx ...", flush=True)
    compression = (
        "gzip and brotli (brotli reaches browsers over https or on localhost only)"
        if brotli_module()
        else "gzip (for brotli too: apt-get install libnginx-mod-http-brotli-filter)"
    )
    with serve_class(args.n, port=args.port, host=args.host, run_dir=run_dir) as cls:
        where = "every interface" if args.host in ("", "0.0.0.0") else args.host
        print(
            f"Perceptron Lab for a class: http://{args.host or 'localhost'}:{cls.port}/ "
            f"(nginx on {where}, port {cls.port})\n"
            f"  app servers: {', '.join(a.url for a in cls.apps)} (loopback only)\n"
            f"  store: {cls.store} (loopback only, protected mode)\n"
            f"  compression: {compression}\n"
            f"  icons: {cls.icons.why if cls.icons else '?'}\n"
            f"  configurations and logs: {cls.run_dir}\n"
            "Ctrl-C stops them all.",
            flush=True,
        )
        said: set[str] = set()
        while not stop["signal"]:
            named = [(f"app server {i}", a.proc) for i, a in enumerate(cls.apps)]
            for name, proc in [*named, ("redis-server", cls.redis), ("nginx", cls.nginx)]:
                if proc.poll() is not None and name not in said:
                    said.add(name)
                    print(f"{name} stopped (exit {proc.returncode}); see {cls.run_dir}", flush=True)
            time.sleep(0.5)
        print("stopping ...", flush=True)
    print("stopped.", flush=True)
    return 0


def _render(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir).resolve()
    if args.what == "nginx":
        icons = icon_font()
        print(f"icons: {icons.why}", file=sys.stderr)
        conf = nginx_conf(listen=args.listen, upstreams=args.upstream, run_dir=run_dir, icons=icons)
        print(conf, end="")
    else:
        print(
            redis_conf(port=args.port, run_dir=run_dir, bind=args.bind, password=args.password),
            end="",
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="N app servers, Redis and nginx on this machine")
    serve.add_argument(
        "n",
        type=servers,
        nargs="?",
        default=None,
        help="app servers (default: one per core this process may use)",
    )
    serve.add_argument("--port", type=int, default=8080, help="nginx's port (8080)")
    serve.add_argument(
        "--host",
        default="0.0.0.0",
        help="nginx's address (0.0.0.0: every interface, for the students' devices; "
        "127.0.0.1: this machine only)",
    )
    serve.add_argument("--run-dir", help="configurations and logs (default: a temp directory)")
    render_ = sub.add_parser("render", help="print a configuration for other machines")
    render_.add_argument("what", choices=("nginx", "redis"))
    render_.add_argument("--run-dir", required=True, help="where its pid, logs, temp files go")
    render_.add_argument("--listen", default="80", help="nginx: PORT or ADDRESS:PORT")
    render_.add_argument("--upstream", action="append", default=[], help="nginx: HOST:PORT")
    render_.add_argument("--bind", default="127.0.0.1", help="redis: loopback or private")
    render_.add_argument("--port", type=int, default=6379, help="redis: its port")
    render_.add_argument("--password", help="redis: required off loopback")
    args = parser.parse_args(argv)
    try:
        return _serve(args) if args.command == "serve" else _render(args)
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
