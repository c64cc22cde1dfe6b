"""Pull the plug, hundreds of times: a game is played in a child process killed with SIGKILL.

Run by tests/firmware/test_crash.py (and by hand: ``python tests/firmware/crash_harness.py
DB KILLS SEED``). The parent forks a child that starts a TableController on the log, with the
simulated camera unsure of 30% of the dice, and plays random legal presses (THROW, a long
THROW, BET, CALL, PASS; a throw the camera is unsure of counts with its values pending, so a
kill lands during reads still coming; exposed values pending are settled by the players, the
owner's word then the others', or by the referee, so a kill lands during settles; now and then
an undo; a new game when one is over), reporting every acknowledged command on a pipe. After
a random number of acknowledged commands (0 to 6), at a random moment, the parent kills it
with SIGKILL, then restarts: a new controller is built from
the log, and the parent checks

- the SQLite file passes ``PRAGMA integrity_check``;
- the restarted controller's state equals an independent replay of the game record
  (``engine.replay`` of the record exported from the log);
- chips are conserved (every variant's total);
- every acknowledged action is in the log, as acknowledged: at most the command being
  handled is lost (or, for an undo in flight, already applied); the camera's settles of dice
  it exposed are played with the command, or by the restarted table before it is ready
  (the child reports what it then holds, and any other action its start played).

Forking (not spawning) keeps a restart cheap, so hundreds of kills fit in about a minute.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import sys
import time

from engine import replay
from firmware.camera.simulation import SceneReader, SimulatedDice, UnsureReads, random_presses
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import GameLog, LogError
from firmware.gamelog.rebuild import effective_actions, record_from_log
from firmware.table.commands import Correct, EnterDice, Press, Settle
from firmware.table.controller import TableController
from vision.zones import default_zones

VARIANTS = (("two-hand", ("Ann", "Bob"), 9), ("multi-hand", ("Ann", "Bob", "Cid"), 18),
            ("montevideo", ("Ann", "Bob", "Cid"), 18))


def total_chips(state: dict) -> int:
    return sum(state["chips"].values()) + state["centre"] + state["pot"] + state["removed"]


def _last(c: TableController) -> str:
    return str(c.game.history[-1]) if c.game.history else "-"


def by_camera(action: str) -> bool:
    """A settle the camera made of dice it exposed (D-S4), not a command's action."""
    return " settle " in action and action.endswith(" by camera")


def child(db: str, seed: int, out: int, held: tuple[int, int, str] | None = None) -> None:
    """Play forever (until killed), writing ``ack GAME ACTIONS`` after each accepted command;
    ``held`` is what the parent's restart held (the game and its actions) before this one."""
    rng = random.Random(seed)
    size = (192, 144)  # small frames: a read takes ~20 ms, so games move between kills
    zones = default_zones(["Ann", "Bob", "Cid"], *size)
    dice = SimulatedDice(zones, seed=seed, size=size, unsure=0.3)
    watcher = DiceWatcher(dice.camera, {z.seat: z for z in zones},
                          UnsureReads(SceneReader(dice.camera), dice), frame_pause=0.0)
    c = TableController(GameLog(db), variant="two-hand", players=("Ann", "Bob"),
                        watcher=watcher, before_read=dice.before_read).start()

    def ack() -> None:
        os.write(out, f"ack {c.row.id} {len(c.game.history)} {_last(c)}\n".encode())

    # A restart reads again the dice exposed before the kill and settles by camera those it
    # reads surely (firmware.table.exposure: "on start"), before any command: what it holds when
    # it is ready is reported, and anything else it played is a problem.
    if held is not None and held[0] == c.row.id:
        made = [str(a) for a in c.game.history[held[1]:] if not by_camera(str(a))]
        if made:
            os.write(out, f"problem the restart played {made}\n".encode())
    os.write(out, f"start {c.row.id} {len(c.game.history)} {_last(c)}\n".encode())
    os.write(out, b"ready\n")
    while True:
        if c.game.over:
            variant, players, _ = rng.choice(VARIANTS)
            c.submit(Correct("new-game", "crash-test", "game over", variant=variant,
                             players=players))
            ack()
            continue
        if c.game.history and rng.random() < 0.03:
            os.write(out, b"undo\n")  # the one command that may leave one action fewer
            if c.submit(Correct("undo", "crash-test", "random undo")).ok:
                ack()
            continue
        waiting = c.game.unsettled()
        if waiting:
            seat = waiting[0]
            values = dice.camera.dice().get(seat) or (rng.randint(1, 6),) * c.game.settle_dice()
            if rng.random() < 0.3:
                if c.submit(EnterDice(seat, values, "crash-test")).ok:
                    ack()
                continue
            for player in (seat, *c.game.settle_witnesses(seat)):
                if c.submit(Settle(seat, values, player)).ok:
                    ack()
            continue
        seat, presses = random_presses(c.game, rng)
        for button, long in presses:
            if c.submit(Press(seat, button, long)).ok:
                ack()


