"""Second-seat confirmation: a group can ask that each hand be confirmed on an opponent's phone.

Mei (seat 0) and Lin (seat 2) are partners against Jun (seat 1) and Hao (seat 3); Mei, Jun and
Hao have accounts in the group, Lin joins with one where a test says so. Mei keeps score: her
hands are Mei's to declare, so Jun and Hao are the opponents who confirm them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hands import HELD_FIELDS

from companion.models import GameSummary, Group, Hand, HandChange, Membership
from tests.reading import text

pytestmark = pytest.mark.django_db


def account(group, players, name: str) -> User:
    """An account for ``name``'s player, a member of ``group`` (Mei already has one)."""
    user = User.objects.create_user(name.lower())
    Membership.objects.create(group=group, user=user)
    player = next(player for player in players if player.name == name)
    player.user = user
    player.save()
    return user


def phone(user: User) -> Client:
    """``user``'s phone, logged in."""
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def mei(user, players):
    players[0].user = user
    players[0].save()
    return user


@pytest.fixture
def jun(group, players):
    return account(group, players, "Jun")


@pytest.fixture
def hao(group, players):
    return account(group, players, "Hao")


@pytest.fixture
def asking(group) -> Group:
    group.ask_for_confirmations(True)
    return group


@pytest.fixture
def game(asking, mei, jun, hao, start_game):
    return start_game()


def record(game, by, **changes) -> Hand:
    game.refresh_from_db()
    return game.record_hand({**HELD_FIELDS, **changes}, version=game.version, request_key="", by=by)


def hand_action(game, action: str, number: int = 1) -> str:
    """Where a hand's button posts: confirm, flag or unflag."""
    return f"/groups/{game.group_id}/games/{game.pk}/hands/{number}/{action}/"


def confirm(client, game, number: int = 1, **options):
    """Tap "Confirm hand ``number``" on a page showing the game as it is now."""
    game.refresh_from_db()
    data = {"version": game.version}
    return client.post(hand_action(game, "confirm", number), data, **options)


def scoreboard(client, game) -> str:
    return text(client.get(game.get_absolute_url()).text)


def test_it_shows_a_hand_as_unconfirmed_until_an_opponent_confirms_it(game, mei, jun):
    record(game, mei)

    at_meis = phone(mei).get(game.get_absolute_url()).text
    at_juns = phone(jun).get(game.get_absolute_url()).text
    response = confirm(phone(jun), game)

    assert "Unconfirmed" in text(at_meis)
    assert "Waiting for Jun or Hao to confirm it on their phone." in text(at_meis)
    assert "Confirm hand 1" not in at_meis  # Mei entered it
    assert "Confirm hand 1" in text(at_juns)
    assert response.status_code == 302
    assert response["Location"] == f"{game.get_absolute_url()}#hand-1"
    hand = Hand.objects.get()
    assert (hand.confirmed_by, hand.entered_by) == (jun, mei)
    page = scoreboard(phone(mei), game)
    assert "✓ Confirmed by Jun" in text(page)
    assert "Unconfirmed" not in text(page)


def test_a_hand_waiting_for_this_phone_comes_before_the_levels_and_its_row_points_to_it(
    game, mei, jun
):
    record(game, mei)

    at_juns = phone(jun).get(game.get_absolute_url()).text

    # One Confirm, one Flag, above where everyone stands (the game page's first screen).
    assert at_juns.count("Confirm hand 1") == 1
    assert at_juns.count("Something is wrong: flag it") == 1
    assert at_juns.index("Confirm hand 1") < at_juns.index('id="standings"')
    row = at_juns[at_juns.index('id="hand-1"') :]
    assert "Confirm it or flag it at the top of the page." in text(row)
    assert 'href="#hand-1-confirmation"' in row


def test_a_flag_and_its_note_come_before_the_levels_for_everyone(game, mei, jun, client):
    record(game, mei)
    phone(jun).post(hand_action(game, "flag"), {"note": "Hao took the kitty"})

    at_meis = phone(mei).get(game.get_absolute_url()).text
    watching = client.get(f"/watch/{game.share_token}/").text

    for page in (at_meis, watching):
        assert text(page).index("Flagged by Jun: Hao took the kitty") < text(page).index(
            "Mei & Lin 3"
        )
    assert at_meis.count("Settle a trick on the Dispute page") == 1
    assert at_meis.index("Settle a trick on the Dispute page") < at_meis.index('id="standings"')
    assert "Settle a trick" not in watching  # a watcher only reads


