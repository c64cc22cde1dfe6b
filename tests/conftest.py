"""The whole suite: a calibration fits the learned reader's head alone (teaching the table's
own network takes minutes of PyTorch); tests/firmware/test_calibrate_network.py and
tests/vision/test_teach_network.py teach it. Set here, before any test starts a process, so
the referee console's calibration process is told too."""

import os

from vision.calibrate.network import NO_TEACHING

os.environ.setdefault(NO_TEACHING, "0")
