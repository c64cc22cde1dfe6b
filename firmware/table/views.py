"""The state dicts the dashboard shows: the concealment boundary of the table.

Dice values live in the controller and the engine. ``public_state`` is built only from
``game.state()`` and ``game.views()`` (whose ``exposed`` holds dice the rules have shown:
showdown, open throw, Poor Fish), so a seat's concealed dice cannot reach the table view,
whatever the dashboard does. Whether a concealed throw's values are pending is concealed too
(docs/rules/pending.md, D-S2): the table view learns it only for exposed dice, while they are
settled (``settling``). ``seat_state`` adds that one seat's own dice; ``referee_state``
adds everything. Tests check the boundary by looking for dice values in the JSON.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from engine.game import Effect, Game
from firmware.camera.throws import DiceWatcher, SeatRead
from firmware.gamelog.rows import Entry
from firmware.table.commands import Refusal
from firmware.words import engine_words, press_labels
from firmware.words.phrases import Phrase
from firmware.words.throw_words import throw_words

#: The public state's format: each text a phrase, sent once (docs/dashboard.md, "Seats").
STATE_FORMAT = "bidou-state/2"


def public_state(game: Game, *, game_id: int, status: str, version: int,
                 offered: dict[str, int],
                 events: list[Phrase], settled: list[Effect], camera: dict[str, Any],
                 hand_actions: int, opening: Sequence[Effect] = (),
                 settling: Sequence[dict[str, Any]] = (), first_event: int = 1
                 ) -> dict[str, Any]:
    """What anyone at the table may see: no concealed dice.

    ``settled`` are the chip moves and game end of the latest settlement, until the next
    hand's first action (``firmware.table.playing.play``), kept as the engine
    gave them (who, how many chips, from where, to where, the rule, its sentence) so the
    dashboard words them from fields, never by reading the event sentences back. ``opening``
    are the effects of the action that began this hand (a player going out, M8, an open throw,
    a side pot), which the banner announces for the whole hand; the shown dice of the last
    showdown are left out of it, as they are no longer on the table. ``settling`` are the
    exposed dice whose values the table is settling now (``firmware.table.exposure``).
    """
    state = dict(game.state())
    last = last_actions(game, hand_actions)
    seats = []
    for v in game.views():
        seat = asdict(v)
        seat["last_action"] = last.get(v.name)
        seat["exposed"] = list(v.exposed) if v.exposed is not None else None
        seat["offered"] = offered.get(v.name, 0)
        seats.append(seat)
    allowed: dict[str, list[str]] = {p: [] for p in game.players}
    for a in game.allowed():
        if a.verb not in allowed[a.player]:
            allowed[a.player].append(a.verb)
    state.update(
        format=STATE_FORMAT,
        game_id=game_id,
        variant=game.variant,
        players=list(game.players),
        options=dict(game.options),
        seats=seats,
        allowed=allowed,
        events=[e.to_json() for e in events],  # for each screen to say in its language
        first_event=first_event,  # the number of events[0]: each sentence keeps its number
        settled=[settled_fields(e) for e in settled],
        opening=[settled_fields(e) for e in opening if e.kind != "expose"],
        hand=game.hand,
        version=version,
        camera=dict(camera),
        actions=len(game.history),
        hand_actions=hand_actions,
        status=status,
        settling=list(settling),
    )
    return state


def settled_fields(effect: Effect) -> dict[str, Any]:
    """An effect as JSON: who took what, from where, why (never its ``dice`` field); its
    ``text`` a phrase for people, which each screen says in its language."""
    return {"kind": effect.kind, "player": effect.player, "chips": effect.chips,
            "source": effect.source, "dest": effect.dest, "rule": effect.rule,
            "detail": effect.detail, "text": engine_words.sentence(effect.said).to_json()}


def last_actions(game: Game, hand_actions: int) -> dict[str, dict[str, Any]]:
    """Each player's latest action this hand as ``{"verb", "chips"}``: the verb and the chips
    a bet or raise put in, never a throw's dice (those stay under the cup)."""
    last: dict[str, dict[str, Any]] = {}
    if hand_actions <= 0:
        return last
    for action in game.history[-hand_actions:]:
        last[action.player] = {"verb": action.verb, "chips": action.chips}
    return last


def is_settlement(effect: Effect) -> bool:
    """Whether ``effect`` settles chips or the game: a chip move, or the game's end."""
    return effect.kind in ("move", "game")


def camera_status(watcher: DiceWatcher | None) -> dict[str, Any]:
    """The camera line of the public state: its name, whether it works, its last error."""
    if watcher is None:
        return {"name": None, "ok": False, "error": "no camera: the referee enters dice"}
    return {"name": watcher.camera.name,
            "ok": watcher.camera_error is None, "error": watcher.camera_error}


def settling(game: Game, last_reads: Mapping[str, SeatRead], pictured: Collection[str],
             claims: Mapping[str, Mapping[str, tuple[int, ...]]],
             disputes: Mapping[str, Phrase]) -> list[dict[str, Any]]:
    """The public settle prompt (``firmware.table.exposure``): only exposed seats whose values
    are pending, each with the players who settle it, the camera's sure values (None for an
    unsure die, from ``last_reads``), what each player has said (``claims``), whether it went
    to the referee (``disputes``) and whether there is a picture of it (``pictured``)."""
    out = []
    count = game.settle_dice()
    for seat in game.unsettled():
        read = last_reads.get(seat)
        sure = [d.value for d in read.dice] if read is not None else []
        guess: list[int | None] = [*sure[:count], *[None] * max(0, count - len(sure))]
        dispute = disputes.get(seat)
        out.append({"seat": seat, "dice": count,
                    "witnesses": list(game.settle_witnesses(seat)),
                    "guess": guess,
                    "said": {q: list(v) for q, v in claims.get(seat, {}).items()},
                    "referee": _json(dispute),
                    "picture": seat in pictured})
    return out


