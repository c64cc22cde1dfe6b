"""Actions as the game record writes them: ``NAME VERB [NUMBERS]`` (GAME_RECORD.md).

A throw or captain roll whose values the table could not read surely is written with ``?``
for its numbers (``Ann throw ?``): it counts, and its values are pending (docs/rules/
pending.md, D-S1). When the rules expose it, a ``settle`` gives the values and says who
settled them: ``Ann settle 6 5 4 by players`` (D-S4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import is_die
from engine.errors import RecordError, RuleViolation
from engine.messages import say

__all__ = ["BETTING_VERBS", "DICE_VERBS", "PENDING_MARK", "SETTLERS", "VERBS", "Action",
           "dice_count", "dice_fit", "dice_words", "is_die"]

#: verb -> how many numbers it takes, and what they are ("die" 1-6 or "chips" >= 1).
VERBS: dict[str, tuple[int, str | None]] = {
    "roll": (1, "die"),
    "throw": (3, "die"),
    "stand": (0, None),
    "bet": (1, "chips"),
    "raise": (1, "chips"),
    "call": (0, None),
    "pass": (0, None),
    "drop": (0, None),
    "betpot": (0, None),
    "callpot": (0, None),
    "settle": (3, "die"),
}

#: The verbs of Bidou's betting (Montevideo adds betpot and callpot).
BETTING_VERBS: tuple[str, ...] = ("bet", "raise", "call", "pass", "drop")

#: The verbs whose numbers are dice thrown: a captain roll (one die) and a throw (three).
DICE_VERBS: tuple[str, ...] = ("roll", "throw")

#: Who may settle pending values at exposure (D-S4): written after ``by`` in a settle.
SETTLERS: tuple[str, ...] = ("camera", "players", "referee")

#: How a pending throw or roll writes its numbers in the record (D-S1).
PENDING_MARK = "?"


def dice_count(verb: str) -> int:
    """How many dice a ``roll`` (1) or ``throw`` (3) holds."""
    return VERBS[verb][0]


def dice_words(verb: str) -> str:
    """"three dice" or "one die": the dice of ``verb``, in the words the table says them."""
    return "one die" if dice_count(verb) == 1 else f"{_NUMBER_WORDS[dice_count(verb)]} dice"


def dice_fit(verb: str, values: Sequence[object]) -> bool:
    """Whether ``values`` are the dice of a ``verb`` (roll or throw): the count, each 1-6.

    The one check of entered dice: the controller, the HTTP API and the simulated camera ask
    it, and ``Action.check_numbers`` gives the engine's sentence for the same rule.
    """
    return len(values) == dice_count(verb) and all(is_die(v) for v in values)


_NUMBER_WORDS = {1: "one", 2: "two", 3: "three"}


@dataclass(frozen=True)
class Action:
    """One action by one player: ``Action("Bob", "throw", (3, 3, 1))``.

    A throw or roll with no numbers is pending (``Bob throw ?``, D-S1); a ``settle`` has
    the values of the exposed pending throw (three dice) or roll (one) and ``by``, who
    settled them (one of :data:`SETTLERS`, D-S4).
    """

    player: str
    verb: str
    numbers: tuple[int, ...] = ()
    by: str | None = None

    def __str__(self) -> str:
        if self.pending:
            return f"{self.player} {self.verb} {PENDING_MARK}"
        words = [self.player, self.verb, *map(str, self.numbers)]
        return " ".join(words + (["by", self.by] if self.by is not None else []))

    @property
    def pending(self) -> bool:
        """Whether this is a throw or roll whose values are pending (D-S1)."""
        return self.verb in DICE_VERBS and not self.numbers

    @property
    def chips(self) -> int | None:
        """The chip count of a bet or raise, else None."""
        return self.numbers[0] if VERBS.get(self.verb, (0, None))[1] == "chips" else None

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice of a roll or throw, else ()."""
        return self.numbers if VERBS.get(self.verb, (0, None))[1] == "die" else ()

    def check_numbers(self) -> None:
        """Raise RuleViolation unless the numbers fit the verb (dice 1-6, chips >= 1).

        ``parse`` already refuses such actions in a record; this guards actions built in code
        (seat buttons, the HTTP API) before any variant looks at them.
        """
        if self.verb not in VERBS:
            raise RuleViolation(say("%(word)s is not a verb; the verbs are %(listed)s",
                                    word=repr(self.verb), listed=tuple(VERBS)))
        if self.pending:
            return
        count, kind = VERBS[self.verb]
        if self.verb == "settle":
            if len(self.numbers) not in (1, 3):
                raise RuleViolation(say("settle takes the values of a throw (three dice) or "
                                        "of a captain roll (one die), not %(n)s",
                                        n=len(self.numbers)))
            if self.by not in SETTLERS:
                raise RuleViolation(say("a settle says who settled the values: %(listed)s, "
                                        "not %(word)s", listed=SETTLERS, word=repr(self.by)))
        elif len(self.numbers) != count:
            raise RuleViolation(say("%(verb)s takes %(numbers)s, not %(n)s", verb=self.verb,
                                    numbers=count, n=len(self.numbers)))
        elif self.by is not None:
            raise RuleViolation(say("only a settle says who settled it, not a %(verb)s",
                                    verb=self.verb))
        for n in self.numbers:
            if not isinstance(n, int) or isinstance(n, bool):
                raise RuleViolation(say("%(word)s is not a whole number", word=repr(n)))
            if kind == "die" and not is_die(n):
                raise RuleViolation(say("a die shows 1 to 6, not %(n)s", n=n))
            if kind == "chips" and n < 1:
                raise RuleViolation(say("a %(verb)s is at least one chip, not %(n)s",
                                        verb=self.verb, n=n))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``"Bob raise 1"``; a :class:`RecordError` naming what is wrong otherwise."""
        if not isinstance(text, str):
            raise RecordError(f"an action is a string like 'Ann bet 1', not {text!r}")
        parts = text.split(" ")
        if len(parts) < 2 or any(p == "" for p in parts):
            raise RecordError(
                f"{text!r} is not an action: write NAME VERB [NUMBERS] with single spaces"
            )
        player, verb, raw = parts[0], parts[1], parts[2:]
        if not player.isprintable() or any(ch.isspace() for ch in player):
            raise RecordError(f"{player!r} is not a player name: names have no spaces, tabs "
                              f"or line breaks, in {text!r}")
        if verb not in VERBS:
            raise RecordError(
                f"{verb!r} is not a verb; the verbs are {', '.join(VERBS)}"
            )
        count, kind = VERBS[verb]
        if verb in DICE_VERBS and raw == [PENDING_MARK]:
            return cls(player, verb)
        by: str | None = None
        if verb == "settle":
            if len(raw) < 2 or raw[-2] != "by" or raw[-1] not in SETTLERS:
                raise RecordError(f"a settle ends with who settled the values, 'by camera', "
                                  f"'by players' or 'by referee', in {text!r}")
            by, raw = raw[-1], raw[:-2]
            if len(raw) not in (1, 3):
                raise RecordError(f"settle takes three dice (a throw) or one (a captain "
                                  f"roll), not {len(raw)}, in {text!r}")
        elif len(raw) != count:
            raise RecordError(f"{verb} takes {count} number{'s' if count != 1 else ''}, "
                              f"not {len(raw)}, in {text!r}")
        numbers: list[int] = []
        for word in raw:
            if not (word.isascii() and word.isdigit()) or (len(word) > 1 and word.startswith("0")):
                raise RecordError(f"{word!r} is not a whole number in {text!r}")
            n = int(word)
            if kind == "die" and not is_die(n):
                raise RecordError(f"a die shows 1 to 6, not {n}, in {text!r}")
            if kind == "chips" and n < 1:
                raise RecordError(f"a {verb} is at least one chip, not {n}, in {text!r}")
            numbers.append(n)
        return cls(player, verb, tuple(numbers), by)
