"""Dice vision: pip recognition of real dice with OpenCV, per seat, with a confidence."""
