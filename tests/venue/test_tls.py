"""TLS between the tables and the hub (docs/venue.md, "TLS"): with ``[hub] tls_cert`` and
``tls_key`` the hub speaks only TLS; a table whose ``[venue]`` has a ``tls://`` url and the
pub's authority as ``ca`` forwards as before; a table trusting another authority plays on,
and its referee console says the hub's certificate is what is wrong. The certificates are
made here with the ``openssl`` command, for 127.0.0.1, by a throwaway authority."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from venue_harness import Venue, wait_until

pytestmark = pytest.mark.slow


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


def authority(folder: Path, name: str) -> Path:
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "2",
            "-subj", f"/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign", cwd=folder)
    return folder / f"{name}.pem"


def hub_certificate(folder: Path, ca: str) -> tuple[Path, Path]:
    (folder / "hub.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                                    "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "hub.key", "-out", "hub.csr", "-subj", "/CN=hub", cwd=folder)
    openssl("x509", "-req", "-in", "hub.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
            "-CAcreateserial", "-out", "hub.pem", "-days", "2", "-extfile", "hub.ext",
            cwd=folder)
    return folder / "hub.pem", folder / "hub.key"


@pytest.fixture
def tls_venue(dsn: str) -> Iterator[tuple[Venue, Path, Path]]:
    """A venue whose hub speaks TLS: (venue, the pub's authority, another authority)."""
    if shutil.which("openssl") is None:
        pytest.fail("the openssl command is needed to make the test's certificates: "
                    "apt-get install openssl")
    folder = Path(tempfile.mkdtemp(prefix="bidou-venue-tls-"))
    certs = folder / "certs"
    certs.mkdir()
    ca, other = authority(certs, "pub-ca"), authority(certs, "other-ca")
    cert, key = hub_certificate(certs, "pub-ca")
    venue = Venue(folder, dsn, hub_tls={"tls_cert": cert, "tls_key": key, "tls_ca": ca})
    try:
        yield venue, ca, other
    finally:
        venue.stop_all()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_table_forwards_over_tls_and_one_trusting_another_authority_says_so(
        tls_venue: tuple[Venue, Path, Path]) -> None:
    venue, ca, other = tls_venue
    assert venue.url.startswith("tls://")
    venue.start_hub()
    venue.start_ingester()  # the venue's own client: tls_ca from [hub]
    venue.start_table("t1", ca=ca, seed=91)
    venue.start_table("t2", ca=other, seed=92)
    wait_until(lambda: venue.finished_games("t1") >= 1, 240, "t1 to finish a game")
    wait_until(lambda: venue.caught_up("t1"), 60, "the venue to hold t1's log over TLS")
    venue.check_table("t1")
    wait_until(lambda: venue.finished_games("t2") >= 1, 240, "t2 to play on without the hub")
    status = venue.referee_state("t2")["venue"]
    assert status["connected"] is False and status["waiting"] > 0
    assert "certificate" in status["problem"].lower(), status["problem"]
    assert "ca, for a tls:// hub" in status["sentence"]
    assert venue.rows("t2") == []


def test_a_nats_url_to_a_tls_hub_without_its_authority_is_not_let_in(
        tls_venue: tuple[Venue, Path, Path]) -> None:
    """The hub asks every client for TLS: a table written with a ``nats://`` url is upgraded
    and checks the certificate against the system's authorities, which do not know the pub's
    own: it is not let in, and it says why."""
    venue, _, _ = tls_venue
    venue.start_hub()
    venue.start_ingester()
    venue.start_table("t1", url=venue.url.replace("tls://", "nats://"), seed=93)
    wait_until(lambda: venue.finished_games("t1") >= 1, 240, "t1 to play on without the hub")
    status = venue.referee_state("t1")["venue"]
    assert status["connected"] is False and status["waiting"] > 0, status
    assert "certificate verify failed" in status["problem"], status["problem"]
    assert venue.rows("t1") == []