def seat_dice(game: Game, seat: str) -> list[int] | None:
    """The dice under ``seat``'s cup (None before a throw, or while its values are pending)."""
    dice = game.concealed_dice(seat)
    return list(dice) if dice else None


def captain_roll(game: Game, seat: str, hand_actions: int) -> int | None:
    """``seat``'s die in the captain roll that began this hand (its latest, after a tie),
    until it throws: the roller's phone shows it where a throw's dice will be. A captain
    roll's die is public (``wording.action_sentence`` says it to the table), so no concealed
    die is shown by this; a roll whose value is pending has none until settled."""
    if game.concealed_dice(seat) is not None:
        return None
    start = len(game.history) - max(0, hand_actions)
    if game.expects == "roll":  # rolling now: this hand's actions are the rolls so far
        block = game.history[start:]
    else:  # the captaincy is decided: the rolls just before this hand began, if any
        first = start
        while first > 0 and _is_roll(game.history[first - 1]):
            first -= 1
        block = game.history[first:start]
    die = None
    for action in block:
        if action.player == seat and _is_roll(action) and action.numbers:
            die = action.numbers[0]
    return die


def _is_roll(action: Any) -> bool:
    """A captain roll, or the settling of one (a settle of one die)."""
    return action.verb == "roll" or (action.verb == "settle" and len(action.numbers) == 1)


def add_seat(state: dict[str, Any], game: Game, seat: str,
             refusal: Refusal | None = None) -> dict[str, Any]:
    """Public state plus ``seat``'s own dice, their name and place in Table 1, what each
    of its buttons does now (BET's one-tap bet, when the rules allow one amount), the bet
    facing it, and why its last press was refused (for that seat's page and nobody else: a
    refusal is never on the pub screen)."""
    out = dict(state)
    out["seat"] = seat
    out["dice"] = seat_dice(game, seat)
    out["dice_pending"] = game.values_pending(seat)
    out["captain_roll"] = captain_roll(game, seat, state.get("hand_actions", 0))
    name, rank = throw_words(out["dice"], game.options.get("ranking", "three-digit"))
    out["dice_name"], out["dice_rank"] = _json(name), _json(rank)
    offered = next((s["offered"] for s in state.get("seats", []) if s["name"] == seat), 0)
    buttons = press_labels.labels(game, seat, offered)
    out["buttons"] = {k: _json(v) for k, v in buttons.items()}
    out["bet_at_once"] = press_labels.at_once(game, seat, offered)
    out["facing"] = _json(press_labels.facing(game, seat, state.get("hand_actions", 0)))
    out["refusal"] = _json(refusal.phrase or Phrase(refusal.sentence)) if refusal else None
    return out


def _json(phrase: Phrase | None) -> dict[str, Any] | None:
    """A phrase as a state carries it (``Phrase.to_json``), or None."""
    return phrase.to_json() if phrase is not None else None


def folded_flags(kinds: Mapping[str, tuple[Phrase, int]]) -> list[dict[str, Any]]:
    """The flags as the console lists them (``SeatReads.flag_kinds``): one line per kind of
    flag, in the order each kind first came, saying the latest of its kind and how many there
    were (``{"said": phrase, "count": n}``): a sentence repeated a dozen times is one line."""
    return [{"said": latest.to_json(), "count": count} for latest, count in kinds.values()]


def add_referee(state: dict[str, Any], game: Game, *, needs_look: dict[str, str],
                flags: list[Phrase], entries: list[Entry], last_reads: dict[str, SeatRead],
                disputes: dict[str, Phrase] | None = None,
                flag_kinds: Mapping[str, tuple[Phrase, int]] | None = None) -> dict[str, Any]:
    """Everything: all dice, the values pending (and why), the seat whose dice wait (shown
    ones first), the players' disagreements over exposed values, flags and the log of this
    game."""
    out = dict(state)
    out["dice"] = {p: seat_dice(game, p) for p in game.players}
    waiting = set(game.unsettled())
    out["needs_look"] = [{"seat": s, "reason": r} for s, r in needs_look.items()
                         if game.values_pending(s) or s in waiting]
    # whose dice the referee is most likely to enter: shown ones first, as play waits on them
    out["waiting_seat"] = next(iter(game.unsettled()), None) or next(
        (n["seat"] for n in out["needs_look"]), None)
    out["disputes"] = [{"seat": s, "sentence": d.to_json()} for s, d in (disputes or {}).items()]
    out["flags"] = [str(f) for f in flags]  # each in English, as they came
    out["flag_lines"] = folded_flags(flag_kinds or {})
    out["history"] = [f"{e.seq} {e.kind} {e.text} (by {e.by}{'; ' + e.why if e.why else ''})"
                      for e in entries]
    out["reads"] = {s: {"values": list(r.values) if r.values else None, "reason": r.reason}
                    for s, r in last_reads.items()}
    return out
