"""The venue screen (`bidou-venue screen`): every table of the pub at once, every finished
game, every player's record; live from the hub by SSE. See docs/venue.md."""
