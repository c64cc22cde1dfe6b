"""The Dice page's Learn runs the same calibration as `bidou-table calibrate --known-throws`,
the teaching of the table's own network included, wherever the learn extra is installed; its
progress names each fold's stage. A short teaching (2 folds, 3 steps) keeps it fast: the
calibration's process runs here as a thread (its function, :func:`learning.child`, is what the
process runs), so the shortened constants reach it. Skipped without PyTorch."""

from __future__ import annotations

import os
import threading
from multiprocessing.connection import Connection

import pytest

pytest.importorskip("torch", reason="teaching the table's network needs the learn extra "
                    "(make learn)")
pytest.importorskip("onnx2torch", reason="the learn extra (make learn) brings onnx2torch")

from firmware.teach import learning  # noqa: E402
from vision.calibrate import finder, folds, network  # noqa: E402
from vision.calibrate import teach as teaching  # noqa: E402

from .teach_table import teach, teach_table  # noqa: E402


class InThread:
    """The calibration's process, as a thread: what :func:`learning._spawn` returns."""

    def __init__(self, request) -> None:
        read_end, write_end = os.pipe()
        self.receive = Connection(read_end, writable=False)
        self.thread = threading.Thread(
            target=learning.child, args=(request, Connection(write_end, readable=False)))
        self.thread.start()

    def wait(self, timeout: float) -> int:
        self.thread.join(timeout)
        return 0

    def poll(self) -> int | None:
        return None if self.thread.is_alive() else 0


@pytest.mark.slow
def test_the_pages_learn_teaches_the_table_s_network_where_the_extra_is_installed(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(network.NO_TEACHING, "1")  # the suite's default is "0" (conftest)
    monkeypatch.setattr(teaching, "STEPS", 3)
    monkeypatch.setattr(finder, "STEPS", 3)
    monkeypatch.setattr(folds, "FOLDS", 2)

    def spawn(request):
        child = InThread(request)
        return child, child.receive

    monkeypatch.setattr(learning, "_spawn", spawn)
    stages: list[dict] = []
    house, teacher, app = teach_table(tmp_path)
    try:
        teacher.learning.changed = lambda: stages.append(
            teacher.learning.progress.to_json(0.0))
        teach(house, teacher, 11)
        assert learning.learn_extra_here()
        assert teacher.learn() is None and teacher.learning.wait(300)
        done = teacher.learning.outcome
        assert done is not None and done.error is None, teacher.learning.failure
        assert isinstance(done.result, folds.Teaching)  # the network, not the head alone
        lines = teacher.learning.progress.lines
        assert network.HEAD_ONLY not in lines
        assert any(line.startswith("The table's own network, taught 2 times") for line in lines)
        assert {(s["fold"], s["stage"]) for s in stages} >= {
            (1, "teaching the network the table's dice"),
            (2, "teaching the network the table's dice")}
        recorded = teacher.teachings.last()
        assert recorded is not None and recorded.by == "referee" and recorded.network
    finally:
        house.close()
