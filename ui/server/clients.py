"""Who is asking, and how much each may ask: a client is an address and a browser together.

**The address** is the connection's peer; a peer that is a proxy the app trusts (loopback,
where ``deploy/``'s nginx runs, or an address listed in ``PERCEPTRON_PROXIES``) passes the
address it saw in ``X-Real-IP``. **The browser** is the app's own cookie
``perceptron_browser``, which the door (``ui.server.door``) sets on the first page a
browser loads: 32 random hex digits, when it was issued, and an HMAC of both under the
server's secret (``PERCEPTRON_SECRET``, which a deployment's servers share; else one made
at the process's start). Every tab of one browser shares it, two phones never do, and a
client that sends none, one not signed by this secret, or one over a year old (a script
writing its own, or replaying an old one) is the browser "" of its address: a name costs
a page load of the server, never a line of a script.

Students behind one NAT share an address, so every action has two limits (``LIMITS``):
a tight one per browser (its address and cookie together) and a looser one per address,
sized for a lecture hall of 300 behind one address. A client over either is refused with
the action's sentence; nobody else waits for it. Counts live in this process, bounded
(``MAX_CLIENTS`` most recent of each kind): each server of a deployment counts its own
clients, and nginx keeps a browser on one server.

**The door** is ``ui.server.door``, an ASGI middleware in front of Streamlit: it counts a
new tab at its connection, refuses a script past its rate before it is a session, marks
the connection of a browser past its rate, or of a full server (past ``max_sessions()``
open connections), and closes it ``CLOSE_AFTER_S`` later; it closes connections idle for
``IDLE_S``. Here, :func:`admit` (a session's first run) reads that mark and says why in a
sentence (a browser reconnects by itself and is let in once there is room); the server
raises its open-file limit to the hard limit at its first connection (:func:`start_once`).

May import: the standard library, ``perceptron_store.ratelimit``, ``ui.server.loops``,
``ui.words`` (the sentences a person reads).
"""

from __future__ import annotations

import faulthandler
import hashlib
import hmac
import ipaddress
import logging
import os
import re
import secrets
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from perceptron_store.ratelimit import RateLimit
from ui.server import loops
from ui.words import N_, t, tn

_LOG = logging.getLogger(__name__)
PROXIES_ENV = "PERCEPTRON_PROXIES"  # more trusted proxies: "10.0.0.5,10.0.0.6"
SESSIONS_ENV = "PERCEPTRON_MAX_SESSIONS"
# files one open tab holds: its websocket; and, where the sessions do not share one script
# loop (ui.server.loops), the loop Streamlit 1.67 gives every session (an epoll
# and a socket pair). Measured by tests/load/test_door.py.
FILES_PER_TAB = 1
FILES_PER_TAB_OWN_LOOP = 4
MAX_SESSIONS_DEFAULT = 2000
IDLE_S = 2 * 3600.0  # a connection the browser sent nothing on this long is closed (a lecture
# is shorter, and a page in a class sends a fragment's rerun every few seconds)
CLOSE_AFTER_S = 3.0  # a refused session's sentence is shown this long before it is closed
BROWSER_COOKIE = "perceptron_browser"  # set by ui.server.door on a page's response
BROWSER_MAX_AGE_S = 365 * 24 * 3600  # a browser keeps its name a year
SECRET_ENV = "PERCEPTRON_SECRET"  # the key browsers' names are signed with (any text)
# a browser's cookie: its name, when it was issued (Unix seconds, hex) and their signature
_BROWSER_SHAPE = re.compile(r"([0-9a-f]{32})\.([0-9a-f]{8})\.([0-9a-f]{32})")
# The door's mark on a connection's handshake (``ui.server.door``; Streamlit passes the
# handshake's headers to the session as ``st.context.headers``), and the connection's id
DOOR_HEADER = "x-perceptron-door"
STREAM_HEADER = "x-perceptron-stream"
IN, AGAIN, TAB, FULL_MARK = "in", "again", "tab", "full"  # the marks (see admit)
MAX_CLIENTS = 20_000  # buckets kept per process (a few hundred bytes each)
LOCAL = "_local_browser"  # declared in ui.app.state.SESSION_KEYS: a session without a browser


