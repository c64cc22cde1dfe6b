"""The league's screen: standings, players, pubs, games and a live wall (docs/league.md)."""
