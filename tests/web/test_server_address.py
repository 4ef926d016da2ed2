"""The address ``companion run`` prints for the table display and the host page."""

from __future__ import annotations


def test_with_no_default_route_the_printed_address_is_an_interfaces(monkeypatch):
    """A Pi offering its own Wi-Fi network has no router: the addresses the companion prints (and
    the host page's first link) come from its interfaces, not loopback."""
    import socket

    from companion import server

    class NoRoute(socket.socket):
        def connect(self, address):
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(server.socket, "socket", NoRoute)
    monkeypatch.setattr(server, "interface_addresses", lambda: ["10.42.0.1"])
    assert server.lan_address() == "10.42.0.1"
    monkeypatch.setattr(server, "interface_addresses", lambda: [])
    assert server.lan_address() == "127.0.0.1"