@dataclass(frozen=True)
class Client:
    """Where a session comes from: its ``address`` and its ``browser`` cookie ("" if none)."""

    address: str
    browser: str

    @property
    def key(self) -> str:
        return f"{self.address}|{self.browser}"


@dataclass(frozen=True)
class Limit:
    """How often a client may do one thing: ``per_browser`` and ``per_address``, each
    (rate a second, burst); ``refused`` is what the page says."""

    per_browser: tuple[float, int]
    per_address: tuple[float, int]
    refused: str


HOUR = 3600.0
LIMITS: dict[str, Limit] = {
    # a new tab (a session's first run); a hall of 300 arriving through one NAT in a minute
    "tab": Limit(
        (1.0, 12),
        (10.0, 300),
        N_("Too many new tabs from this device just now: wait a few seconds, then reload."),
    ),
    # a new tab of a client without a browser token: every browser has Streamlit's cookie
    # from the page it loaded, so this is a script; a few let in, not a hall's burst
    "script tab": Limit(
        (0.2, 3),
        (10.0, 300),
        N_("Too many new tabs from this device just now: wait a few seconds, then reload."),
    ),
    # Start a class
    "room": Limit(
        (1 / 600, 3),
        (1 / 60, 20),
        N_(
            "You started several classes just now: use the one you have open, or wait a few "
            "minutes."
        ),
    ),
    # a join form sent from a light page (each reads the store; a Streamlit page's join is
    # bounded by its session)
    "join": Limit(
        (0.2, 5),
        (20.0, 600),
        N_("Too many attempts: wait a few seconds and try again."),
    ),
    # a press of the lecturer's remote, or its view asked for (every 2 s while a question
    # is open): each reads the store
    "remote": Limit(
        (4.0, 20),
        (40.0, 400),
        N_("Too many presses at once: wait a moment and press again."),
    ),
    # a new seat in a class (joining again keeps one's seat)
    "seat": Limit(
        (1 / 10, 4),
        (10.0, 300),
        N_("Too many seats taken from this device just now: wait a few seconds and join again."),
    ),
    # a class code that opens no class: slows the guesser, never the class (31^8 codes:
    # at a tab's rate of fresh browsers, finding one of 100 open classes takes years)
    "wrong code": Limit(
        (0.2, 5),
        (20.0, 600),
        N_("Too many codes that open no class: wait a few seconds and try again."),
    ),
    # a new dataset kept in the store (a link's data)
    "dataset": Limit(
        (30 / HOUR, 30),
        (300 / HOUR, 300),
        N_(
            "Too many new datasets from this device in the last hour: this one is not kept for "
            "a link (the page works on)."
        ),
    ),
    # bytes of new datasets kept in the store
    "bytes": Limit(
        (20e6 / HOUR, 20_000_000),
        (200e6 / HOUR, 200_000_000),
        N_(
            "Too many megabytes of datasets from this device in the last hour: this one is not "
            "kept for a link (the page works on)."
        ),
    ),
}

_LOCK = threading.Lock()
_BUCKETS: OrderedDict[tuple[str, str], RateLimit] = OrderedDict()
_HELD: OrderedDict[tuple[str, str], int] = OrderedDict()  # (what, browser) -> count held


def _trusted(peer: str) -> bool:
    if peer in ("", "127.0.0.1", "::1"):
        return True
    extra = {p.strip() for p in os.environ.get(PROXIES_ENV, "").split(",") if p.strip()}
    return peer in extra


def secure(scheme: str, peer: str | None, headers: Mapping[str, str]) -> bool:
    """Whether the browser reached the app over HTTPS: the connection's ``scheme``, or a
    trusted proxy's ``X-Forwarded-Proto`` (nginx ends TLS in front of the app servers)."""
    if scheme in ("https", "wss"):
        return True
    forwarded = headers.get("X-Forwarded-Proto") or headers.get("x-forwarded-proto") or ""
    return _trusted(peer or "") and forwarded.strip().lower() == "https"


def _address(text: object) -> str | None:
    try:
        return str(ipaddress.ip_address(str(text).strip()[:64]))
    except ValueError:
        return None


