"""The venue: every table of a pub forwarding its committed log to one hub (NATS JetStream),
the hub's ingester keeping it in PostgreSQL. See docs/venue.md."""
