"""The referee PIN: the config's ``[referee] pin`` when it sets one, else a PIN kept in the
table's log, so it outlives a restart or a power cut as the seat tokens do.

A real table's config must set the PIN (``firmware.settings.server_settings``); a simulated one may
leave it out, and then the first start makes a 6-digit PIN and keeps it in the log's
``keys`` table. The referee may change that PIN on the console (the new one is kept the same
way); a PIN the config sets is changed in the config, which the console says.
"""

from __future__ import annotations

import secrets

from firmware.gamelog.log import GameLog
from firmware.settings.server_settings import MIN_PIN_LENGTH, ServerSettings
from table_server.access.auth import same_secret
from table_server.words.i18n import gettext as _

#: the PIN's name in the log's keys
LOG_KEY = "referee-pin"
MAX_PIN_LENGTH = 12


def in_config() -> str:
    """What the console says when the config sets the PIN."""
    return _("This table's PIN is set in its config (%(key)s); change it there and restart "
             "the table.", key="[referee] pin")


def _six_digits() -> str:
    return f"{secrets.randbelow(10**MIN_PIN_LENGTH):0{MIN_PIN_LENGTH}d}"


class RefereePin:
    """The PIN that opens the console now, from ``settings`` or kept in ``log``."""

    def __init__(self, settings: ServerSettings, log: GameLog) -> None:
        self.settings, self.log = settings, log

    @property
    def configured(self) -> bool:
        """Whether the config (or the code starting the table) chose the PIN."""
        return not self.settings.pin_generated

    def current(self) -> str:
        if self.configured:
            return self.settings.referee_pin
        return self.log.key(LOG_KEY, make=_six_digits)

    def opens(self, given: str | None) -> bool:
        """Whether ``given`` is the PIN, compared in constant time."""
        return same_secret(given, self.current())

    def change(self, new: str, again: str) -> str | None:
        """Keep ``new`` as the PIN; None when done, else the sentence saying why not."""
        if self.configured:
            return in_config()
        new, again = new.strip(), again.strip()
        if not (new.isascii() and new.isdigit()
                and MIN_PIN_LENGTH <= len(new) <= MAX_PIN_LENGTH):
            return _("A PIN is %(least)s to %(most)s digits (0-9), so it is not guessed; type "
                     "a new one.", least=MIN_PIN_LENGTH, most=MAX_PIN_LENGTH)
        if new != again:
            return _("The two PINs typed differ; type the new PIN twice, the same both times.")
        self.log.set_key(LOG_KEY, new)
        return None
