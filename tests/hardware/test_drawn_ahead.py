"""The simulated camera's backdrops drawn ahead: the seeds wanted, each handed out once, a
frame never given another seed's backdrop, and nothing left drawing once closed."""

from __future__ import annotations

import threading

from hardware.cameras.drawn_ahead import DrawnAhead


class Drawer:
    """A stand-in for table_backdrop: records the seeds drawn; ``hold`` blocks a seed's drawing
    until released; ``fail`` seeds raise."""

    def __init__(self, hold: int | None = None, fail: tuple[int, ...] = ()) -> None:
        self.seeds: list[int] = []
        self.hold = hold
        self.fail = fail
        self.started = threading.Event()
        self.release = threading.Event()
        self.all_drawn = threading.Condition()

    def __call__(self, seed: int) -> tuple[str, int]:
        if seed == self.hold:
            self.started.set()
            self.release.wait(10)
        with self.all_drawn:
            self.seeds.append(seed)
            self.all_drawn.notify_all()
        if seed in self.fail:
            raise RuntimeError(f"cannot draw {seed}")
        return ("backdrop", seed)

    def wait_for(self, count: int) -> None:
        with self.all_drawn:
            assert self.all_drawn.wait_for(lambda: len(self.seeds) >= count, 10)


def test_the_seeds_wanted_are_drawn_lowest_first_and_each_handed_out_once() -> None:
    draw = Drawer()
    ahead = DrawnAhead(draw, depth=3)
    ahead.want(5)
    draw.wait_for(3)
    assert draw.seeds == [5, 6, 7]
    assert ahead.take(5) == ("backdrop", 5)
    assert ahead.take(5) is None  # one frame each: the next frame of seed 5 draws its own
    assert ahead.take(6) == ("backdrop", 6)
    ahead.close()


def test_a_seed_wanted_no_more_is_let_go_and_never_handed_to_another_frame() -> None:
    draw = Drawer()
    ahead = DrawnAhead(draw, depth=2)
    ahead.want(1)
    draw.wait_for(2)
    ahead.want(3)
    draw.wait_for(4)
    assert ahead.take(2) is None
    assert ahead.take(3) == ("backdrop", 3)
    assert ahead.take(9) is None  # never wanted
    ahead.close()
    assert sorted(draw.seeds) == [1, 2, 3, 4]


def test_a_frame_waits_for_its_backdrop_being_drawn() -> None:
    draw = Drawer(hold=5)
    ahead = DrawnAhead(draw, depth=1)
    ahead.want(5)
    assert draw.started.wait(10)
    threading.Timer(0.05, draw.release.set).start()
    assert ahead.take(5) == ("backdrop", 5)  # not None: it waited rather than draw its own
    ahead.close()


def test_a_backdrop_that_fails_is_drawn_by_its_frame_and_the_next_still_ahead() -> None:
    draw = Drawer(fail=(5,))
    ahead = DrawnAhead(draw, depth=2)
    ahead.want(5)
    draw.wait_for(2)
    assert ahead.take(5) is None
    assert ahead.take(6) == ("backdrop", 6)
    ahead.close()


def test_closed_it_waits_for_the_one_being_drawn_and_draws_no_more() -> None:
    draw = Drawer(hold=5)
    ahead = DrawnAhead(draw, depth=3)
    ahead.want(5)
    assert draw.started.wait(10)
    threading.Timer(0.05, draw.release.set).start()
    ahead.close()
    assert draw.seeds == [5]
    ahead.want(6)
    assert ahead.take(6) is None and draw.seeds == [5]
