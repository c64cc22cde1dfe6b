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

Only then do chips move. Each function takes the table's state
(``firmware.table.state``), under the controller's lock like every command; the public
prompt of the seats being settled is ``firmware.table.views.settling``.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from engine.actions import Action, dice_fit
from engine.errors import CameraError
from firmware.camera.dice_tiles import dice_tiles
from firmware.camera.seat_reads import zone_picture
from firmware.camera.throws import SeatRead
from firmware.table.commands import Outcome, Refusal, Settle
from firmware.table.playing import play
from firmware.table.state import TableState
from firmware.words.lists import list_phrase
from firmware.words.phrases import N_
from vision.zones import Zone

RULE = "D-S4"


def read_exposed(t: TableState) -> None:
    """Read again, once per exposure, every exposed seat whose values are pending; a sure
    read settles them by camera. Run after every command and on start."""
    if not t.game.unsettled():
        if t.exposed_read or t.claims or t.disputes:
            t.reset_exposure()
            t.publish()
        return
    changed = False
    for seat in list(t.game.unsettled()):
        if seat in t.exposed_read or not t.game.can_settle(seat):
            continue
        t.exposed_read.add(seat)
        changed = True
        kind = t.settle_kind()
        read = t.reads.read(seat, kind, again=True, throw_number=0, exposed=True)
        if read.values is not None:
            settle_by(t, seat, read.values, "camera", "camera", "read surely again at exposure")
        else:
            t.reads.counted_pending(seat, kind, read)
    if changed:
        t.publish()


def settle_by(t: TableState, seat: str, values: tuple[int, ...], settler: str, by: str,
              why: str) -> Outcome:
    """Play ``seat``'s settle; a people's settle is logged with the seat's picture (a
    known throw the table's reader can learn from)."""
    picture = None
    if settler != "camera" and seat in t.reads.frames:
        picture = zone_picture(seat, t.reads.frames[seat], tuple(values),
                               bottom_faces=bool(t.watcher and t.watcher.bottom_faces))
    outcome = play(t, Action(seat, "settle", tuple(values), settler), by, why, picture)
    if outcome.ok:
        t.claims.pop(seat, None)
        t.disputes.pop(seat, None)
    return outcome


def settle_claim(t: TableState, cmd: Settle) -> Outcome:
    """A player's word on a seat's exposed values (see the module docstring, step 2)."""
    for name in (cmd.seat, cmd.player):
        bad = t.known_seat(name)
        if bad:
            return t.refuse(None, bad)
    seat, player = cmd.seat, cmd.player
    if not t.game.can_settle(seat):
        return t.refuse(player, Refusal.said(N_(
            "%(p)s's dice are not waiting to be settled: the table asks for values only "
            "when the rules show the dice.", p=seat), "D-S3"))
    witnesses = t.game.settle_witnesses(seat)
    if player != seat and player not in witnesses:
        return t.refuse(player, Refusal.said(N_(
            "%(q)s's dice are not shown with %(p)s's: %(p)s's dice are settled by "
            "%(names)s, or by the referee.", q=player, p=seat,
            names=list_phrase([seat, *witnesses])), RULE))
    if seat in t.disputes:
        return t.refuse(player, Refusal.said(N_(
            "%(p)s's dice are with the referee: %(why)s", p=seat,
            why=t.disputes[seat]), RULE))
    kind = t.settle_kind()
    values = tuple(cmd.values)
    if not dice_fit(kind, values):
        return t.refuse(player, Refusal.said(N_(
            "Give %(p)s's dice as %(n)s values, each 1 to 6, not %(said)s; say them "
            "again.", p=seat, n=3 if kind == "throw" else 1, said=str(list(values))),
            RULE))
    contradiction = contradicts_camera(t, seat, player, values)
    if contradiction is not None:
        return contradiction
    claims = t.claims.setdefault(seat, {})
    claims[player] = values  # in the order said: the phones repeat it as it was said
    owner = claims.get(seat)
    if owner is not None:
        other = next((q for q in witnesses
                      if q in claims and _same_dice(claims[q]) != _same_dice(owner)), None)
        if other is not None:
            sentence = N_("%(q)s says %(p)s's dice show %(a)s and %(p)s says %(b)s: the "
                          "players do not agree, so the referee settles %(p)s's dice.",
                          q=other, p=seat, a=_said(claims[other]), b=_said(owner))
            t.disputes[seat] = sentence
            t.claims.pop(seat, None)
            t.publisher.say(sentence)
            t.publish()
            return t.refuse(player, Refusal.said(sentence, RULE))  # on their phone
        if all(q in claims for q in witnesses):
            return settle_by(t, seat, _same_dice(owner), "players",
                             f"players ({', '.join([seat, *witnesses])})",
                             "the players agreed at the table")
    waiting = [q for q in [seat, *witnesses] if q not in claims]
    t.publish()
    return Outcome(True, f"{player}'s word on {seat}'s dice is taken; the table waits for "
                         f"{' and '.join(waiting)}.")


def contradicts_camera(t: TableState, seat: str, player: str,
                       values: tuple[int, ...]) -> Outcome | None:
    """A word that leaves out a value the camera was sure of goes to the referee (the dice the
    camera read surely are not the players' to change); None when it fits."""
    read = t.reads.last.get(seat)
    sure = [d.value for d in read.dice][:t.game.settle_dice()] if read is not None else []
    if not Counter(sure) - Counter(values):
        return None
    sentence = N_("%(q)s says %(p)s's dice show %(a)s, but the camera was sure of %(s)s: "
                  "the referee settles %(p)s's dice.", q=player, p=seat,
                  a=_said(tuple(sorted(values, reverse=True))),
                  s=_said(tuple(sorted(sure, reverse=True))))
    t.disputes[seat] = sentence
    t.claims.pop(seat, None)
    t.publisher.say(sentence)
    t.publish()
    return t.refuse(player, Refusal.said(sentence, RULE))


def settle_picture(t: TableState, seat: str) -> tuple[np.ndarray, SeatRead, Zone]:
    """A copy of the camera's picture of ``seat``'s exposed dice, its read and its zone, for
    :func:`marked_jpeg`: only while they wait to be settled, so it never shows a concealed
    throw. LookupError otherwise; CameraError when there is no picture."""
    if seat not in t.game.unsettled():
        raise LookupError(f"{seat}'s dice are not waiting to be settled; the picture "
                          "is shown only while they are.")
    crop = t.reads.frames.get(seat)
    read = t.reads.last.get(seat)
    zone = t.watcher.zones.get(seat) if t.watcher is not None else None
    if crop is None or read is None or zone is None:
        raise CameraError(f"The camera has no picture of {seat}'s dice.")
    return crop.copy(), read, zone


def marked_jpeg(picture: np.ndarray, read: SeatRead, zone: Zone) -> bytes:
    """``picture`` (a seat's zone) as JPEG, a tile a die (``firmware.camera.dice_tiles``): the
    sure dice framed green, then the unsure ones red; CameraError when it cannot be encoded."""
    tiles = dice_tiles(picture, read.dice, read.unsure, (zone.x, zone.y))
    ok, buf = cv2.imencode(".jpg", tiles)
    if not ok:
        raise CameraError(f"The picture of {zone.seat}'s dice could not be encoded.")
    return bytes(buf)


def _same_dice(values: tuple[int, ...]) -> tuple[int, ...]:
    """The dice said, whatever their order (highest first, as the log writes a settle)."""
    return tuple(sorted(values, reverse=True))


def _said(values: tuple[int, ...]) -> str:
    return "-".join(map(str, values))
