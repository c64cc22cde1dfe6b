"""The league: every pub's games in one PostgreSQL store, its players' ratings (docs/league.md)."""
