"""The table controller: turns seat presses and camera reads into engine actions, keeps the log."""
