"""``[learning]``: when the table teaches itself its dice again from the dice settled in play.

Every die the players or the referee settle or correct in play is kept with the camera's
picture (:mod:`firmware.teach.correction_pictures`). The table teaches itself again from them
(:mod:`firmware.teach.self_teaching`) when it is idle, or at a time of day the pub names, and
only once enough new known dice have come; ``when`` says which. A pub owner writes this by
hand, so a bad value is one sentence naming the key, the value and what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError, reject_unknown_keys

KEYS = ("when",)
#: the table is idle after this long without a game action (seconds)
IDLE_SECONDS = 600
IDLE = "idle"
NEVER = "never"
CLOCK = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$")
ALLOWED = ('"idle" (after 10 minutes with no game action, the default), a time of day as '
           '"HH:MM" (24-hour, the table\'s local time, e.g. "04:30"), or "never"')


@dataclass(frozen=True)
class LearningSettings:
    """When the table teaches itself again: ``when`` is ``"idle"``, ``"never"``, or a time of
    day, ``at`` (hours, minutes) then."""

    when: str = IDLE
    at: tuple[int, int] | None = None

    @property
    def on(self) -> bool:
        return self.when != NEVER


def parse_learning(section: Mapping[str, Any]) -> LearningSettings:
    """``[learning]`` checked; ConfigError naming the key, the value and what is allowed."""
    reject_unknown_keys("learning", dict(section), KEYS, verb="has")
    when = section.get("when", IDLE)
    if when in (IDLE, NEVER):
        return LearningSettings(when)
    found = CLOCK.match(when) if isinstance(when, str) else None
    if found is None:
        raise ConfigError("learning.when", when, ALLOWED)
    return LearningSettings(when, (int(found.group(1)), int(found.group(2))))