def client_of(peer: str | None, headers: Mapping[str, str], cookies: Mapping[str, str]) -> Client:
    """The client of a connection: its ``peer`` (None: loopback), the handshake's ``headers``
    and ``cookies``. A trusted proxy's ``X-Real-IP`` names the address; anyone else's is
    ignored (a browser could write any)."""
    address = peer or "127.0.0.1"
    if _trusted(peer or ""):
        forwarded = _address(headers.get("X-Real-IP") or headers.get("x-real-ip") or "")
        address = forwarded or address
    return Client(address, browser_of(cookies))


def browser_of(cookies: Mapping[str, str] | None, *, now: float | None = None) -> str:
    """The browser named by the ``perceptron_browser`` cookie of ``cookies``, if this
    server's secret signed it in the last year (:func:`signed_browser`), else "": anything
    else a client sends names no browser."""
    value = str((cookies or {}).get(BROWSER_COOKIE, "") or "")[:100]
    found = _BROWSER_SHAPE.fullmatch(value)
    if found is None:
        return ""
    name, issued, _ = found.groups()
    age = (time.time() if now is None else now) - int(issued, 16)
    if not -60 <= age <= BROWSER_MAX_AGE_S:  # a minute's slack for another server's clock
        return ""
    return name if hmac.compare_digest(value, signed_browser(name, int(issued, 16))) else ""


def signed_browser(name: str, issued: float | None = None) -> str:
    """The cookie's value naming browser ``name`` (32 hex digits), ``issued`` then (now)."""
    at = f"{int(time.time() if issued is None else issued) & 0xFFFFFFFF:08x}"
    mac = hmac.new(_secret(), f"{name}.{at}".encode(), hashlib.sha256).hexdigest()[:32]
    return f"{name}.{at}.{mac}"


def network_tag(address: str) -> str:
    """A short keyed hash of a network ``address``: seats from one address can be counted
    together without any address kept."""
    return hmac.new(_secret(), b"net:" + address.encode(), hashlib.sha256).hexdigest()[:12]


def new_browser() -> str:
    """A new browser's cookie value."""
    return signed_browser(secrets.token_hex(16))


def shared_secret() -> str:
    """``PERCEPTRON_SECRET``; without one, a random one made once and put in this process's
    environment, where the servers it starts (a deployment's, a test's) find it."""
    return os.environ.get(SECRET_ENV) or os.environ.setdefault(SECRET_ENV, secrets.token_hex(32))


def _secret() -> bytes:
    return hashlib.sha256(b"perceptron-browser:" + shared_secret().encode()).digest()


def current() -> Client:
    """The client of the session whose script runs now (its browser from
    ``st.context.cookies``). A session without a connection (AppTest, a bare script: no
    handshake headers) is a browser of its own on loopback."""
    import streamlit as st

    try:
        ctx = st.context
        headers = ctx.headers
        if headers:
            return client_of(ctx.ip_address, headers, ctx.cookies)
    except Exception:  # no context at all: the same as no connection
        pass
    try:
        local = st.session_state.setdefault(LOCAL, secrets.token_hex(8))
    except Exception:  # outside any session
        local = ""
    return Client("127.0.0.1", f"local:{local}")


def _bucket(kind: str, who: str, rate: float, burst: int) -> RateLimit:
    key = (kind, who)
    bucket = _BUCKETS.get(key)
    if bucket is None:
        bucket = _BUCKETS[key] = RateLimit(rate, burst)
        while len(_BUCKETS) > MAX_CLIENTS:
            _BUCKETS.popitem(last=False)
    _BUCKETS.move_to_end(key)
    return bucket


def allow(
    action: str,
    client: Client,
    *,
    cost: float = 1.0,
    now: float | None = None,
    take: bool = True,
    browser_only: bool = False,
) -> bool:
    """Whether ``client`` may do ``action`` (a key of ``LIMITS``) now; if so it is counted
    (``cost``: how much of the limit it takes, 1, or bytes for "bytes"; ``take=False``:
    only asked, not counted; ``browser_only``: the browser's limit alone is asked, not its
    address's, which a hall behind one NAT shares)."""
    limit = LIMITS[action]
    with _LOCK:
        mine = _bucket(f"{action}/browser", client.key, *limit.per_browser)
        buckets = [mine]
        if not browser_only:
            buckets.append(_bucket(f"{action}/address", client.address, *limit.per_address))
        if not all(b.allow(now, cost, take=False) for b in buckets):
            return False
        if take:
            for b in buckets:
                b.allow(now, cost)
        return True