def test_the_account_that_entered_a_hand_cannot_confirm_it(game, mei):
    record(game, mei)

    response = confirm(phone(mei), game)

    assert response.status_code == 403
    assert "You entered hand 1: someone else confirms it on their own phone" in text(response.text)
    assert Hand.objects.get().confirmed_at is None


def test_a_declarer_cannot_confirm_while_an_opponent_has_an_account(game, group, players, mei):
    lin = account(group, players, "Lin")
    record(game, mei)

    response = confirm(phone(lin), game)

    assert response.status_code == 403
    assert "Only Jun or Hao, who played against the declarers, may confirm hand 1." in text(
        response.text
    )
    assert Hand.objects.get().confirmed_at is None


def test_any_other_member_confirms_when_no_opponent_has_an_account(
    asking, players, mei, start_game
):
    lin = account(asking, players, "Lin")  # Mei's partner: Jun and Hao have no accounts
    game = start_game()
    record(game, mei)

    waiting = scoreboard(phone(mei), game)
    response = confirm(phone(lin), game)

    assert "Waiting for another member to confirm it on their phone." in waiting
    assert response.status_code == 302
    assert Hand.objects.get().confirmed_by == lin
    assert "✓ Confirmed by Lin" in scoreboard(phone(mei), game)


def test_an_opponent_who_entered_the_hand_leaves_it_to_another_member(
    asking, group, players, mei, start_game
):
    jun = account(group, players, "Jun")  # the only opponent with an account
    game = start_game()
    record(game, jun)

    refused = confirm(phone(jun), game)
    confirmed = confirm(phone(mei), game)

    assert refused.status_code == 403
    assert confirmed.status_code == 302
    assert Hand.objects.get().confirmed_by == mei


def test_an_edit_clears_the_confirmation(game, mei, jun, hao):
    record(game, mei)
    confirm(phone(jun), game)
    game.refresh_from_db()

    game.edit_hand(1, {"opponent_points": 80}, version=game.version, by=mei)

    hand = Hand.objects.get()
    assert (hand.confirmed_by, hand.confirmed_at, hand.entered_by) == (None, None, mei)
    assert "Unconfirmed" in scoreboard(phone(mei), game)
    assert confirm(phone(hao), game).status_code == 302


def test_saving_a_hand_unchanged_keeps_its_confirmation(game, mei, jun):
    record(game, mei)
    confirm(phone(jun), game)
    game.refresh_from_db()

    game.edit_hand(1, {"opponent_points": 45}, version=game.version, by=mei)

    assert Hand.objects.get().confirmed_by == jun


def test_an_edit_by_an_opponent_leaves_the_confirmation_to_the_other(game, mei, jun, hao):
    record(game, mei)
    game.refresh_from_db()
    game.edit_hand(1, {"opponent_points": 80}, version=game.version, by=jun)

    assert confirm(phone(jun), game).status_code == 403
    assert confirm(phone(hao), game).status_code == 302


def test_a_confirmation_of_a_hand_changed_since_the_page_is_refused(game, mei, jun):
    record(game, mei)
    game.refresh_from_db()
    seen = game.version
    game.edit_hand(1, {"opponent_points": 80}, version=game.version, by=mei)

    juns = phone(jun)
    response = juns.post(hand_action(game, "confirm"), {"version": seen})

    assert response.status_code == 302
    assert Hand.objects.get().confirmed_at is None
    page = scoreboard(juns, game)
    assert "Hand 1 changed since your page showed it: check it, then confirm it." in text(page)


def test_a_hand_recorded_since_the_page_does_not_stop_a_confirmation(game, mei, jun):
    record(game, mei)
    game.refresh_from_db()
    seen = game.version
    record(game, mei, declarer=2)

    response = phone(jun).post(hand_action(game, "confirm"), {"version": seen})

    assert response.status_code == 302
    assert Hand.objects.get(number=1).confirmed_by == jun


