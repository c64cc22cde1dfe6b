"""What anyone may ask of the table, and what the table answers: frozen commands and Outcome.

Seat panels, phone pages, the referee console and the HTTP API all build these and hand them
to ``TableController.submit`` (or put them on its queue). They are data, not behaviour, so
they live apart from the controller that performs them: the dashboard imports them without
importing the controller's threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from firmware.words.phrases import Phrase

#: The referee's corrections (``Correct.kind``), in the order the console offers them.
CORRECTIONS: tuple[str, ...] = ("fix-dice", "undo", "void-hand", "new-game")


@dataclass(frozen=True)
class Press:
    """A seat-panel button: ``button`` is THROW, BET, CALL or PASS; ``long`` for a long press.

    ``seat`` is the player's name. ``source`` says where it came from ("panel", "phone",
    "referee", "web") and is written to the log as who did it.
    """

    seat: str
    button: str
    long: bool = False
    source: str = "panel"
    #: the press's id from the page or panel: a repeat within a moment carries the same id
    #: and gets the first press's outcome (firmware.table.presses.Repeats); None: always a new press
    id: str | None = None


@dataclass(frozen=True)
class Act:
    """A verb chosen directly (phone seat page, referee console, ``POST /api/act``).

    ``verb`` is a game-record verb. ``throw`` and ``roll`` read the seat's dice from the camera
    (in simulation, after rendering a random throw); ``bet`` and ``raise`` take ``chips``
    (default: the stake being offered with BET).
    """

    seat: str
    verb: str
    chips: int | None = None
    source: str = "web"
    #: as a press's: a repeat of it within a moment (a double tap) gets the first outcome
    id: str | None = None


@dataclass(frozen=True)
class EnterDice:
    """The referee enters a seat's dice (three for a throw, one for a captain roll)."""

    seat: str
    values: tuple[int, ...]
    by: str = "referee"


@dataclass(frozen=True)
class Reread:
    """Read a seat's exposed dice again while their values are pending (the referee asked,
    or the dice were straightened)."""

    seat: str
    by: str = "referee"


@dataclass(frozen=True)
class Settle:
    """``player`` says what ``seat``'s exposed dice show, when their values were pending at
    exposure (docs/rules/pending.md, D-S4): the owner says his, the other players in the
    showdown agree or not. ``source`` is where it came from ("phone", "web")."""

    seat: str
    values: tuple[int, ...]
    player: str
    source: str = "phone"


@dataclass(frozen=True)
class Correct:
    """A referee correction, logged with who and why; never an edit of the past.

    - ``fix-dice``: replace the dice of the action at ``position`` (from 1, in the game
      record) or, without a position, of ``seat``'s latest throw or roll, with ``values``;
    - ``undo``: take back the last action;
    - ``void-hand``: take back every action of the hand being played;
    - ``new-game``: end this game (abandoned unless over) and start a new one, with
      ``variant``/``players``/``options`` or, when None, those of the table's config.
    """

    kind: str
    by: str
    why: str
    seat: str | None = None
    values: tuple[int, ...] = ()
    position: int | None = None
    variant: str | None = None
    players: tuple[str, ...] | None = None
    options: dict[str, Any] | None = None


Command = Press | Act | EnterDice | Reread | Settle | Correct


@dataclass(frozen=True)
class Outcome:
    """What a command did: ``ok``, a whole sentence, the rule cited by a refusal.

    ``values_pending`` is True when a throw or roll was counted with its values pending (the
    camera was not sure of its dice; they are settled if the rules show them, D-S1).
    ``busy`` is True when the table did not take the command (too many waiting, or withdrawn
    unplayed after the wait): nothing was played and it may be sent again. ``pending`` is the
    id of a command the table had begun when the wait ran out: it is neither refused nor done
    yet, and ``TableController.command_outcome(id)`` tells its outcome later.
    Messages never contain concealed dice.
    """

    ok: bool
    message: str
    rule: str | None = None
    values_pending: bool = False
    busy: bool = False
    pending: str | None = None
    #: the message as a phrase, for the dashboard to say in the reader's language
    phrase: Phrase | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Refusal:
    """Why a command did nothing: a whole sentence for people, and the rule it cites (or None)."""

    sentence: str
    rule: str | None = None
    #: the sentence as a phrase for players, in their language and with no rule code
    phrase: Phrase | None = field(default=None, compare=False)

    @classmethod
    def said(cls, phrase: Phrase, rule: str | None = None) -> Refusal:
        """A refusal worded as ``phrase`` (its English is the sentence)."""
        return cls(str(phrase), rule, phrase)

    def __str__(self) -> str:
        return f"{self.sentence} ({self.rule})" if self.rule else self.sentence