def refused(action: str) -> str:
    """The sentence a client over ``action``'s limit is shown (English outside a run)."""
    return t(LIMITS[action].refused)


def hold(what: str, client: Client, most: int) -> bool:
    """Take one of at most ``most`` of ``what`` (say the seats of one class) for
    ``client``'s browser; False when it holds that many already."""
    key = (what, client.key)
    with _LOCK:
        n = _HELD.get(key, 0)
        if n >= most:
            return False
        _HELD[key] = n + 1
        _HELD.move_to_end(key)
        while len(_HELD) > MAX_CLIENTS:
            _HELD.popitem(last=False)
        return True


def give_back(what: str, client: Client) -> None:
    """One of ``what`` that ``client`` held is free again."""
    key = (what, client.key)
    with _LOCK:
        n = _HELD.get(key, 0)
        if n <= 1:
            _HELD.pop(key, None)
        else:
            _HELD[key] = n - 1


# ---------------------------------------------------------------------------------- the door


def max_sessions() -> int:
    """Sessions one server holds: ``PERCEPTRON_MAX_SESSIONS``, else 2,000 or what its
    open-file limit allows (a quarter of the files kept for everything else)."""
    setting = os.environ.get(SESSIONS_ENV, "").strip()
    if setting.isdigit() and int(setting) > 0:
        return int(setting)
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return MAX_SESSIONS_DEFAULT
    if soft == resource.RLIM_INFINITY:
        return MAX_SESSIONS_DEFAULT
    return max(10, min(MAX_SESSIONS_DEFAULT, int(soft * 0.75) // files_per_tab()))


def files_per_tab() -> int:
    """Open files a tab holds on this server (``FILES_PER_TAB``, or four where every
    session has a script loop of its own)."""
    return FILES_PER_TAB if loops.shared() else FILES_PER_TAB_OWN_LOOP


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's open-file soft limit to its hard limit (every websocket is a
    file; 1,024, a common default, is 500 tabs); returns (soft, hard) after."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return (-1, -1)


FULL = (
    "This server is full: {n} connected, as many as it holds. Your page reconnects by "
    "itself in a moment; if it does not, reload it in a minute."
)


def full_sentence(cap: int) -> str:
    """:data:`FULL` for a server that holds ``cap`` people, in the run's language (English
    outside a run: the door's)."""
    return tn(
        "This server is full: {n} person is connected, as many as it holds. Your page "
        "reconnects by itself in a moment; if it does not, reload it in a minute.",
        "This server is full: {n} people are connected, as many as it holds. Your page "
        "reconnects by itself in a moment; if it does not, reload it in a minute.",
        cap,
    ).format(n=f"{cap:,}")


_STARTED = threading.Event()
# the door's: close the connection with this id that many seconds from now (False: none)
_CLOSERS: list[Callable[[str, float], bool]] = []
# the door's: the connection with this id is this session's (False: no such connection)
_NAMERS: list[Callable[[str, str], bool]] = []


def handshake() -> Mapping[str, str]:
    """The headers of the handshake of this session's connection (``st.context.headers``),
    where the door put its mark; empty without a connection (AppTest, a bare script)."""
    import streamlit as st

    try:
        return st.context.headers
    except Exception:  # no context at all: the same as no connection
        return {}


def admit(client: Client, headers: Mapping[str, str]) -> str | None:
    """A session's first run: None to go on, or the sentence of a refusal (the door closes
    its connection ``CLOSE_AFTER_S`` later). ``headers``: its connection's handshake
    (:func:`handshake`), with the door's mark:

    - ``in``: counted at the door and let in; ``tab``: a browser past its rate of new tabs;
      ``full``: the server held ``max_sessions()`` connections already;
    - ``again``: a reconnection (the browser named a session of its own), which the door
      does not count: a tab whose session lives on is no new tab. Its session is new here
      (it ran nothing yet), so its tab is counted now, and when past the rate the door is
      asked to close its connection;
    - none: no door in front (AppTest, a bare script): nobody to count."""
    mark = _header(headers, DOOR_HEADER)
    if mark == FULL_MARK:
        cap = max_sessions()
        return full_sentence(cap)
    if mark == TAB:
        return refused("tab")
    if mark != AGAIN or allow(tab_action(client), client):
        return None
    said = refused("tab")
    _LOG.warning("perceptron: refused a new tab (a reconnection past its rate): %s", said)
    close_stream(_header(headers, STREAM_HEADER), CLOSE_AFTER_S)
    return said


def _header(headers: Mapping[str, str], name: str) -> str:
    """Header ``name`` of ``headers``, whatever the case of its keys ("" if none)."""
    value = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if k.lower() == name), "")
    return str(value or "")


