"""The table's ``[venue]`` section: where its forwarder sends the log, and as whom.

Absent, the table is an island exactly as before (no forwarder, no broker client imported).
Present, ``bidou-table run`` starts ``venue.forwarder`` (docs/venue.md). Checked with the rest
of the config so that a typo stops the start with a sentence, never a traceback later.
"""

from __future__ import annotations

import os
import re
import ssl
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError, reject_unknown_keys

VENUE_KEYS = ("url", "venue", "table", "user", "password", "ca")
#: a NATS subject token: the table and venue names become parts of subjects
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
NAME_ALLOWED = "1 to 40 letters, digits, '-' or '_' (it becomes part of NATS subjects)"


@dataclass(frozen=True)
class VenueSettings:
    """A checked ``[venue]``: the hub's ``url``, the ``venue`` and ``table`` names, this
    table's NATS ``user``/``password`` (the hub allows it only its own subjects), and for a
    ``tls://`` hub the ``ca`` file its certificate is checked against (else the system's)."""

    url: str
    venue: str
    table: str
    user: str
    password: str = ""
    ca: str = ""

    def tls(self) -> ssl.SSLContext | None:
        """The TLS context a ``tls://`` url connects with; None for ``nats://``."""
        return tls_context(self.ca or None) if self.url.startswith("tls://") else None


def tls_context(ca: str | None) -> ssl.SSLContext:
    """A client's TLS: the hub's certificate checked against ``ca`` (a PEM file: the pub's
    own authority, as a self-made certificate needs) or the system's authorities, and its
    name against the url's host."""
    return ssl.create_default_context(cafile=ca)


def pem_file(value: Any, key: str, what: str) -> str:
    """A config's path to a PEM file that is there and readable, else ConfigError."""
    if not isinstance(value, str) or not value:
        raise ConfigError(key, value, f"the path of {what} (a PEM file)")
    if not os.path.isfile(value) or not os.access(value, os.R_OK):
        raise ConfigError(key, value, f"the path of {what} (a PEM file); there is no readable "
                          "file there")
    return value


def authority_file(value: Any, key: str) -> str:
    """A config's authority to check the hub's certificate against: a readable PEM file
    that OpenSSL takes as certificates, else ConfigError (at start, not at the first try)."""
    path = pem_file(value, key, "the authority that signed the hub's certificate")
    try:
        tls_context(path)
    except ssl.SSLError as e:
        raise ConfigError(key, value, f"a PEM file of certificates; OpenSSL cannot read it "
                          f"({e.reason or e})") from None
    return path


def parse_venue_settings(section: dict[str, Any] | None) -> VenueSettings | None:
    """``[venue]`` -> VenueSettings, None when absent; ConfigError naming the key."""
    if not section:
        return None
    reject_unknown_keys("venue", section, VENUE_KEYS, verb="has")
    url = section.get("url")
    if not isinstance(url, str) or not re.match(r"^(nats|tls)://[^\s/]+$", url):
        raise ConfigError("venue.url", url,
                          'the hub\'s address as "nats://HOST:PORT", e.g. '
                          '"nats://192.168.1.5:4222", or "tls://HOST:PORT" for a hub with a '
                          "certificate")
    names = {}
    for key in ("venue", "table"):
        value = section.get(key, "pub" if key == "venue" else None)
        if not isinstance(value, str) or not NAME.match(value):
            raise ConfigError(f"venue.{key}", value, NAME_ALLOWED)
        names[key] = value
    user = section.get("user", names["table"])
    if not isinstance(user, str) or not user:
        raise ConfigError("venue.user", user, "this table's NATS user name on the hub")
    password = section.get("password", "")
    if not isinstance(password, str):
        raise ConfigError("venue.password", password, "this table's NATS password, a string")
    ca = section.get("ca")
    if ca is not None:
        if not url.startswith("tls://"):
            raise ConfigError("venue.ca", ca, 'only with a "tls://" url (the hub\'s certificate '
                              "is checked against it)")
        ca = authority_file(ca, "venue.ca")
    return VenueSettings(url, names["venue"], names["table"], user, password, ca or "")
