"""Dice vision: the dice under each seat's cup, read from the table's camera with a confidence.

One folder per job, so that retiring a reader is deleting a folder:

- this package: the contract every part reads through (:mod:`vision.reader`'s ``Reader`` and
  ``open_reader``, the one door), what a reading is (:mod:`vision.reading`), seat zones,
  the ``[vision]`` settings, the annotated picture and the ``read-dice`` command;
- :mod:`vision.rules`: the rule reader (pips found and checked against the legal layouts);
- :mod:`vision.learned`: the reader on a pretrained network, run by onnxruntime;
- :mod:`vision.calibrate`: a table learning its own dice from its known throws;
- ``vision/models/``: every weight file the readers load.
"""
