"""The configurations of a class's nginx and Redis, filled in from their templates
(``deploy/nginx.conf.template``, ``deploy/redis.conf.template``), and the icon font nginx
serves (``deploy/fonts/``): the text ``deploy.class_server`` writes into its run directory,
and ``render nginx`` / ``render redis`` print for other machines.

May import: the standard library.
"""

from __future__ import annotations

import grp
import hashlib
import importlib.util
import ipaddress
import json
import os
import pwd
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
NGINX_TEMPLATE = DEPLOY / "nginx.conf.template"
REDIS_TEMPLATE = DEPLOY / "redis.conf.template"
PLACEHOLDER = re.compile(r"@@([A-Z_]+)@@")
HOST_PORT = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):\d{1,5}$")
LISTEN = re.compile(r"^(?:(?:[0-9.]+|\[[0-9A-Fa-f:]+\]|localhost):)?\d{1,5}$")
MAX_FAILS, FAIL_TIMEOUT_S = 2, 10  # passive health check: failures within the timeout
REDIS_MAXMEMORY_MB = 300  # backstop over the store's own cap (PERCEPTRON_STORE_MAX_MB, 256)
# Where Redis may listen besides loopback: RFC 1918's networks and IPv6 unique local ones
# (a machine's address inside the class's network), never 0.0.0.0 or a public address.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
# Debian's brotli filter for nginx (libnginx-mod-http-brotli-filter): compresses what nginx
# sends. Its sibling brotli_static serves precompressed files from disk; nginx here has one
# file of its own, the icon font, compressed already (woff2), so only the filter is loaded.
BROTLI_FILTER = "ngx_http_brotli_filter_module.so"
MODULES_PATH = re.compile(r"--modules-path=(\S+)")
DEBIAN_MODULES = Path("/usr/lib/nginx/modules")
STATIC_CACHE_MB = (
    100  # nginx's cache of the frontend's files, compressed (deploy/nginx.conf.template)
)
# The icon font students get: Streamlit's Material Symbols Rounded cut to the icons the app
# can show (scripts/subset_icons.py wrote it and its manifest, with the SHA-256 of the font
# it was cut from).
ICON_MANIFEST = DEPLOY / "fonts" / "MaterialSymbols-Rounded.subset.json"


def tool(name: str) -> str:
    """The path of a Debian tool (nginx is in /usr/sbin, often not on a user's PATH)."""
    found = shutil.which(name) or next(
        (
            f"{d}/{name}"
            for d in ("/usr/sbin", "/usr/local/sbin", "/sbin")
            if Path(d, name).is_file()
        ),
        None,
    )
    if found is None:
        raise FileNotFoundError(
            f"{name} is not installed: apt-get install redis-server nginx (Debian packages)"
        )
    return found


# ---------------------------------------------------------------------------- configs


def render(template: str, values: Mapping[str, str]) -> str:
    """``template`` with every ``@@NAME@@`` replaced by ``values[NAME]`` (KeyError if one
    has no value: no placeholder is left in a configuration)."""

    def value(match: re.Match[str]) -> str:
        return values[match.group(1)]

    return PLACEHOLDER.sub(value, template)


def _user_line() -> str:
    """nginx's ``user`` directive: it applies only to a master started as root, whose
    workers then run as nobody (they only pass bytes on and write their temp files)."""
    if os.geteuid() != 0:
        return "# (no user directive: nginx runs as the user who started it)"
    nobody = pwd.getpwnam("nobody")
    return f"user nobody {grp.getgrgid(nobody.pw_gid).gr_name};"


def modules_dir() -> Path:
    """Where this machine's nginx loads its dynamic modules from: the ``--modules-path``
    it was built with (``nginx -V``), Debian's /usr/lib/nginx/modules if it names none
    or there is no nginx."""
    try:
        built = subprocess.run([tool("nginx"), "-V"], capture_output=True, text=True, timeout=10)
    except (FileNotFoundError, OSError, subprocess.TimeoutExpired):
        return DEBIAN_MODULES
    found = MODULES_PATH.search(built.stderr + built.stdout)
    return Path(found.group(1)) if found else DEBIAN_MODULES


