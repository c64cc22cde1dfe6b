"""Where the dashboard listens: every address it cannot use is a sentence saying what to change
(never werkzeug's own stderr text and sys.exit), and a port is never silently wrapped round."""

from __future__ import annotations

import errno
import json
import socket
import urllib.request

import pytest

from engine.errors import ConfigError
from firmware.settings.server_settings import ServerSettings, check_port, parse_server_settings
from table_server.server import Dashboard
from web import listen as listen_module
from web.listen import listening_socket


def settings(host: str = "127.0.0.1", port: int = 0) -> ServerSettings:
    return ServerSettings(host=host, port=port, referee_token="r" * 20, referee_pin="1234")


def test_port_in_use_is_one_sentence_and_nothing_from_werkzeug(table, capfd) -> None:
    with Dashboard(table.controller, settings()) as first:
        taken = first.port
        with pytest.raises(OSError) as e:
            Dashboard(table.controller, settings(port=taken)).start()
    assert e.value.errno == errno.EADDRINUSE
    assert e.value.strerror == (f"Port {taken} on 127.0.0.1 is in use by another program; "
                                "stop it, or choose a free port with --port or [server] port.")
    out, err = capfd.readouterr()
    assert "Address already in use" not in out + err


def test_a_host_name_nobody_knows_says_what_to_use(table, capfd, monkeypatch) -> None:
    def no_such_name(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(listen_module.socket, "getaddrinfo", no_such_name)
    with pytest.raises(OSError) as e:
        Dashboard(table.controller, settings(host="tabel.local")).start()
    assert e.value.strerror == (
        "The dashboard cannot listen on 'tabel.local': it is not an address or a name this "
        'machine knows; use "127.0.0.1" (this machine only) or "0.0.0.0" (every network '
        "interface) with --host or [server] host.")
    assert "Name or service not known" not in "".join(capfd.readouterr())


def test_an_address_of_another_machine_says_what_to_use(table) -> None:
    with pytest.raises(OSError) as e:
        listening_socket("203.0.113.77", 0)  # TEST-NET-3: never this machine's
    assert e.value.errno == errno.EADDRNOTAVAIL
    assert e.value.strerror.startswith(
        "203.0.113.77 is not an address of this machine, so the dashboard cannot listen on it")


def test_the_dashboard_serves_on_the_socket_it_bound(table) -> None:
    with Dashboard(table.controller, settings(host="localhost")) as d:
        assert d.port != 0
        assert d.url == f"http://localhost:{d.port}/"
        with urllib.request.urlopen(f"http://127.0.0.1:{d.port}/api/state", timeout=5) as r:
            assert json.loads(r.read())["variant"] == "two-hand"


@pytest.mark.parametrize("port", [-1, 65536, 70000, "8080", True, 1.5])
def test_server_port_outside_0_to_65535_is_refused(port) -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings({"port": port}, {}, {}, simulate=True)
    assert e.value.key == "server.port"
    assert e.value.allowed == "a whole number from 1 to 65535 (or 0 for any free port)"


def test_check_port_names_the_key_it_is_given() -> None:
    with pytest.raises(ConfigError) as e:
        check_port(70000, "--port")
    assert str(e.value) == ("--port = 70000 is not allowed: a whole number from 1 to 65535 "
                            "(or 0 for any free port)")