def test_a_flag_shows_with_the_dispute_link(game, mei, jun, hao):
    record(game, mei)

    response = phone(hao).post(hand_action(game, "flag"), {"note": "Jun took the last trick"})

    assert response.status_code == 302
    html = phone(jun).get(game.get_absolute_url()).text
    assert "Flagged by Hao: Jun took the last trick" in text(html)
    assert f'href="/groups/{game.group_id}/games/{game.pk}/dispute/?hand=1"' in html
    assert "Confirm hand 1" in text(html)  # settled at the table as it is
    hand = Hand.objects.get()
    assert (hand.flagged_by, hand.flag_note, hand.confirmed_at) == (
        hao,
        "Jun took the last trick",
        None,
    )
    history = text(phone(mei).get(f"/groups/{game.group_id}/games/{game.pk}/history/").text)
    assert "Hand 1 flagged Hao" in history  # the roster name of the account, not its username
    assert "“Jun took the last trick”" in text(history)


def test_a_flag_takes_a_confirmation_back_and_a_confirmation_settles_a_flag(game, mei, jun, hao):
    record(game, mei)
    confirm(phone(jun), game)

    phone(hao).post(hand_action(game, "flag"), {"note": ""})
    flagged = Hand.objects.get()
    page = scoreboard(phone(mei), game)
    confirm(phone(jun), game)
    settled = Hand.objects.get()

    assert (flagged.confirmed_at, flagged.flagged_by) == (None, hao)
    assert "Flagged by Hao." in text(page)
    assert (settled.confirmed_by, settled.flagged_at, settled.flag_note) == (jun, None, "")


