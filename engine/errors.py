"""The project's exception tree.

Every error the engine raises is a :class:`BidouError`; each leaf also inherits the
builtin it resembles (as gpiozero does), so callers may catch either. Messages are
whole sentences that name what is wrong; a rule refusal also names the rule's id
from the source or RULINGS.md, e.g. "a raise is one chip in two-hand Bidou (T5)".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class BidouError(Exception):
    """Base of every error raised by bidou-table's own code."""


class Said(Protocol):
    """What the engine says, as data (:class:`engine.messages.Message`): an id with its
    arguments, whose ``str()`` is the English."""

    @property
    def id(self) -> str: ...


class RuleViolation(BidouError, ValueError):
    """An action the rules do not allow now.

    ``said`` is what is wrong as a message (an id and its arguments, said in each screen's
    language), ``sentence`` its English, and ``rule`` names the rule (``"T5"``, ``"M6/3"``,
    ``"R1"``...); ``str()`` gives both: ``"sentence (rule)"``.
    """

    def __init__(self, said: Said | str, rule: str | None = None) -> None:
        self.said = said
        self.sentence = str(said)
        self.rule = rule
        sentence = self.sentence
        super().__init__(f"{sentence} ({rule})" if rule else sentence)


class NotYourTurn(RuleViolation):
    """The action comes from a player who is not the one to act."""


class GameOver(RuleViolation):
    """The game is over; no action is taken any more."""


class RecordError(BidouError, ValueError):
    """A game record that is not a valid ``bidou-record/1`` (bad JSON, unknown verb, a 7...)."""


class ReplayError(BidouError):
    """An action in a record that the rules refuse; says where it stands in the record."""

    def __init__(self, position: int, action_text: str, violation: RuleViolation) -> None:
        self.position = position
        self.action_text = action_text
        self.violation = violation
        super().__init__(f"action {position} ({action_text}): {violation}")


class ConfigError(BidouError, ValueError):
    """A table config value that is not allowed: names the key, the value and what is allowed."""

    def __init__(self, key: str, value: object, allowed: str) -> None:
        self.key = key
        self.value = value
        self.allowed = allowed
        super().__init__(f"{key} = {value!r} is not allowed: {allowed}")


def reject_unknown_keys(name: str, section: Mapping[str, object], keys: Sequence[str],
                        verb: str = "takes") -> None:
    """Raise :class:`ConfigError` for the first key of the config's ``[name]`` table that is not
    one of ``keys``, listing the keys it does take (every section checks this the same way)."""
    for key in section:
        if key not in keys:
            raise ConfigError(f"{name}.{key}", section[key],
                              f"no such key; [{name}] {verb} {', '.join(keys)}")


class CameraError(BidouError, OSError):
    """A camera that is missing, unplugged or gives unusable frames; says what to check."""


class VisionError(BidouError, ValueError):
    """An image the dice reader cannot work with (empty, blank, corrupt, wrong shape)."""
