"""The headers every answer of the dashboard and of the venue screen carries (``web.guard``
adds them; the table's press gate, which answers before Flask, sends them too)."""

from __future__ import annotations

SECURE_HEADERS: dict[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
}
