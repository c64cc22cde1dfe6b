"""How the league screen prints a rating: two decimals, and a rating that rounds to nothing is
"0.00", never "-0.00" (a new player just under zero)."""

from __future__ import annotations

from league_screen.app import rating_text


def test_a_rating_is_printed_with_two_decimals_and_no_negative_zero() -> None:
    assert rating_text(4.0) == "4.00"
    assert rating_text(-0.004) == "0.00"
    assert rating_text(-0.0) == "0.00"
    assert rating_text(-0.006) == "-0.01"
