"""The camera's side of a throw: the dice read once still, what the referee sees, the simulation.

A throw is read from the seat's zone when the dice have settled (``throws``); the controller's
reads, pending values and flags (``seat_reads``); the annotated picture and zones for the
referee (``pictures``); and the simulated table's dice and reader (``simulation``). Apart from
the controller core so that what a camera can and cannot see is read in one place.
"""