def check(db: str, acked: tuple[int, int, str] | None, undoing: bool = False
          ) -> tuple[str | None, tuple[int, int, str]]:
    """Restart on ``db`` and check it: a sentence saying what is wrong (or None), and the
    (game, actions) the restarted table holds -- what the next child starts from."""
    con = sqlite3.connect(db)
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    if ok != "ok":
        return f"integrity_check says {ok}", (0, 0, "-")
    try:
        c = TableController(GameLog(db), variant="two-hand", players=("Ann", "Bob")).start()
    except LogError as e:
        return f"the restart failed: {e}", (0, 0, "-")
    now = (c.row.id, len(c.game.history),
           str(c.game.history[-1]) if c.game.history else "-")
    try:
        row = c.row
        expected = replay(record_from_log(row, c.log.entries(row.id))).state()
        if c.game.state() != expected:
            return f"restarted state {c.game.state()} != replay {expected}", now
        _, _, total = next(v for v in VARIANTS if v[0] == row.variant)
        if total_chips(c.game.state()) != total:
            return f"chips not conserved: {c.game.state()}", now
        if acked is not None:
            game_id, count, last = acked
            if row.id == game_id:
                logged = effective_actions(c.log.entries(game_id))
                low = count - 1 if undoing else count  # one command may have been in flight
                # ... and the camera's settles of the dice it exposed, played with it (D-S4)
                extra = [str(a) for a in logged[count + 1:]]
                if not all(by_camera(a) for a in extra):
                    return f"game {game_id}: {count} acknowledged, then {extra} logged", now
                if not low <= len(logged) <= count + 1 + len(extra):
                    return (f"game {game_id}: {count} actions acknowledged but {len(logged)} "
                            "in the log"), now
                if count and len(logged) >= count and str(logged[count - 1]) != last:
                    return (f"game {game_id}: acknowledged action {count} was {last!r} but "
                            f"the log has {str(logged[count - 1])!r}"), now
            elif row.id != game_id + 1:
                return f"acknowledged game {game_id} but the log's latest is {row.id}", now
            elif c.log.game(game_id) is None:
                return f"acknowledged game {game_id} is not in the log", now
    finally:
        c.stop()
    return None, now


def main(db: str, kills: int, seed: int) -> int:
    rng = random.Random(seed)
    survived = 0
    acked: tuple[int, int, str] | None = None
    t0 = time.monotonic()
    for i in range(kills):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play until killed
            os.close(r)
            try:
                child(db, seed * 100_003 + i, w, acked)
            finally:
                os._exit(3)
        os.close(w)
        buf = b""
        while b"ready\n" not in buf:  # killing before the start would test nothing new
            chunk = os.read(r, 4096)
            if not chunk:
                break
            buf += chunk
        # a few commands acknowledged first (a random number), so the kills land across the
        # game however slowly a busy machine lets the child play; then a random moment
        wanted = rng.randint(0, 6)
        while buf.split(b"ready\n", 1)[-1].count(b"ack ") < wanted:
            chunk = os.read(r, 4096)
            if not chunk:
                break
            buf += chunk
        time.sleep(rng.uniform(0.0, 0.3))  # a read takes ~20 ms: time for a few hands
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        while chunk := os.read(r, 65536):
            buf += chunk
        os.close(r)
        undoing = False
        for line in buf.decode().splitlines():
            if line.startswith("problem "):
                print(json.dumps({"kill": i + 1, "problem": line[len("problem "):]}))
                return 1
            if line.startswith(("ack ", "start ")):
                _, g, n, last = line.split(" ", 3)
                acked = (int(g), int(n), last)
            undoing = line == "undo"
        problem, acked = check(db, acked, undoing)
        if problem is not None:
            print(json.dumps({"kill": i + 1, "problem": problem}))
            return 1
        survived += 1
    log = GameLog(db)
    games = log.games()
    texts = [e.text for g in games for e in log.entries(g.id) if e.kind == "action"]
    log.close()
    print(json.dumps({"kills_survived": survived, "games": len(games),
                      "finished": sum(g.status == "over" for g in games),
                      "pending": sum(t.endswith(" ?") for t in texts),
                      "settled": sum(" settle " in t for t in texts),
                      "seconds": round(time.monotonic() - t0, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
