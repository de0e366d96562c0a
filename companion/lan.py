"""This machine's address on the local network, for `make run`: the other phones at the table
open the app by it. Only the standard library: the settings read it."""

from __future__ import annotations

import ipaddress
import socket

# An address of TEST-NET-1 (RFC 5737): connecting a UDP socket sends nothing, but makes the
# system choose the interface its default route goes out of, and so this machine's address.
PROBE = ("192.0.2.1", 9)


def address() -> str | None:
    """This machine's IPv4 address on the network its default route leads to, or None when it
    has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
        except OSError:
            return None
        found = probe.getsockname()[0]
    ip = ipaddress.ip_address(found)
    return None if ip.is_loopback or ip.is_link_local or ip.is_unspecified else found


def url(host: str, port: int | str) -> str:
    """The address a phone types or scans: the development server speaks plain HTTP."""
    return f"http://{host}/" if str(port) == "80" else f"http://{host}:{port}/"