def test_taking_a_flag_back_leaves_the_hand_waiting(game, mei, jun, hao):
    record(game, mei)
    phone(hao).post(hand_action(game, "flag"), {"note": "kitty?"})

    response = phone(mei).post(hand_action(game, "unflag"))

    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.flagged_at, hand.flag_note, hand.confirmed_at) == (None, "", None)
    assert "Unconfirmed" in scoreboard(phone(mei), game)
    actions = list(HandChange.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["recorded", "flagged", "unflagged"]


def test_the_one_who_entered_a_hand_corrects_it_rather_than_flag_it(game, mei):
    record(game, mei)

    page = phone(mei).get(game.get_absolute_url()).text
    response = phone(mei).post(hand_action(game, "flag"), {"note": "oops"})

    assert "flag it" not in text(page)
    assert response.status_code == 403
    assert Hand.objects.get().flagged_at is None


def test_a_too_long_note_is_refused_with_its_reason(game, mei, jun):
    record(game, mei)

    response = phone(jun).post(hand_action(game, "flag"), {"note": "x" * 201})

    assert response.status_code == 400
    assert "Say what is wrong in at most 200 characters." in text(response.text)
    assert Hand.objects.get().flagged_at is None


def test_it_shows_nothing_when_the_group_does_not_ask(group, mei, jun, start_game):
    game = start_game()
    record(game, mei)

    html = phone(jun).get(game.get_absolute_url()).text
    response = confirm(phone(jun), game)

    assert "hand-confirmation" not in html
    assert "Unconfirmed" not in html
    assert "Confirm hand" not in html
    assert response.status_code == 403
    assert "Hand 1 needs no confirmation" in text(response.text)
    assert counts(game)


def counts(game) -> bool:
    """Whether the game counts in the ladder history, as it is in the database now."""
    game.refresh_from_db()
    return game.counts


def test_a_hand_entered_before_the_group_asked_counts_as_it_is(group, mei, jun, start_game):
    game = start_game()
    record(game, mei)

    group.ask_for_confirmations(True)

    assert "Unconfirmed" not in scoreboard(phone(mei), game)
    assert counts(game)
    record(game, mei, declarer=2)
    assert "Unconfirmed" in scoreboard(phone(mei), game)
    assert not counts(game)


def test_the_game_counts_once_every_hand_is_confirmed(game, mei, jun):
    record(game, mei)
    record(game, mei, declarer=2)

    waiting = scoreboard(phone(mei), game)
    counted_before = counts(game)
    unconfirmed_games = game.group.unconfirmed_games()
    confirm(phone(jun), game, 1)
    one_left = scoreboard(phone(mei), game)
    confirm(phone(jun), game, 2)

    assert (
        "Hands 1 and 2 are not confirmed yet: the game counts in the ladder history once "
        "they are." in waiting
    )
    assert "Hand 2 is not confirmed yet" in one_left
    assert (counted_before, unconfirmed_games) == (False, {game.pk})
    assert counts(game)
    assert game.group.unconfirmed_games() == set()
    assert "not confirmed yet" not in scoreboard(phone(mei), game)


def test_the_ladder_history_counts_a_game_only_up_to_its_first_waiting_hand(game, mei, jun):
    def counted() -> tuple[int, int]:
        """The hands the ladder history counts: as stored by the last change, and as a page
        that replays the game now would count them."""
        stored = GameSummary.objects.get(game=game).hands
        (replayed,) = GameSummary.records([game])
        return len(stored), len(replayed.hands)

    record(game, mei)
    record(game, mei, declarer=2)
    record(game, mei, declarer=2)
    confirm(phone(jun), game, 2)
    nothing_yet = counted()
    confirm(phone(jun), game, 1)
    two = counted()
    confirm(phone(jun), game, 3)

    assert (nothing_yet, two, counted()) == ((0, 0), (2, 2), (3, 3))


def test_it_names_a_waiting_hand_the_scoreboard_no_longer_lists(game, mei, jun):
    for number in range(1, 16):
        record(game, mei, declarer=0 if number % 2 else 1, opponent_points=80)
    Hand.objects.filter(number__gt=1).update(confirmed_by=jun, confirmed_at=timezone.now())

    page = phone(mei).get(game.get_absolute_url()).text

    assert 'id="hand-1"' not in page  # among the earlier hands, behind a link
    assert "Hand 1 is not confirmed yet: the game counts in the ladder history once it is." in (
        text(page)
    )


def test_turning_confirmations_off_counts_the_waiting_hands(game, mei):
    record(game, mei)
    game.refresh_from_db()
    before, group_before = game.version, game.group.version

    response = phone(mei).post(f"/groups/{game.group_id}/confirmations/", follow=True)

    game.refresh_from_db()
    assert "Hands no longer wait for a confirmation: each counts as it is entered." in text(
        response.text
    )
    assert not game.group.hands_need_confirmation
    assert game.counts
    assert game.version == before + 1  # watchers stop showing the hand as unconfirmed
    assert game.group.version == group_before + 1  # the ladder counts the game
    assert "Unconfirmed" not in scoreboard(phone(mei), game)


def test_a_member_turns_confirmations_on_from_the_group_page(group, member):
    page = member.get(f"/groups/{group.pk}/").text
    response = member.post(
        f"/groups/{group.pk}/confirmations/",
        {"hands_need_confirmation": "on"},
        follow=True,
    )

    assert "Each hand needs an opponent's confirmation" in text(page)
    assert 'id="id_hands_need_confirmation" checked' not in page
    assert "each hand waits for an opponent's confirmation" in text(response.text)
    assert 'id="id_hands_need_confirmation" checked' in response.text
    group.refresh_from_db()
    assert group.hands_need_confirmation


def test_a_confirmation_raises_the_version_so_watchers_update(game, mei, jun, client):
    record(game, mei)
    game.refresh_from_db()
    watch = f"/watch/{game.share_token}/"
    poll = {"since": game.version}

    quiet = client.get(watch, poll, headers={"HX-Request": "true"})
    confirm(phone(jun), game)
    heard = client.get(watch, poll, headers={"HX-Request": "true"})

    assert quiet.status_code == 204
    assert heard.status_code == 200
    assert "✓ Confirmed by Jun" in text(heard.text)
    assert "Confirm hand" not in heard.text  # a watcher only reads
    change = HandChange.objects.get(action="confirmed")
    game.refresh_from_db()
    assert (change.by, change.version, change.hand_number) == (jun, game.version, 1)


def test_htmx_gets_the_scoreboard_again(game, mei, jun):
    record(game, mei)
    game.refresh_from_db()

    response = phone(jun).post(
        hand_action(game, "confirm"),
        {"version": game.version},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="scoreboard"')
    assert "✓ Confirmed by Jun" in text(response.text)


def test_a_refusal_to_htmx_reloads_the_page_with_its_reason(game, mei):
    record(game, mei)

    meis = phone(mei)
    response = confirm(meis, game, headers={"HX-Request": "true"})

    assert response["HX-Refresh"] == "true"
    assert "You entered hand 1" in scoreboard(meis, game)


def test_the_game_history_names_confirmations(game, mei, jun):
    record(game, mei)
    confirm(phone(jun), game)

    history = text(phone(mei).get(f"/groups/{game.group_id}/games/{game.pk}/history/").text)

    assert "Hand 1 confirmed Jun" in text(history)
    assert "Hand 1 recorded Mei" in text(history)


def test_others_cannot_confirm(game, mei, outsider, client):
    record(game, mei)

    stranger = confirm(phone(outsider), game)
    anonymous = confirm(client, game)
    no_such_hand = confirm(phone(mei), game, 2)
    a_get = phone(mei).get(hand_action(game, "confirm"))

    assert stranger.status_code == 404
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert no_such_hand.status_code == 404
    assert a_get.status_code == 405
    assert Hand.objects.get().confirmed_at is None


def test_a_double_tap_confirms_once(game, mei, jun):
    record(game, mei)
    game.refresh_from_db()
    data = {"version": game.version}

    first = phone(jun).post(hand_action(game, "confirm"), data)
    again = phone(jun).post(hand_action(game, "confirm"), data)

    assert (first.status_code, again.status_code) == (302, 302)
    assert HandChange.objects.filter(action="confirmed").count() == 1


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"confirmed_by": "jun"}, id="a confirmer without a time"),
        pytest.param({"flagged_by": "jun"}, id="a flagger without a time"),
        pytest.param({"flag_note": "no"}, id="a note without a flag"),
        pytest.param({"confirmed_at": "now", "flagged_at": "now"}, id="confirmed and flagged"),
        pytest.param({"confirmed_by": "mei", "confirmed_at": "now"}, id="confirmed by the enterer"),
        pytest.param({"needs_confirmation": False, "confirmed_at": "now"}, id="confirmed unasked"),
    ],
)
def test_the_database_holds_the_confirmation_rules(game, mei, jun, fields):
    hand = record(game, mei)
    accounts = {"jun": jun, "mei": mei, "now": timezone.now()}
    values = {name: accounts.get(value, value) for name, value in fields.items()}

    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(pk=hand.pk).update(**values)


