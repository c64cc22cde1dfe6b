"""Teaching the table its own dice: known throws, the referee's corrections, a calibration.

``bidou-table calibrate --known-throws`` and the console's "Dice" page both come here: the
folder of known throws (``known_folder``), the referee's corrections as known throws
(``correction_pictures``), a phone's photo checked (``photo_upload``), the calibration itself
(``calibrate_reader``), run in the background (``learning``) and kept or undone
(``reader_keeping``), all behind one object for the console (``dice_teacher``). Apart from the
controller, which never waits for any of it.
"""
