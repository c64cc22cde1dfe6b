"""The table's ``[venue]`` section: where its forwarder sends the log, and as whom.

Absent, the table is an island exactly as before (no forwarder, no broker client imported).
Present, ``bidou-table run`` starts ``venue.forwarder`` (docs/venue.md). Checked with the rest
of the config so that a typo stops the start with a sentence, never a traceback later.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError, reject_unknown_keys

VENUE_KEYS = ("url", "venue", "table", "user", "password")
#: a NATS subject token: the table and venue names become parts of subjects
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
NAME_ALLOWED = "1 to 40 letters, digits, '-' or '_' (it becomes part of NATS subjects)"


@dataclass(frozen=True)
class VenueSettings:
    """A checked ``[venue]``: the hub's ``url``, the ``venue`` and ``table`` names, and this
    table's NATS ``user``/``password`` (the hub allows it only its own subjects)."""

    url: str
    venue: str
    table: str
    user: str
    password: str = ""


def parse_venue_settings(section: dict[str, Any] | None) -> VenueSettings | None:
    """``[venue]`` -> VenueSettings, None when absent; ConfigError naming the key."""
    if not section:
        return None
    reject_unknown_keys("venue", section, VENUE_KEYS, verb="has")
    url = section.get("url")
    if not isinstance(url, str) or not re.match(r"^(nats|tls)://[^\s/]+$", url):
        raise ConfigError("venue.url", url,
                          'the hub\'s address as "nats://HOST:PORT", e.g. "nats://192.168.1.5:4222"')
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
    return VenueSettings(url, names["venue"], names["table"], user, password)
