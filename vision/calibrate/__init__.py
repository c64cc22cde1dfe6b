"""A table learning its own dice: its known throws (pictures with their values), how a reading
of them is scored, which reader reads them better, and the table's own network taught on them
(or its head alone, without the learn extra)."""
