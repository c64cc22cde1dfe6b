"""The durable log of every game, a game rebuilt from it, and what of it may leave the table.

The table's truth is its log (``log``, checked before it is trusted by ``log_guard``); a game's
state is always rebuilt from its entries (``rebuild``). Which entries may leave the table while
their game is played (``concealment``) and the ``seating`` entry's format (``seating_entry``)
live here too: a venue's hub and a league read entries and nothing else of the table, so they
import this part and never the controller, the seat panels or GPIO code.
"""
