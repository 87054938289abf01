"""ui.server.clients: who a client is, the limits per browser and per address, the seats a
browser holds, and the idle sessions' close."""

import pytest

from ui.server import clients, internals


def xsrf(token: str, mask: str = "0a0b0c0d") -> str:
    """Streamlit's cookie for ``token``: 2|mask|token XOR mask|time."""
    m = bytes.fromhex(mask)
    masked = bytes(b ^ m[i % 4] for i, b in enumerate(bytes.fromhex(token)))
    return f"2|{mask}|{masked.hex()}|1790000000"


def test_every_tab_of_one_browser_is_one_browser_whatever_the_mask():
    token = "00112233445566778899aabbccddeeff"
    one = internals.browser_token({internals.XSRF_COOKIE: xsrf(token, "0a0b0c0d")})
    two = internals.browser_token({internals.XSRF_COOKIE: xsrf(token, "ffeeddcc")})
    assert one == two == token
    assert internals.browser_token({}) == ""
    for forged in ("", "2|zz|zz|1", "1|00|00|1", "2|00000000||1", "x" * 5000, "2|" + "0" * 500):
        assert internals.browser_token({internals.XSRF_COOKIE: forged}) == "", forged


def test_only_a_trusted_proxy_names_the_address(monkeypatch):
    monkeypatch.delenv(clients.PROXIES_ENV, raising=False)
    cookies = {internals.XSRF_COOKIE: xsrf("ab" * 16)}
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


def test_idle_sessions_are_closed_and_forgotten(monkeypatch):
    closed: list[str] = []
    monkeypatch.setattr(internals, "close_connection", lambda s, **_: closed.append(s) or True)
    clients.touch("busy", now=0.0)
    clients.touch("idle", now=0.0)
    assert clients.sweep(now=10.0, active=["busy", "idle", "new"]) == []
    clients.touch("busy", now=clients.IDLE_S)
    gone = clients.sweep(now=clients.IDLE_S + 1.0, active=["busy", "idle", "new"])
    assert gone == ["idle"] and closed == ["idle"]
    # "new" was first seen at 10 s: its clock started then
    assert clients.sweep(now=clients.IDLE_S + 11.0, active=["busy", "new"]) == ["new"]


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
