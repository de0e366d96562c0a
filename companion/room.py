"""An evening as its pages and the room screen show it: every table of a round live (levels,
who declares, hands played) and the evening's standings, read in a fixed number of queries
whatever the hands (the levels and hands come from the games' ladder summaries; only each
table's last hand is read, to say who declares next). A room screen's poll names the stamp it
shows; an unchanged stamp is answered with nothing (the poll's rule is the scoreboard's)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, prefetch_related_objects
from django.http import HttpRequest

from companion.display import joined, sides, team
from companion.models import Evening, EveningTable, GameSummary, Hand, Player, Round
from scoring.evenings import RANKING, SITTING_OUT, EveningGame, EveningStanding, standings
from scoring.game import replay, resume
from scoring.stats import HandLine

ROOM_FIELDS = ("group",)


def stamp(evening: Evening) -> str:
    """What a room screen shows is of this stamp: the evening's version (its seating, rounds,
    who is present) and its group's, which every change to the group's games raises."""
    return f"{evening.version}-{evening.group.version}"


def nothing_new(request: HttpRequest, evening: Evening) -> bool:
    """A watching screen's poll names the stamp it shows; if that is current, answer 204."""
    return bool(request.htmx) and request.GET.get("since") == stamp(evening)


@dataclass
class LiveTable:
    """A table of a round as the room sees it."""

    number: int
    table: EveningTable
    sides: list[dict]
    hands: int
    declaring: str
    won: str
    ended: bool
    # Nobody has bid yet: whoever wins the first bid declares.
    bidding: bool
    # The table has played the hands the evening gives a round.
    full: bool

    @property
    def over(self) -> bool:
        return bool(self.won) or self.ended or self.full


def board(evening: Evening) -> dict:
    """The evening now: its rounds, the current round's tables live, the standings."""
    rounds = list(evening.rounds.order_by("number"))
    for r in rounds:
        r.evening = evening
    played = list(
        EveningTable.objects.filter(round__evening=evening)
        .select_related("game", "game__summary")
        .order_by("round__number", "number")
    )
    games = [table.game for table in played]
    records = GameSummary.records_of([game.pk for game in games])
    current = rounds[-1] if rounds else None
    live = [table for table in played if current is not None and table.round_id == current.pk]
    presences = list(evening.presences.select_related("player").order_by("player__name"))
    present = [presence.player for presence in presences]
    here = {presence.player_id for presence in presences if presence.present}
    known = {player.pk: player for player in present}
    wanted = {pk for record in records.values() for pk in record.seats} | {
        pk for r in rounds for pk in (*r.seated_ids(), *r.sitting_out)
    }
    missing = wanted - known.keys()
    if missing:
        known |= {player.pk: player for player in Player.objects.filter(pk__in=missing)}
    ranked = standings(
        [
            EveningGame(records[table.game_id], ended=table.ended is not None)
            for table in played
            if table.game_id in records
        ],
        [player.pk for player in present if player.pk in here],
    )
    games_at = {(table.round_id, table.number): table for table in played}
    shown = _live(live, current)
    return {
        "evening": evening,
        "rounds": rounds,
        "current": current,
        "proposed": current if current is not None and current.started is None else None,
        "live": shown,
        # Every table of the round being played is over, or has played the round's hands.
        "round_over": bool(shown) and all(table.over for table in shown),
        "time_up": current is not None and current.time_up(),
        "played": [
            {
                "round": r,
                "tables": [
                    {
                        "number": number,
                        "game": games_at[(r.pk, number)].game_id,
                        "players": joined([known[pk].name for pk in table]),
                        "ended": games_at[(r.pk, number)].ended is not None,
                    }
                    for number, table in enumerate(r.tables, start=1)
                    if (r.pk, number) in games_at
                ],
                "out": joined([known[pk].name for pk in r.sitting_out]),
            }
            for r in rounds
            if r.started is not None
        ],
        "out": joined([known[pk].name for pk in current.sitting_out]) if current else "",
        "players": known,
        "here": [player for player in present if player.pk in here],
        "gone": [player for player in present if player.pk not in here],
        "standings": [_line(line, known) for line in ranked],
        "ranking": RANKING,
        "sitting_out_rule": SITTING_OUT,
        "stamp": stamp(evening),
    }


def _line(line: EveningStanding, players: dict[int, Player]) -> dict:
    return {"line": line, "name": players[line.player].name}


def _live(tables: list[EveningTable], current: Round | None) -> list[LiveTable]:
    """The tables of the current round: each side's level, who declares the next hand, the
    hands played. The last hand of each is read (one query for all) and played again from the
    levels before it, for who declares next."""
    if not tables:
        return []
    games = [table.game for table in tables]
    prefetch_related_objects(games, "seats__player")
    wanted = Q(pk__in=[])
    for game in games:
        if game.summary.hand_count:
            wanted |= Q(game=game, number=game.summary.hand_count)
    last = {hand.game_id: hand for hand in Hand.objects.filter(wanted)}
    limit = current.evening.hands_per_round if current is not None else None
    made = []
    for table in tables:
        game = table.game
        setup = game.setup
        summary = game.summary
        hand = last.get(game.pk)
        if hand is None:
            state = replay(setup, ()).state
        else:
            before = (
                HandLine.from_json(summary.hands[-2]).levels
                if len(summary.hands) > 1
                else setup.levels
            )
            state = resume(setup, hand.number, before, [hand.result]).state
        players = setup.table.players
        # Before a first bid anyone may declare: the bid decides.
        bidding = state.next_declarer is None and len(state.next_declarers) == len(players)
        made.append(
            LiveTable(
                number=table.number,
                table=table,
                sides=[
                    {
                        "players": team(side, players),
                        "level": state.levels[side[0]],
                        "declaring": not bidding
                        and (
                            state.next_declarer in side
                            or (
                                state.next_declarer is None
                                and set(state.next_declarers) == set(side)
                            )
                        ),
                    }
                    for side in sides(setup.table)
                ],
                hands=summary.hand_count,
                declaring=team(
                    (state.next_declarer,)
                    if state.next_declarer is not None
                    else state.next_declarers,
                    players,
                )
                if not (state.game_over or bidding) and table.ended is None
                else "",
                bidding=bidding,
                won=team(state.winners, players) if state.game_over else "",
                ended=table.ended is not None,
                full=bool(limit) and summary.hand_count >= limit,
            )
        )
    return made