def brotli_module() -> Path | None:
    """The brotli filter module of this machine's nginx, or None if it is not installed."""
    path = modules_dir() / BROTLI_FILTER
    return path if path.is_file() else None


@dataclass(frozen=True)
class IconFont:
    """Which Material Symbols Rounded a student gets through nginx: the subset, at the
    original's URL (``/static/media/MaterialSymbols-Rounded.<hash>.woff2``), or, with
    ``subset`` None, the app servers' original; ``why`` says which, in a line."""

    url: str
    subset: Path | None
    why: str


def streamlit_media() -> Path | None:
    """The installed Streamlit's font folder (``streamlit/static/static/media``), found
    without importing Streamlit; None if Streamlit is not installed."""
    spec = importlib.util.find_spec("streamlit")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "static" / "static" / "media"


def icon_font(media: Path | None = None, manifest: Path = ICON_MANIFEST) -> IconFont:
    """The subset of ``manifest`` if the installed Streamlit's font (in ``media``, the
    installed Streamlit's if None) is the very file it was cut from (its SHA-256): a
    subset of another font could lack an icon that Streamlit draws, and it would show its
    name in letters instead. Otherwise the original, and why."""
    try:
        made = json.loads(manifest.read_text(encoding="utf-8"))
        name, digest = str(made["original"]), str(made["original_sha256"])
        subset = manifest.parent / str(made["subset"])
    except (OSError, ValueError, KeyError) as exc:
        return IconFont("", None, f"the original icon font: no subset's manifest ({exc})")
    url = f"/static/media/{name}"
    media = media or streamlit_media()
    original = media / name if media else None
    if original is None or not original.is_file():
        return IconFont(
            url,
            None,
            f"the original icon font: this Streamlit has no {name}, the font the subset "
            f"was cut from (Streamlit {made.get('streamlit')}); python3 "
            "scripts/subset_icons.py cuts one from the installed Streamlit's",
        )
    if hashlib.sha256(original.read_bytes()).hexdigest() != digest:
        return IconFont(
            url,
            None,
            f"the original icon font ({original.stat().st_size / 1000:,.0f} kB): this "
            f"Streamlit's {name} is not the one the subset was cut from (SHA-256 "
            f"{digest[:12]}...); python3 scripts/subset_icons.py cuts a new one",
        )
    if not subset.is_file() or hashlib.sha256(subset.read_bytes()).hexdigest() != str(
        made.get("subset_sha256")
    ):
        return IconFont(url, None, f"the original icon font: {subset} is not its manifest's")
    return IconFont(
        url,
        subset,
        f"the icon font cut to the app's icons, {subset.stat().st_size / 1000:,.0f} kB "
        f"instead of {original.stat().st_size / 1000:,.0f} kB ({subset.name})",
    )