def test_a_deleted_account_leaves_its_confirmation(game, mei, jun):
    record(game, mei)
    confirm(phone(jun), game)

    jun.delete()

    hand = Hand.objects.get()
    assert hand.confirmed_by is None and hand.confirmed_at is not None
    assert "✓ Confirmed" in scoreboard(phone(mei), game)


def test_a_note_belongs_to_a_flag_in_the_history(game, mei):
    hand = record(game, mei)

    with pytest.raises(IntegrityError), transaction.atomic():
        HandChange.objects.create(game=game, hand_number=hand.number, action="edited", note="x")


def test_the_names_of_confirmers_cost_no_query_per_hand(game, mei, jun, hao):
    client = phone(jun)
    for number in range(1, 41):
        record(game, mei, declarer=0 if number % 2 else 1, opponent_points=80)
    client.get(game.get_absolute_url())  # warm: the session and the game's summary
    waiting = page_queries(client, game.get_absolute_url())
    watched_waiting = page_queries(Client(), f"/watch/{game.share_token}/")
    now = timezone.now()
    # Every kind of row: confirmed by Jun or by Hao, flagged by Hao, waiting (1 and 2).
    Hand.objects.filter(number__range=(4, 20)).update(confirmed_by=jun, confirmed_at=now)
    Hand.objects.filter(number=3).update(flagged_by=hao, flagged_at=now, flag_note="?")
    Hand.objects.filter(number__gt=20).update(confirmed_by=hao, confirmed_at=now)

    named = page_queries(client, game.get_absolute_url())
    watched_named = page_queries(Client(), f"/watch/{game.share_token}/")

    assert (named, watched_named) == (waiting, watched_waiting)
    assert "✓ Confirmed by Hao" in text(client.get(game.get_absolute_url()).text)


def page_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)
