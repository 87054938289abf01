"""ui.server.clients: who a client is, the limits per browser and per address, the seats a
browser holds, and what a session's first run says of the door's mark."""

import os
from dataclasses import replace

import pytest

from ui.server import clients


def test_a_browser_is_named_by_the_apps_signed_cookie_only():
    name = "00112233445566778899aabbccddeeff"
    value = clients.signed_browser(name)
    assert clients.browser_of({clients.BROWSER_COOKIE: value}) == name
    assert clients.browser_of({}) == "" and clients.browser_of(None) == ""
    issued = value.split(".")[1]
    forged = (
        "",
        name,  # unsigned
        f"{name}.{issued}.{'f' * 32}",  # a signature made up
        value.upper(),
        value[:-1],
        value + "0",
        f'"{value}"',
        "x" * 5000,
        value[:-1] + "g",
    )
    for text in forged:
        assert clients.browser_of({clients.BROWSER_COOKIE: text}) == "", text
    # a year and a day old: not a browser's any more; a minute in the future: another clock
    now = int(issued, 16)
    assert clients.browser_of({clients.BROWSER_COOKIE: value}, now=now + 366 * 86400) == ""
    assert clients.browser_of({clients.BROWSER_COOKIE: value}, now=now - 30) == name
    # under another secret (another deployment's) it names nothing here
    other = clients.signed_browser(name)
    os.environ[clients.SECRET_ENV], was = "another deployment", os.environ[clients.SECRET_ENV]
    try:
        assert clients.browser_of({clients.BROWSER_COOKIE: other}) == ""
    finally:
        os.environ[clients.SECRET_ENV] = was
    # Streamlit's own XSRF cookie names no browser
    assert clients.browser_of({"_streamlit_xsrf": f"2|00000000|{name}|1790000000"}) == ""


def test_only_a_trusted_proxy_names_the_address(monkeypatch):
    monkeypatch.delenv(clients.PROXIES_ENV, raising=False)
    cookies = {clients.BROWSER_COOKIE: clients.signed_browser("ab" * 16)}
    via_nginx = clients.client_of(None, {"X-Real-IP": "198.51.100.7"}, cookies)  # loopback
    assert via_nginx == clients.Client("198.51.100.7", "ab" * 16)
    direct = clients.client_of("192.0.2.5", {"X-Real-IP": "198.51.100.7"}, cookies)
    assert direct.address == "192.0.2.5"  # a browser's own header is not believed
    forged = clients.client_of(None, {"X-Real-IP": "<script>"}, {})
    assert forged == clients.Client("127.0.0.1", "")
    monkeypatch.setenv(clients.PROXIES_ENV, "192.0.2.5")
    assert clients.client_of("192.0.2.5", {"X-Real-IP": "198.51.100.7"}, {}).address == (
        "198.51.100.7"
    )


def test_the_first_run_says_what_the_doors_mark_says(monkeypatch):
    """The door (ui.server.door) marks a connection at its handshake; the session's first
    run shows the sentence (the door closes the connection itself)."""
    tab = clients.LIMITS["tab"]  # counted in real time: no token earned back mid-test
    monkeypatch.setitem(clients.LIMITS, "tab", replace(tab, per_browser=(1e-6, tab.per_browser[1])))
    monkeypatch.setenv(clients.SESSIONS_ENV, "250")
    browser = clients.Client("198.51.100.8", "ab" * 16)
    assert clients.admit(browser, {}) is None  # no door: AppTest, a bare script
    assert clients.admit(browser, {clients.DOOR_HEADER: clients.IN}) is None
    assert clients.admit(browser, {clients.DOOR_HEADER: clients.TAB}) == clients.refused("tab")
    full = clients.admit(browser, {"X-Perceptron-Door": clients.FULL_MARK})
    assert full == clients.FULL.format(n="250 people are")
    # counted at the door: never counted again at the first run
    burst = clients.LIMITS["tab"].per_browser[1]
    for _ in range(burst + 5):
        assert clients.admit(browser, {clients.DOOR_HEADER: clients.IN}) is None
    # a reconnection the door let by uncounted is counted at its new session's first run
    again = {clients.DOOR_HEADER: clients.AGAIN, clients.STREAM_HEADER: "no-such-stream"}
    said = [clients.admit(browser, again) for _ in range(burst + 1)]
    assert said == [None] * burst + [clients.refused("tab")]


def test_a_browser_over_its_limit_leaves_its_neighbours_at_the_same_address_alone():
    limit = clients.LIMITS["room"]
    burst = limit.per_browser[1]
    script = clients.Client("203.0.113.1", "")
    assert [clients.allow("room", script, now=0.0) for _ in range(burst + 2)] == [True] * burst + [
        False,
        False,
    ]
    neighbour = clients.Client("203.0.113.1", "cafe")
    assert clients.allow("room", neighbour, now=0.0)


def test_an_address_over_its_limit_is_refused_whatever_browser_it_claims():
    burst = clients.LIMITS["room"].per_address[1]
    allowed = [
        clients.allow("room", clients.Client("203.0.113.2", f"b{k}"), now=0.0)
        for k in range(burst + 5)
    ]
    assert allowed.count(True) == burst
    assert clients.allow("room", clients.Client("198.51.100.2", "b0"), now=0.0)  # elsewhere


def test_asking_does_not_count():
    who = clients.Client("203.0.113.3", "")
    for _ in range(50):
        assert clients.allow("wrong code", who, take=False, now=0.0)
    assert clients.allow("wrong code", who, now=0.0)


def test_a_browser_holds_a_bounded_number_and_gets_them_back():
    who = clients.Client("203.0.113.4", "")
    assert [clients.hold("seats of A", who, 3) for _ in range(4)] == [True, True, True, False]
    assert clients.hold("seats of B", who, 3)  # another class counts apart
    clients.give_back("seats of A", who)
    assert clients.hold("seats of A", who, 3)


@pytest.mark.parametrize("action", sorted(set(clients.LIMITS) - {"bytes"}))  # bytes: not uses
def test_every_limit_leaves_room_for_a_hall_behind_one_address(action):
    """300 students behind one NAT: each browser's first use of any action is allowed."""
    allowed = [
        clients.allow(action, clients.Client("198.51.100.9", f"phone{k}"), now=0.0)
        for k in range(300)
    ]
    if action == "room":  # not every student starts a class
        assert allowed.count(True) >= 20
    else:
        assert all(allowed)


def test_a_closed_tabs_clean_up_runs_once_per_purpose_off_the_servers_loop():
    import threading

    calls: list[tuple[str, str]] = []
    done = threading.Event()

    def note(what: str) -> None:
        calls.append((what, threading.current_thread().name))
        done.set()

    clients.when_gone("session-1", "seat", lambda: note("old seat"))
    clients.when_gone("session-1", "seat", lambda: note("seat"))  # the newer replaces it
    clients.when_gone(None, "seat", lambda: note("no session"))  # nothing to watch
    clients.stream_ended("session-2")  # another session's tab: nothing of session 1's
    assert calls == []
    clients.stream_ended("session-1")
    assert done.wait(5)
    assert calls == [("seat", "perceptron-gone")]
    clients.stream_ended("session-1")  # once: a second close calls nothing again
    assert calls == [("seat", "perceptron-gone")]
