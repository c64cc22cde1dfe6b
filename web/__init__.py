"""The HTTP serving the table's dashboard and the venue screen share (docs/architecture.md)."""
