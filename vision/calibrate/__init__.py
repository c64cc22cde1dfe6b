"""A table learning its own dice: its known throws (pictures with their values), how a reading
of them is scored, which reader reads them better, and the table's own head fitted on them."""
