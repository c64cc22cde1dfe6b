"""What the engine says, as data: a message id with its arguments, and its English.

Every effect and every refusal carries a :class:`Message`: the ``id`` is the English with
``%(name)s`` holes (as gettext's msgids are), the arguments are plain data (names, numbers,
dice, and messages inside messages). The record and the referee read the English made here;
screens say the same message in their own language from the id and the arguments
(``firmware.words.engine_words``), without reading the English back.

A hole's name says how its value is said in English:

- ``chips``, ``throws``, ``own``, ``numbers``: a count with its noun ("2 chips", "1 throw",
  "3 own chips", "1 number");
- ``names``: players joined with "and"; ``listed``: joined with commas;
- ``throw``: dice, said by ``engine.ranking.throw_name`` ("bidou (2-1-1)");
- ``ord``: an ordinal ("3rd"); ``options``: messages joined "a, b or c"; ``verbs``: verbs
  joined "a or b or c";
- a message: its own English; anything else as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

from engine.chips import plural
from engine.ranking import throw_name

#: An argument's value: plain data, or a message said inside another.
Arg = Union[str, int, tuple[int, ...], tuple[str, ...], "Message", tuple["Message", ...]]


@dataclass(frozen=True)
class Message:
    """One thing the engine says: ``id`` (the English with holes) and its ``args``.

    ``str()`` is the English, exactly as the record and the referee read it.
    """

    id: str
    args: tuple[tuple[str, Arg], ...] = ()

    @property
    def kwargs(self) -> dict[str, Arg]:
        """The arguments by hole name."""
        return dict(self.args)

    def __str__(self) -> str:
        return english(self)


def say(message_id: str, **args: Arg) -> Message:
    """The message ``message_id`` with its arguments (keyword per hole)."""
    return Message(message_id, tuple(args.items()))


#: Two messages in one: "what: why" and "this; then that", each half its own message.
BECAUSE = "%(what)s: %(why)s"
THEN = "%(what)s; %(then)s"
#: Where chips lie, when a sentence says it.
THE_CENTRE = Message("the centre")
THE_POT = Message("the pot")

#: A message with its rule code, as the record shows some: "Ann is captain (V2)".
CITED = "%(said)s (%(rule)s)"


def because(what: Message, why: Message) -> Message:
    """``what: why``."""
    return say(BECAUSE, what=what, why=why)


def then(what: Message, after: Message) -> Message:
    """``what; then``."""
    return say(THEN, what=what, then=after)


def cited(said: Message, rule: str) -> Message:
    """``said (rule)``: the rule's code written into the sentence."""
    return say(CITED, said=said, rule=rule)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def or_list(items: Sequence[str]) -> str:
    """``a, b or c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _english(name: str, value: Arg) -> str:
    if isinstance(value, Message):
        return english(value)
    hole = name.rstrip("0123456789")
    if isinstance(value, tuple):
        if hole == "throw":
            return throw_name([v for v in value if isinstance(v, int)])
        said = [english(v) if isinstance(v, Message) else str(v) for v in value]
        if hole == "options":
            return or_list(said)
        if hole == "verbs":
            return " or ".join(said)
        return (", " if hole == "listed" else " and ").join(said)
    if isinstance(value, int):
        if hole == "chips":
            return plural(value)
        if hole == "throws":
            return plural(value, "throw")
        if hole == "own":
            return plural(value, "own chip")
        if hole == "ord":
            return ordinal(value)
        if hole == "numbers":
            return plural(value, "number")
    return str(value)


def english(message: Message) -> str:
    """The English of ``message``, as the record and the referee read it."""
    if not message.args:
        return message.id
    return message.id % {name: _english(name, value) for name, value in message.args}
