"""The table's own screen (/watch/<token>/table/): the level and trump in large print for anyone
with the share link, following every save; and the "Trump declared" tap on the game page that
it shows, which the hand form takes up and the hand's save clears."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from hands import HELD_FIELDS, held_form

from companion.models import Game
from scoring import Rank, Suit, TrumpRule
from tests.reading import elements, text

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def screen(client, game: Game, **query) -> str:
    """The table screen as it reads: its text, without the markup."""
    return text(client.get(f"/watch/{game.share_token}/table/", query).text)


def glyphs(client, game: Game) -> dict[str, str]:
    """The large signs on the table screen, by what they say: the level and the trump."""
    page = client.get(f"/watch/{game.share_token}/table/").text
    signs = {sign: elements(page, f"#screen-{sign}") for sign in ("level", "trump")}
    return {sign: text(found[0]) for sign, found in signs.items() if found}


def declare(client, game: Game, trump: str, hand: int = 1, **headers):
    return client.post(
        f"/groups/{game.group_id}/games/{game.pk}/trump/",
        {"hand": hand, "trump": trump},
        headers=headers,
    )


def record(client, game: Game, **changes):
    game.refresh_from_db()
    data = {"version": game.version, "request_key": f"key-{game.version}", **held_form(**changes)}
    return client.post(f"/groups/{game.group_id}/games/{game.pk}/hands/new/", data)


def new_hand_page(client, game: Game) -> str:
    return client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text


def checked_trump(page: str) -> list[str]:
    return re.findall(r'name="trump"[^>]*value="(\w+)"[^>]*\bchecked\b', page)


def play(game: Game, user, count: int) -> None:
    """``count`` hands in which Mei's and Jun's sides take the deal from each other in turn."""
    for _ in range(count):
        game.refresh_from_db()
        state = game.scored().state
        fields = HELD_FIELDS | {"declarer": state.next_declarer, "opponent_points": 80}
        game.record_hand(fields, version=game.version, request_key="", by=user)
    game.refresh_from_db()


def test_it_opens_by_the_share_link_without_an_account(client, start_game):
    game = start_game()

    response = client.get(f"/watch/{game.share_token}/table/")

    assert response.status_code == 200
    said = text(response.text)
    assert "Thursday Tractor Hand 1" in said
    assert glyphs(client, game) == {"level": "2"}
    assert "Whoever wins the bid declares." in said
    assert "Trump not declared yet." in said
    assert "Mei & Lin 2 Jun & Hao 2" in said
    assert "Kitty: 8 cards" in said


def test_it_offers_nothing_that_changes_anything(client, member, start_game, user):
    game = start_game(first_declarer=0)
    play(game, user, 2)

    page = member.get(f"/watch/{game.share_token}/table/").text

    assert "<form" not in page
    assert "<button" not in page
    assert "/hands/" not in page and "/trump/" not in page
    assert re.findall(r'href="([^"]*)"', page)[-1] == f"/watch/{game.share_token}/"
    assert member.post(f"/watch/{game.share_token}/table/").status_code == 405


def test_it_is_gone_with_an_old_share_link(client, member, start_game):
    game = start_game()
    old = game.share_token
    game.new_share_link()

    assert client.get(f"/watch/{old}/table/").status_code == 404


def test_it_shows_the_trump_the_game_fixes(client, start_game):
    rotating = start_game(trumps=TrumpRule(suits=(Suit.HEARTS, Suit.SPADES)))
    never = start_game(trumps=TrumpRule(no_trump=True), first_declarer=0)

    assert glyphs(client, rotating) == {"level": "2", "trump": "♥"}
    assert glyphs(client, never) == {"level": "2", "trump": "NT"}
    assert "Mei declares." in text(screen(client, never))  # nobody bids: Mei starts hand 1


def test_it_shows_the_last_hand_in_one_sentence_and_who_declares(client, member, start_game):
    game = start_game()
    record(member, game)

    said = text(screen(client, game))

    assert (
        "Hand 1, Mei declaring: the declarers held the opponents to 45 and climbed 1 level." in said
    )
    assert "Mei or Lin may declare: Lin by turn." in said
    assert "Mei & Lin 3 Jun & Hao 2" in said
    assert glyphs(client, game) == {"level": "3"}


def test_a_declared_trump_shows_on_the_screen_and_in_the_hand_form(client, member, start_game):
    game = start_game()

    response = declare(member, game, "S")

    assert response.status_code == 302
    assert glyphs(client, game) == {"level": "2", "trump": "♠"}
    assert "Trump not declared yet." not in screen(client, game)
    assert checked_trump(new_hand_page(member, game)) == ["S"]


def test_a_declared_no_trump_is_tapped_as_no_trump(client, member, start_game):
    game = start_game()

    declare(member, game, "NT")

    assert glyphs(client, game) == {"level": "2", "trump": "NT"}
    assert checked_trump(new_hand_page(member, game)) == ["NT"]
    # Saved with nothing else tapped, the hand had the weakest bid that allows no trump.
    record(member, game, trump="NT")
    assert game.hands.get().bid == "small-jokers"


def test_the_same_tap_again_changes_nothing_and_another_replaces_it(member, start_game):
    game = start_game()
    declare(member, game, "S")
    game.refresh_from_db()
    version = game.version

    declare(member, game, "S")
    game.refresh_from_db()
    assert game.version == version  # the screens have nothing new to show

    declare(member, game, "D")
    game.refresh_from_db()
    assert (game.trump_declared, game.trump_declared_for, game.version) == ("D", 1, version + 1)


def test_the_tap_answers_htmx_with_the_buttons_pressed(member, start_game):
    game = start_game()

    page = declare(member, game, "H", **HTMX).text

    assert 'id="trump-declared"' in page
    assert "Trump declared for hand 1" in text(page)
    assert re.findall(r'value="(\w+)" aria-pressed="true"', page) == ["H"]
    assert "<html" not in page


def test_the_game_page_offers_the_tap_only_where_trump_is_bid(member, start_game):
    bid = start_game()
    fixed = start_game(trumps=TrumpRule(suits=(Suit.HEARTS,)))

    page = member.get(bid.get_absolute_url()).text

    assert "Trump declared for hand 1" in text(page)
    assert re.findall(r'name="trump" value="(\w+)"', page) == ["S", "H", "C", "D", "NT"]
    assert f'href="/watch/{bid.share_token}/table/"' in page
    assert "Trump declared" not in member.get(fixed.get_absolute_url()).text


def test_a_declared_trump_reaches_the_game_pages_poll(client, member, start_game):
    game = start_game()
    since = game.version

    declare(client=member, game=game, trump="C")
    page = member.get(game.get_absolute_url(), {"since": since}, headers=HTMX).text

    # A declared trump names no change of a hand: the poll sends the whole scoreboard.
    assert 'id="scoreboard"' in page
    assert re.findall(r'value="(\w+)" aria-pressed="true"', page) == ["C"]


def test_it_says_who_won_once_the_game_is_over(client, member, start_game, user):
    game = start_game(levels=[Rank.ACE, Rank.TWO, Rank.ACE, Rank.TWO], first_declarer=0)
    game.record_hand(HELD_FIELDS, version=game.version, request_key="", by=user)

    said = text(screen(client, game))

    assert "Mei & Lin win the game after 1 hand." in said
    assert glyphs(client, game) == {}
    assert "Hand 1, Mei declaring: the declarers held the opponents to 45 and won the game." in said
    assert "declares." not in said and "may declare" not in said and "Kitty" not in said
    assert "Trump declared" not in member.get(game.get_absolute_url()).text


def test_the_watch_page_links_the_table_screen(client, start_game):
    game = start_game()

    page = client.get(f"/watch/{game.share_token}/").text

    assert f'href="/watch/{game.share_token}/table/"' in page
    assert "Trump declared" not in text(page)


def test_saving_the_hand_clears_its_declared_trump(client, member, start_game):
    game = start_game()
    declare(member, game, "S")

    record(member, game, trump="S")

    game.refresh_from_db()
    assert (game.trump_declared, game.trump_declared_for) == ("", None)
    assert glyphs(client, game) == {"level": "3"}
    assert "Trump not declared yet." in text(screen(client, game))
    assert checked_trump(new_hand_page(member, game)) == []
    assert "Trump declared for hand 2" in text(member.get(game.get_absolute_url()).text)


def test_a_trump_for_a_hand_recorded_meanwhile_is_refused(client, member, start_game):
    game = start_game()
    record(member, game)

    response = declare(member, game, "S", hand=1)

    assert response.status_code == 302
    page = member.get(response.url).text
    assert (
        "That hand was recorded meanwhile: tap the trump again for the hand being played." in page
    )
    game.refresh_from_db()
    assert (game.trump_declared, game.trump_declared_for) == ("", None)


def test_a_game_that_fixes_its_trump_takes_no_declared_trump(member, start_game):
    game = start_game(trumps=TrumpRule(suits=(Suit.HEARTS,)))

    response = declare(member, game, "S", **HTMX)

    assert "This game fixes each hand's trump: nobody declares one." in text(response.text)
    game.refresh_from_db()
    assert game.trump_declared == ""
    # Nor can anything else store one: the database holds the rule.
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(trump_declared="S", trump_declared_for=1)


@pytest.mark.parametrize(
    ("trump", "hand"),
    [("S", None), ("", 1), ("X", 1), ("S", 0)],
    ids=["a trump for no hand", "a hand without a trump", "no such trump", "hand 0"],
)
def test_the_database_keeps_a_declared_trump_whole(start_game, trump, hand):
    game = start_game()

    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(trump_declared=trump, trump_declared_for=hand)


def test_only_members_declare(client, outsider, start_game):
    game = start_game()

    anonymous = declare(client, game, "S")
    client.force_login(outsider)
    stranger = declare(client, game, "S")

    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous.url
    assert stranger.status_code == 404
    game.refresh_from_db()
    assert game.trump_declared == ""


def test_a_poll_with_nothing_new_costs_one_query_and_sends_nothing(
    client, start_game, django_assert_num_queries
):
    game = start_game()

    with django_assert_num_queries(1):
        response = client.get(
            f"/watch/{game.share_token}/table/", {"since": game.version}, headers=HTMX
        )

    assert response.status_code == 204
    assert response.content == b""


def test_a_declared_trump_reaches_the_poll(client, member, start_game):
    game = start_game()
    since = game.version

    declare(member, game, "D")
    response = client.get(f"/watch/{game.share_token}/table/", {"since": since}, headers=HTMX)

    game.refresh_from_db()
    assert game.version == since + 1
    assert response.status_code == 200
    assert re.search(r'id="screen-trump">♦<', response.text)
    assert f"since={game.version}" in response.text
    assert "<html" not in response.text


def test_a_poll_costs_the_same_at_hand_3_and_at_hand_30(client, start_game, user):
    costs = []
    for hands in (3, 30):
        game = start_game(first_declarer=0)
        play(game, user, hands)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/watch/{game.share_token}/table/", {"since": 0}, headers=HTMX)
        assert response.status_code == 200
        assert f"Hand {hands + 1}" in text(response.text)
        costs.append(len(queries))

    # The game, its seats, its last hand and the levels before it.
    assert costs == [4, 4]


def test_it_shows_every_player_at_a_find_a_friend_table(client, member, friends_game):
    said = text(screen(client, friends_game))

    assert "Thursday Tractor Hand 4" in said
    for name in ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan"):
        assert re.search(rf"{name} [2-9JQKA]", said), name
    assert "Kitty: 6 cards" in said
    assert "Hand 3, Hao declaring: the declarers held the opponents to 95" in said

    declare(member, friends_game, "C", hand=4)
    assert glyphs(client, friends_game)["trump"] == "♣"


def test_it_shows_an_eight_player_table_in_pairs(client, pairs_game):
    said = text(screen(client, pairs_game))

    assert glyphs(client, pairs_game) == {"level": "4", "trump": "♥"}  # spades, hearts in turn
    assert "Mei & Lin" not in said  # pairs sit opposite
    assert "Lin & Kai 4" in said
    assert "Jun & Yan 3" in said
    assert "Kitty: 8 cards" in said