def tab_action(client: Client) -> str:
    """The limit a new tab of ``client`` counts against: a browser's, or a script's."""
    return "tab" if client.browser else "script tab"


def on_close(closer: Callable[[str, float], bool]) -> None:
    """The door's way to close one of its connections (by the id in ``STREAM_HEADER``)."""
    with _LOCK:
        if closer not in _CLOSERS:
            _CLOSERS.append(closer)


def on_name(namer: Callable[[str, str], bool]) -> None:
    """The door's way to learn a connection's session (:func:`name_stream`)."""
    with _LOCK:
        if namer not in _NAMERS:
            _NAMERS.append(namer)


def name_stream(headers: Mapping[str, str], session_id: str | None) -> None:
    """Tell the door that the connection in ``headers`` (``STREAM_HEADER``) is session
    ``session_id``'s: a whole-page run calls it (a reconnection is a new connection of the
    same session), so that the door reads each frame against that session's widgets."""
    stream = _header(headers, STREAM_HEADER)
    if not stream or not session_id:
        return
    with _LOCK:
        namers = list(_NAMERS)
    for namer in namers:
        namer(stream, session_id)


_GONE: OrderedDict[str, dict[str, Callable[[], None]]] = OrderedDict()  # session -> what to do


def when_gone(session_id: str | None, name: str, then: Callable[[], None]) -> None:
    """Call ``then`` (once, on a thread of its own: it may write the store) when a
    connection of session ``session_id`` closes: its tab closed, or its network dropped
    (a reconnection's run asks again). ``name`` keeps one such call per purpose."""
    if not session_id:
        return
    with _LOCK:
        _GONE.setdefault(session_id, {})[name] = then
        _GONE.move_to_end(session_id)
        while len(_GONE) > MAX_CLIENTS:
            _GONE.popitem(last=False)


def stream_ended(session_id: str | None) -> None:
    """The door: a connection of session ``session_id`` closed (see :func:`when_gone`)."""
    if not session_id:
        return
    with _LOCK:
        calls = list(_GONE.pop(session_id, {}).values())
    for call in calls:
        threading.Thread(target=_quietly, args=(call,), name="perceptron-gone", daemon=True).start()


def _quietly(call: Callable[[], None]) -> None:
    try:
        call()
    except Exception:  # the store is down: the seat is counted out a minute later anyway
        _LOG.warning("perceptron: a closed tab's clean-up failed", exc_info=True)


def close_stream(stream: str, after: float = 0.0) -> bool:
    """Have the door close connection ``stream`` ``after`` seconds from now (from any
    thread); False if no door knows it."""
    with _LOCK:
        closers = list(_CLOSERS)
    return any(closer(stream, after) for closer in closers) if stream else False


def start_once() -> None:
    """Once per process (the door's first connection): raise the file limit and have
    ``SIGUSR1`` print every thread's stack to the server's log (what a stuck server is
    doing, without a debugger: ``kill -USR1 <pid>``)."""
    with _LOCK:
        if _STARTED.is_set():
            return
        _STARTED.set()
    raise_file_limit()
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, all_threads=True)


def reset() -> None:
    """Forget every count (for tests)."""
    with _LOCK:
        _BUCKETS.clear()
        _HELD.clear()
        _GONE.clear()
