"""Games as the lists of the group, player and history pages show them, from the ladder's
summaries: no game's hands are read."""

from __future__ import annotations

from companion.models import Game, GameSummary, Player
from scoring.stats import GameLine
from scoring.table import Teams, default_decks

RECENT_GAMES = 10
"""The group and player pages list the latest games; the ladder history holds them all."""


def game_row(line: GameLine, players: dict[int, Player]) -> dict:
    """A game as a line of the history: its sides (the fixed teams, or every player in
    find-a-friend) with their levels, who leads or won, and its table where it is not the usual
    one."""
    sides = [
        {
            "players": [players[pk] for pk in line.players(side)],
            "won": line.won(side[0]),
            "level": line.levels[side[0]],
            "leads": side[0] in line.leaders,
        }
        for side in line.teams or [(seat,) for seat in range(len(line.seats))]
    ]
    return {
        "game": line,
        "sides": sides,
        "leaders": [side for side in sides if side["leads"]],
        "winners": [players[pk] for pk in line.players(line.winners)],
        "teams": Game.TeamsChoice(_teams(line).value),
        "decks": line.decks if line.decks != default_decks(len(line.seats)) else None,
    }


def _teams(line: GameLine) -> Teams:
    """How the game's players made sides: no fixed teams is find-a-friend, more than two teams
    is pairs."""
    if not line.teams:
        return Teams.FIND_A_FRIEND
    return Teams.PAIRS if len(line.teams) > 2 else Teams.PARTNERS


def rows_of(summaries: list[int], players: dict[int, Player]) -> list[dict]:
    """The games ``summaries`` (their ids, in order) as lines of a list."""
    lines = GameSummary.lines_of(summaries)
    return [game_row(lines[pk], players) for pk in summaries]
