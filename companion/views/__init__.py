"""The app's pages, one module per area."""

# The group and player pages list the latest games; the ladder history holds them all.
RECENT_GAMES = 10
