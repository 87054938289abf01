"""The join address: what the QR code carries, or why phones cannot join."""

from __future__ import annotations

import socket

import pytest

from ui.classmode import address
from ui.classmode.address import is_loopback, join_address


def where(page_url: str, *, env: str = "", net: str | None = "192.168.1.20", up: bool = True):
    asked: list[tuple[str, int]] = []

    def answers(host: str, port: int) -> bool:
        asked.append((host, port))
        return up

    return join_address(page_url=page_url, env=env, network=lambda: net, answers=answers), asked


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1", "0.0.0.0", "a.localhost"],
)
def test_loopback_names_and_addresses(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["192.168.1.20", "10.0.0.5", "lab.example.edu", "fd00::2"])
def test_addresses_others_reach_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)


def test_a_lecturer_on_localhost_gets_the_machines_network_address_with_the_port() -> None:
    got, asked = where("http://localhost:8501/room")
    assert got.reachable
    assert got.url == "http://192.168.1.20:8501"
    assert asked == [("192.168.1.20", 8501)]


def test_a_lecturer_on_the_network_address_keeps_it() -> None:
    got, asked = where("http://192.168.1.20:8501/")
    assert (got.url, got.reachable, asked) == ("http://192.168.1.20:8501", True, [])


def test_a_domain_name_behind_https_is_kept_as_is() -> None:
    got, _ = where("https://perceptron.example.edu/room?room=X")
    assert (got.url, got.reachable) == ("https://perceptron.example.edu", True)


def test_the_set_address_wins_over_everything() -> None:
    got, asked = where("http://localhost:8501/", env=" https://lab.example.edu/ ")
    assert (got.url, got.reachable, asked) == ("https://lab.example.edu", True, [])


def test_a_set_address_that_is_no_web_address_is_said() -> None:
    got, _ = where("http://localhost:8501/", env="lab.example.edu:8501")
    assert not got.reachable
    assert "PERCEPTRON_PUBLIC_URL" in got.problem and "http://" in got.problem


def test_a_server_that_answers_on_loopback_only_is_said_with_what_to_do() -> None:
    got, _ = where("http://127.0.0.1:8501/", up=False)
    assert not got.reachable
    assert "http://192.168.1.20:8501" in got.problem
    assert "--server.address 0.0.0.0" in got.problem


def test_a_laptop_on_no_network_is_said_with_what_to_do() -> None:
    got, _ = where("http://localhost:8501/", net=None)
    assert not got.reachable and got.url == ""
    assert "Wi-Fi" in got.problem


def test_an_ipv6_network_address_is_bracketed() -> None:
    got, _ = where("http://[::1]:8501/", net="fd00::2")
    assert got.url == "http://[fd00::2]:8501"


def test_a_page_without_an_address_is_said() -> None:
    got, _ = where("")
    assert not got.reachable and "PERCEPTRON_PUBLIC_URL" in got.problem


def test_this_machines_network_address_is_not_loopback() -> None:
    found = address.network_address()
    assert found is None or not is_loopback(found)


def test_a_port_is_answered_only_while_something_listens_on_it() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert address._answers("127.0.0.1", port)
    assert not address._answers("127.0.0.1", port)
