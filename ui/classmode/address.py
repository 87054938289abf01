"""The join address: the address students' phones open, or why there is none.

A lecturer who runs the app (``python3 scripts/run.py``) on the lecture laptop opens
``http://localhost:8501``, as Streamlit suggests; a QR code of that address takes every
phone to itself. So the address comes, in this order, from:

1. ``PERCEPTRON_PUBLIC_URL`` (a deployment behind nginx or a domain name), as set;
2. the lecturer's page, when its host is not a loopback name or address;
3. this machine's network address (the one Streamlit prints as its "Network URL") with
   the page's scheme and port, once a connection to it on that port is answered: a server
   started with ``--server.address 127.0.0.1`` (or an nginx listening on loopback) is
   found out here, not by a hall of phones.

When none is reachable, :attr:`JoinAddress.problem` says so in plain words, with what to
do, and the projector shows that instead of a QR code.

May import: the standard library, Streamlit's public API, ``ui.words``.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from ui.words import N_, t

ENV = "PERCEPTRON_PUBLIC_URL"
FRESH_S = 30.0  # the network address and the answer on it are looked up again after this
PROBE_S = 0.3  # s: a connection to this machine's own address is answered at once or never
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


@dataclass(frozen=True)
class JoinAddress:
    """Where phones join: ``url`` (scheme, host and port, no path; empty when none is
    known) and, when phones cannot reach it, the ``problem`` in plain words."""

    url: str
    problem: str = ""

    @property
    def reachable(self) -> bool:
        return bool(self.url) and not self.problem


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) names this
    machine only: ``localhost``, 127.0.0.0/8, ``::1``, or the unspecified ``0.0.0.0``."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def _with_port(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def join_address(
    *,
    page_url: str,
    env: str,
    network: Callable[[], str | None],
    answers: Callable[[str, int], bool],
) -> JoinAddress:
    """The join address, from the lecturer's ``page_url`` (``st.context.url``), the
    ``env`` value of ``PERCEPTRON_PUBLIC_URL`` ("" when unset), this machine's
    ``network()`` address (None when it has none) and whether a connection to an
    (address, port) is ``answers``-ed. Pure but for those two callables."""
    env = env.strip()
    if env:
        parts = urlsplit(env)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return JoinAddress(
                "",
                t(
                    "{env} is not a web address (it should look like "
                    "http://192.168.1.20:8501 or https://perceptron.example.edu): "
                    "correct it and restart the app."
                ).format(env=ENV),
            )
        return JoinAddress(env.rstrip("/"))
    parts = urlsplit(page_url)
    if not parts.scheme or not parts.hostname:
        return JoinAddress("", t(_NOWHERE).format(env=ENV))
    if not is_loopback(parts.hostname):
        return JoinAddress(f"{parts.scheme}://{parts.netloc}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    here = network()
    if here is None:
        return JoinAddress("", t(_OFFLINE).format(env=ENV))
    url = f"{parts.scheme}://{_with_port(here)}:{port}"
    if not answers(here, port):
        return JoinAddress(url, t(_LOOPBACK_ONLY).format(url=url, env=ENV))
    return JoinAddress(url)


_NOWHERE = N_(
    "Phones cannot join yet: this page does not know the address it was opened at. Set "
    "{env} to the address students should open (http://<this laptop's address>:8501) "
    "and restart the app."
)
_OFFLINE = N_(
    "Phones cannot join: this laptop is on no network (it has no address but localhost). "
    "Connect it to the hall's Wi-Fi, or share a hotspot, then reload this page. Behind a "
    "web server or a domain name, set {env} to its address instead."
)
_LOOPBACK_ONLY = N_(
    "Phones cannot join: the app answers on this laptop only, not at {url}. Restart it "
    "with `python3 scripts/run.py --server.address 0.0.0.0` (the hall's Wi-Fi must let "
    "phones reach the laptop), or set {env} to an address students can open."
)


# -------------------------------------------------------------------- this machine, looked up

_LOCK = threading.Lock()
_SEEN: dict[object, tuple[float, object]] = {}  # what -> (when, answer), a few entries


def _fresh(what: object, look: Callable[[], object]) -> object:
    now = time.monotonic()
    with _LOCK:
        seen = _SEEN.get(what)
        if seen is not None and now - seen[0] < FRESH_S:
            return seen[1]
    answer = look()
    with _LOCK:
        if len(_SEEN) > 16:
            _SEEN.clear()
        _SEEN[what] = (now, answer)
    return answer


def _network_address() -> str | None:
    # A UDP socket "connected" to an outside address sends nothing; the kernel picks the
    # interface its packets would leave by, whose address is the one other machines see.
    for family, outside in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((outside, 9))
                address = str(s.getsockname()[0])
        except OSError:  # no route there: no network of that family
            continue
        if not is_loopback(address):
            return address
    return None


def network_address() -> str | None:
    """This machine's address on its network (IPv4 first), or None; looked up again after
    ``FRESH_S`` (a laptop changes networks)."""
    found = _fresh("network", _network_address)
    return found if isinstance(found, str) else None


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=PROBE_S):
            return True
    except OSError:
        return False


def answers(host: str, port: int) -> bool:
    """Whether a connection to ``host``:``port`` is accepted (remembered ``FRESH_S``)."""
    return bool(_fresh(("answers", host, port), lambda: _answers(host, port)))


def _page_url() -> str:
    import streamlit as st

    try:
        return str(st.context.url or "")
    except Exception:  # no session (a bare script): no page address
        return ""


def page_origin() -> str:
    """The scheme, host and port of the page of the session whose script runs now ("")."""
    parts = urlsplit(_page_url())
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def forget() -> None:
    """Look this machine's address and the answer on it up afresh (*Check again*)."""
    with _LOCK:
        _SEEN.clear()


def ready_sentence(join: JoinAddress) -> str:
    """Before class: whether phones can join, in words, for the lecturer (markdown; the
    address is quoted as code, never as a link or markup)."""
    if join.reachable:
        return t(
            "Phones on this network can join: the app answers at `{url}`. In the room, start "
            "the class from the sidebar (*Class mode*): the QR code carries this address."
        ).format(url=join.url.replace("`", ""))
    return join.problem


def current() -> JoinAddress:
    """The join address for the session whose script runs now."""
    return join_address(
        page_url=_page_url(),
        env=os.environ.get(ENV, ""),
        network=network_address,
        answers=answers,
    )
