"""The Flask dashboard: table view, seat controllers, referee console, history and the HTTP API."""
