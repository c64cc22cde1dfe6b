"""The controller core: the one owner of the game, fed by one queue, applied in order.

What anyone may ask (``commands``), the worker that takes the asks one at a time, what a seat's
press means now, the referee's commands and corrections, values settled at exposure, the
seating, publishing each change, and the state dicts each screen may see (``views``, the
table's concealment boundary). Apart from the camera, the log and the words, so that the part
that decides what happens to the game reads as one piece; ``house`` builds it from the config.
"""
