"""The simulated table's pictures: top-down dice scenes rendered with the truth of every die,
for the simulated camera (:mod:`simulator.table_scenes`), the tests and the training corpus.

It sits between ``vision`` (whose ``Box`` it draws) and ``hardware`` (whose simulated camera
shows its frames), and is never needed by a real table's reading."""
