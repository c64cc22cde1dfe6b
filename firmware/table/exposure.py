"""Values pending at exposure: the camera reads the exposed dice again, then the table settles.

A throw counts when it is declared; when the camera was not sure of its dice its values are
pending and play goes on (docs/rules/pending.md, D-S1). Only when the rules expose such a
throw -- a showdown, an open throw, Poor Fish, Montevideo's shown throws, a captain roll --
does the engine wait (``game.unsettled()``), and then, in this order (D-S4):

1. the camera reads the exposed dice again (the cups are lifted, the dice lie still); a sure
   read settles them, ``by camera``;
2. otherwise the table view shows that seat's picture with the unsure dice marked, and every
   phone of the players whose dice are shown offers the values: the owner says his, the others
   agree, and when every other player agrees with the owner's values they are settled
   ``by players``; a player who says other values is refused with a sentence, and the seat
   goes to the referee;
3. the referee's entry settles them ``by referee`` at any time.

Only then do chips move. Mixed into :class:`firmware.table.controller.TableController` (like
``firmware.table.referee_commands``): it uses the controller's game, reads, log and publisher,
under the controller's lock.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from engine.actions import Action, dice_fit
from engine.errors import CameraError
from firmware.camera.seat_reads import zone_picture
from firmware.table.commands import Outcome, Refusal, Settle
from firmware.words.event_words import list_phrase
from firmware.words.phrases import N_, Phrase

RULE = "D-S4"


class ExposedValues:
    """The settling of exposed pending values, for
    :class:`~firmware.table.controller.TableController`."""

    def _reset_exposure(self) -> None:
        #: seats whose exposed dice the camera has read again in this exposure
        self._exposed_read: set[str] = set()
        #: seat -> player -> the values that player says the seat's exposed dice show
        self._claims: dict[str, dict[str, tuple[int, ...]]] = {}
        #: seat -> the sentence of the players' disagreement (the referee settles it)
        self._disputes: dict[str, Phrase] = {}

    def _kind(self) -> str:
        return "roll" if self.game.settle_dice() == 1 else "throw"

    def _read_exposed(self) -> None:
        """Read again, once per exposure, every exposed seat whose values are pending; a sure
        read settles them by camera. Run after every command and on start."""
        if not self.game.unsettled():
            if self._exposed_read or self._claims or self._disputes:
                self._reset_exposure()
                self._publish()
            return
        changed = False
        for seat in list(self.game.unsettled()):
            if seat in self._exposed_read or not self.game.can_settle(seat):
                continue
            self._exposed_read.add(seat)
            changed = True
            kind = self._kind()
            read = self.reads.read(seat, kind, again=True, throw_number=0, exposed=True)
            if read.values is not None:
                self._settle_by(seat, read.values, "camera", "camera",
                                "read surely again at exposure")
            else:
                self.reads.counted_pending(seat, kind, read)
        if changed:
            self._publish()

    def _settle_by(self, seat: str, values: tuple[int, ...], settler: str, by: str,
                   why: str) -> Outcome:
        """Play ``seat``'s settle; a people's settle is logged with the seat's picture (a
        known throw the table's reader can learn from)."""
        picture = None
        if settler != "camera" and seat in self.reads.frames:
            picture = zone_picture(seat, self.reads.frames[seat], tuple(values),
                                   bottom_faces=bool(self.watcher and self.watcher.bottom_faces))
        outcome = self._play(Action(seat, "settle", tuple(values), settler), by, why, picture)
        if outcome.ok:
            self._claims.pop(seat, None)
            self._disputes.pop(seat, None)
        return outcome

    def _settle_claim(self, cmd: Settle) -> Outcome:
        """A player's word on a seat's exposed values (see the module docstring, step 2)."""
        for name in (cmd.seat, cmd.player):
            bad = self._known_seat(name)
            if bad:
                return self._refuse(None, bad)
        seat, player = cmd.seat, cmd.player
        if not self.game.can_settle(seat):
            return self._refuse(player, Refusal.said(N_(
                "%(p)s's dice are not waiting to be settled: the table asks for values only "
                "when the rules show the dice.", p=seat), "D-S3"))
        witnesses = self.game.settle_witnesses(seat)
        if player != seat and player not in witnesses:
            return self._refuse(player, Refusal.said(N_(
                "%(q)s's dice are not shown with %(p)s's: %(p)s's dice are settled by "
                "%(names)s, or by the referee.", q=player, p=seat,
                names=list_phrase([seat, *witnesses])), RULE))
        if seat in self._disputes:
            return self._refuse(player, Refusal.said(N_(
                "%(p)s's dice are with the referee: %(why)s", p=seat,
                why=self._disputes[seat]), RULE))
        kind = self._kind()
        values = tuple(cmd.values)
        if not dice_fit(kind, values):
            return self._refuse(player, Refusal.said(N_(
                "Give %(p)s's dice as %(n)s values, each 1 to 6, not %(said)s; say them "
                "again.", p=seat, n=3 if kind == "throw" else 1, said=str(list(values))),
                RULE))
        claims = self._claims.setdefault(seat, {})
        claims[player] = tuple(sorted(values, reverse=True))
        owner = claims.get(seat)
        if owner is not None:
            other = next((q for q in witnesses if q in claims and claims[q] != owner), None)
            if other is not None:
                sentence = N_("%(q)s says %(p)s's dice show %(a)s and %(p)s says %(b)s: the "
                              "players do not agree, so the referee settles %(p)s's dice.",
                              q=other, p=seat, a=_said(claims[other]), b=_said(owner))
                self._disputes[seat] = sentence
                self._claims.pop(seat, None)
                self.publisher.say(sentence)
                self._publish()
                return self._refuse(player, Refusal.said(sentence, RULE))  # on their phone
            if all(q in claims for q in witnesses):
                return self._settle_by(seat, owner, "players",
                                       f"players ({', '.join([seat, *witnesses])})",
                                       "the players agreed at the table")
        waiting = [q for q in [seat, *witnesses] if q not in claims]
        self._publish()
        return Outcome(True, f"{player}'s word on {seat}'s dice is taken; the table waits for "
                             f"{' and '.join(waiting)}.")

    def _settling_state(self) -> list[dict[str, Any]]:
        """The public settle prompt: only exposed seats whose values are pending, each with
        the players who settle it, the camera's sure values (None for an unsure die), what
        each player has said, and whether it went to the referee."""
        out = []
        count = self.game.settle_dice()
        for seat in self.game.unsettled():
            read = self.reads.last.get(seat)
            sure = [d.value for d in read.dice] if read is not None else []
            guess: list[int | None] = [*sure[:count], *[None] * max(0, count - len(sure))]
            out.append({"seat": seat, "dice": count,
                        "witnesses": list(self.game.settle_witnesses(seat)),
                        "guess": guess,
                        "said": {q: list(v) for q, v in self._claims.get(seat, {}).items()},
                        "referee": _english(self._disputes.get(seat)),
                        "referee_said": _json(self._disputes.get(seat)),
                        "picture": seat in self.reads.frames})
        return out

    def settle_jpeg(self, seat: str) -> bytes:
        """The picture of ``seat``'s exposed dice with the unsure ones marked (red) and the
        sure ones framed (green): only while they wait to be settled, so it never shows a
        concealed throw. LookupError otherwise; CameraError when there is no picture."""
        with self._lock:
            if seat not in self.game.unsettled():
                raise LookupError(f"{seat}'s dice are not waiting to be settled; the picture "
                                  "is shown only while they are.")
            crop = self.reads.frames.get(seat)
            read = self.reads.last.get(seat)
            zone = self.watcher.zones.get(seat) if self.watcher is not None else None
            if crop is None or read is None or zone is None:
                raise CameraError(f"The camera has no picture of {seat}'s dice.")
            picture = crop.copy()
        for boxes, colour in (([d.box for d in read.dice], (0, 170, 0)),
                              ([u.box for u in read.unsure], (0, 0, 230))):
            for x, y, w, h in boxes:
                _frame(picture, x - zone.x, y - zone.y, w, h, colour)
        ok, buf = cv2.imencode(".jpg", picture)
        if not ok:
            raise CameraError(f"The picture of {seat}'s dice could not be encoded.")
        return bytes(buf)

    def _flag_kept_dice(self, seat: str) -> None:
        """A round that keeps dice aside (two-hand round 2, T1): a throw with values pending
        cannot be compared with the dice kept from the throw before; the referee is told,
        and play goes on (D-S5)."""
        state = self.game.state()
        if self.game.variant == "two-hand" and state["round"] == 2:
            self.reads.flags.append(f"{seat}'s throw {self._throws(seat)} in round 2 has values "
                                    "pending: the dice kept aside cannot be checked against "
                                    "it; it counts (D-S5).")


def _english(phrase: Phrase | None) -> str | None:
    return None if phrase is None else str(phrase)


def _json(phrase: Phrase | None) -> dict[str, Any] | None:
    return None if phrase is None else phrase.to_json()


def _said(values: tuple[int, ...]) -> str:
    return "-".join(map(str, values))


def _frame(picture: np.ndarray, x: int, y: int, w: int, h: int,
           colour: tuple[int, int, int]) -> None:
    cv2.rectangle(picture, (int(x), int(y)), (int(x + w), int(y + h)), colour, 2)
