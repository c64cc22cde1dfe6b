"""The table keeps learning (firmware/teach/self_teaching.py, keep_rule.py, teachings.py): it
teaches itself again only when idle (10 minutes with no game action, or at the configured time
of day) and once 30 new known dice have come since its last teaching; it keeps a taught reader
only when the throws held out show no more wrong dice, a wrong die priced at 100 right ones;
every teaching is recorded beside the reader's config, survives a restart and is listed on the
Dice page; and where the learn extra is missing the page says so in one sentence. Idleness and
the time of day come from a fake clock: nothing sleeps."""

from __future__ import annotations

import html
from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest

from engine.errors import ConfigError
from firmware.settings.config import build_config
from firmware.settings.learning_settings import IDLE_SECONDS, LearningSettings, parse_learning
from firmware.teach import keep_rule
from firmware.teach.calibrate_reader import Calibration
from firmware.teach.dice_teacher import DiceTeacher
from firmware.teach.self_teaching import NEW_DICE, SelfTeaching
from firmware.teach.teachings import Teaching, Teachings
from table_server.console import dice_teach
from vision.calibrate.known import Tally

from .teach_table import TOKEN, login, teach


class Clock:
    """Seconds that move only when the test says."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def referee_new_game(client):
    return client.post("/api/referee/correct", headers={"Authorization": f"Bearer {TOKEN}"},
                       json={"kind": "new-game", "why": "next game"})


def tally(right: int, wrong: int = 0, extra: int = 0, dice: int = 60) -> Tally:
    return Tally(dice=dice, right=right, wrong=wrong, extra=extra, pictures=dice // 3)


def test_the_table_is_idle_only_after_ten_minutes_without_a_game_action(taught) -> None:
    house, teacher, app, _ = taught
    clock = Clock()
    itself = SelfTeaching(teacher, LearningSettings(), clock=clock, note=lambda line: None)
    assert itself.look() == "playing"
    clock.t += IDLE_SECONDS - 1
    assert itself.look() == "playing"
    assert referee_new_game(login(app)[0]).status_code == 200  # a game action: idle starts anew
    clock.t += 2
    assert itself.look() == "playing"
    clock.t += IDLE_SECONDS
    assert itself.look() == "few"  # idle now; too few known dice to teach
    assert itself.look() == "waiting"  # counted once per stretch of idleness


def test_it_teaches_itself_only_once_30_new_dice_have_come_since_its_last_teaching(
        taught) -> None:
    house, teacher, app, _ = taught
    clock = Clock()
    itself = SelfTeaching(teacher, LearningSettings(), clock=clock, note=lambda line: None)
    teach(house, teacher, 11)  # 33 known dice
    teacher.record(Teaching("2026-12-05T23:00:00+00:00", "table", 10, 10, False,
                            {"t": "not kept"}))
    clock.t += IDLE_SECONDS
    assert itself.new_dice() == (33, 23)
    assert itself.look() == "few" and not teacher.learning.running
    teacher.teachings = Teachings(teacher.teachings.path.with_name("other.json"))
    assert itself.new_dice() == (33, 33) and NEW_DICE <= 33
    referee_new_game(login(app)[0])  # a new stretch of idleness, counted again
    assert itself.look() == "playing"  # the thread looks every few seconds
    clock.t += IDLE_SECONDS
    assert itself.look() == "teaching"
    # play goes on: the table's own teaching refuses no new game, unlike the referee's Learn
    assert referee_new_game(login(app)[0]).status_code == 200
    assert teacher.learning.wait(300)
    done = teacher.teachings.last()
    assert done is not None and done.by == "table" and (done.dice, done.new_dice) == (33, 33)
    assert done.before is not None and done.after is not None
    assert teacher.learning.outcome is None  # decided by the table, nothing left to Keep
    assert itself.look() == "playing"
    clock.t += IDLE_SECONDS
    assert itself.look() == "few"  # none new since this teaching


def test_at_the_configured_time_of_day_it_looks_once_that_day() -> None:
    teacher = SimpleNamespace(log=SimpleNamespace(count_entries=lambda: 7), files=object(),
                              learning=SimpleNamespace(running=False, outcome=None),
                              tally=lambda: SimpleNamespace(total=12), teachings=None)
    when = datetime(2026, 12, 6, 4, 29).astimezone()
    itself = SelfTeaching(teacher, parse_learning({"when": "04:30"}), clock=Clock(),
                          now=lambda: when, note=lambda line: None)
    assert itself.look() == "waiting"
    when += timedelta(minutes=1)
    assert itself.look() == "few"  # the time has come; 12 known dice are too few
    when += timedelta(minutes=20)
    assert itself.look() == "waiting"  # once a day
    when += timedelta(days=1, minutes=-20)
    assert itself.look() == "few"


def test_a_bad_learning_time_stops_the_start_with_a_sentence() -> None:
    for bad in ("25:00", "4:30", "sometimes", 430):
        with pytest.raises(ConfigError) as caught:
            build_config({"table": {"players": ["Ann", "Bob"]}, "learning": {"when": bad}},
                         environ={})
        assert caught.value.key == "learning.when" and '"HH:MM"' in str(caught.value)
    with pytest.raises(ConfigError, match="no such key"):
        parse_learning({"at": "04:30"})
    config = build_config({"table": {"players": ["Ann", "Bob"]}, "learning": {"when": "never"}},
                          environ={})
    assert not config.learning.on


def test_the_keep_rule_refuses_a_reader_with_more_wrong_dice_however_many_more_it_reads() -> None:
    worse = keep_rule.judge(tally(40, wrong=0), tally(58, wrong=1), True)
    assert not worse.kept and "wrong dice on the throws held out, 1 against 0" in str(worse.why)
    phantom = keep_rule.judge(tally(40), tally(58, extra=1), True)
    assert not phantom.kept
    # a wrong die is priced at 100 right ones: one fewer error is worth 30 fewer right
    careful = keep_rule.judge(tally(50, wrong=1), tally(20, wrong=0), True)
    assert careful.kept
    same = keep_rule.judge(tally(40, wrong=1), tally(40, wrong=1), True)
    assert not same.kept
    assert not keep_rule.judge(tally(40), tally(45), False).kept  # the calibration's own word


def test_a_worse_taught_reader_is_not_saved_and_the_table_reads_as_before(taught) -> None:
    house, teacher, app, folder = taught
    config_before = (folder / "pub.toml").read_text()
    reader_before = house.watcher.reader
    itself = SelfTeaching(teacher, LearningSettings(), clock=Clock(), note=lambda line: None)
    worse = SimpleNamespace(before=tally(40, wrong=0), after=tally(55, wrong=2), kept=True,
                            seconds=12.0)
    itself._pending = (60, 30)
    itself._finished(Calibration(status=0, result=worse), None)  # as Learning tells it
    assert (folder / "pub.toml").read_text() == config_before
    assert house.watcher.reader is reader_before
    done = teacher.teachings.last()
    assert done is not None and done.kept is False and done.after["wrong"] == 2
    assert "not kept: wrong dice on the throws held out, 2 against 0" in str(done.said)


def test_the_dice_page_lists_every_teaching_and_the_list_survives_a_restart(taught) -> None:
    house, teacher, app, folder = taught
    teacher.record(Teaching("2026-12-06T02:10:00+00:00", "table", 93, 33, True,
                            keep_rule.judge(tally(40, 1), tally(52, 0), True).why.to_json(),
                            tally(40, 1).figures(), tally(52, 0).figures(), 180.0, True))
    teacher.record(Teaching("2026-12-06T04:30:00+00:00", "table", 126, 33, False,
                            keep_rule.judge(tally(52), tally(60, 1), True).why.to_json(),
                            tally(52).figures(), tally(60, 1).figures(), 200.0, True))
    again = DiceTeacher(house.log, house.watcher, str(folder / "pub.toml"))  # a restart
    assert [t.dice for t in again.teachings.all()] == [93, 126]
    dice_teach.install(app, again, dice_teach.Changes())
    page = " ".join(html.unescape(login(app)[0].get("/referee/dice").get_data(as_text=True))
                    .split())
    rows = page.split('id="teachings-list"', 1)[1].split("</table>", 1)[0]
    assert rows.index("2026-12-06 04:30") < rows.index("2026-12-06 02:10")  # newest first
    assert "126 (33)" in rows and "52 / 0" in rows and "60 / 1" in rows
    assert "kept: 52 right and 0 wrong on the throws held out, against 40 right and 1 wrong" \
        in rows
    assert "not kept: wrong dice on the throws held out, 1 against 0" in rows
    french = " ".join(html.unescape(login(app)[0].get("/referee/dice?lang=fr")
                                    .get_data(as_text=True)).split())
    rows = french.split('id="teachings-list"', 1)[1].split("</table>", 1)[0]
    assert "126 (33)" in rows and "not kept" not in rows
    assert "pas gardé : dés faux sur les coups tenus à l'écart, 1 contre 0" in rows


@pytest.mark.parametrize("installed", [False, True])
def test_where_the_learn_extra_is_missing_the_page_says_so_naming_the_command(
        taught, monkeypatch, installed) -> None:
    _, _, app, _ = taught
    monkeypatch.setattr(dice_teach, "learn_extra_here", lambda: installed)
    page = " ".join(html.unescape(login(app)[0].get("/referee/dice").get_data(as_text=True))
                    .split())
    said = ("This table can learn its dice only in part: its full learning is not installed. "
            "Whoever installs the table adds it with <code>sudo firmware/deploy/install.sh"
            "</code>.")
    assert (said in page) is not installed


def test_an_unreadable_record_of_teachings_is_set_aside_and_said_never_lost(tmp_path) -> None:
    path = tmp_path / "pub.teachings.json"
    path.write_text("[{half a record")
    said: list[str] = []
    record = Teachings(path, note=said.append)
    assert record.all() == [] and len(said) == 1 and "could not be read" in said[0]
    assert (tmp_path / "pub.teachings.json.unreadable").read_text() == "[{half a record"
    record.add(Teaching("2026-12-06T04:30:00+00:00", "table", 60, 30, True, {"t": "kept"}))
    assert [t.dice for t in Teachings(path).all()] == [60]