def nginx_conf(
    *,
    listen: str,
    upstreams: Sequence[str],
    run_dir: Path,
    max_fails: int = MAX_FAILS,
    fail_timeout_s: int = FAIL_TIMEOUT_S,
    brotli: bool | None = None,
    static_cache_mb: int = STATIC_CACHE_MB,
    work_dir: Path | None = None,
    icons: IconFont | None = None,
    icon_file: Path | None = None,
) -> str:
    """nginx's configuration: listen on ``listen`` ("8080", "127.0.0.1:8080") in front of
    the app servers ``upstreams`` ("127.0.0.1:8501", "10.0.0.11:8501"), pid and logs under
    ``run_dir``, the workers' temp files, cache and socket under ``work_dir`` (``run_dir``
    if None). Compressed with gzip, and with brotli if ``brotli`` (None: if this
    machine's nginx has the module; True without it is a ValueError); the frontend's
    files cached in at most ``static_cache_mb`` MB. The icon font: ``icons`` (this
    machine's :func:`icon_font` if None); its subset, if any, read by nginx from
    ``icon_file`` (the subset itself if None)."""
    if not upstreams:
        raise ValueError("at least one app server is needed")
    for upstream in upstreams:
        if not HOST_PORT.match(upstream):
            raise ValueError(f"an app server is HOST:PORT, not {upstream!r}")
    if not LISTEN.match(listen):
        raise ValueError(f"nginx listens on PORT or ADDRESS:PORT, not {listen!r}")
    work_dir = work_dir or run_dir
    for path in (run_dir, work_dir):
        if not path.is_absolute() or re.search(r"[\s;{}'\"$#]", str(path)):
            raise ValueError(f"the run directory must be an absolute plain path: {path}")
    icons = icons or icon_font()
    icon_file = icon_file or icons.subset
    if icon_file is not None and (
        not icon_file.is_absolute() or re.search(r"[\s;{}'\"$#]", str(icon_file))
    ):
        raise ValueError(f"the icon font's path must be an absolute plain path: {icon_file}")
    if len(str(work_dir / "compressor.sock")) > 100:  # a Unix socket's path: 107 bytes at most
        raise ValueError(f"the run directory's path is too long for nginx's socket: {work_dir}")
    if static_cache_mb < 1:
        raise ValueError("nginx's cache of the frontend's files needs at least 1 MB")
    module = brotli_module() if brotli is not False else None
    if brotli and module is None:
        raise ValueError(
            f"this nginx has no brotli module ({modules_dir() / BROTLI_FILTER}): "
            "apt-get install libnginx-mod-http-brotli-filter"
        )
    servers = "\n".join(
        f"        server {u} max_fails={max_fails} fail_timeout={fail_timeout_s}s;"
        for u in upstreams
    )
    return render(
        NGINX_TEMPLATE.read_text(encoding="utf-8"),
        {
            "USER_LINE": _user_line(),
            "RUN_DIR": str(run_dir),
            "WORK_DIR": str(work_dir),
            "LISTEN": listen,
            "UPSTREAM_SERVERS": servers,
            "BR": "" if module else "# ",
            "BROTLI_MODULE": str(module or modules_dir() / BROTLI_FILTER),
            "STATIC_CACHE_MB": str(static_cache_mb),
            "ICONS": "" if icons.subset and icon_file else "# ",
            "ICON_URL": icons.url or "/static/media/MaterialSymbols-Rounded.woff2",
            "ICON_FILE": str(icon_file or "(none)"),
        },
    )


def redis_conf(
    *,
    port: int,
    run_dir: Path,
    bind: str = "127.0.0.1",
    password: str | None = None,
    maxmemory_mb: int = REDIS_MAXMEMORY_MB,
) -> str:
    """redis-server's configuration: on loopback (the default), or on a private address
    with a password; never on a public one."""
    address = ipaddress.ip_address(bind)
    if not address.is_loopback:
        if not any(address in net for net in PRIVATE_NETWORKS):
            raise ValueError(
                f"Redis listens on loopback or a private address, never on {bind} "
                "(only nginx faces the students)"
            )
        if not password or len(password) < 16:
            raise ValueError("Redis on a private address needs a password of 16+ characters")
    if password is not None and re.search(r"\s", password):
        raise ValueError("the Redis password cannot hold spaces")
    return render(
        REDIS_TEMPLATE.read_text(encoding="utf-8"),
        {
            "BIND": bind,
            "PORT": str(port),
            "RUN_DIR": str(run_dir),
            "MAXMEMORY_MB": str(maxmemory_mb),
            "REQUIREPASS_LINE": (
                f"requirepass {password}"
                if password
                else "# no password: reachable from this machine only (bind, protected mode)"
            ),
        },
    )
