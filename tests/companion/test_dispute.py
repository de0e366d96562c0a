"""The Dispute page: a disputed trick tapped in and judged by `scoring`, anywhere or in a game,
and a game's verdicts kept as the group's precedents."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion.models import Dispute, Game, Hand
from scoring import get_rules
from scoring.cli import judge_request

pytestmark = pytest.mark.django_db

# ENGINE-JSON.md's example: P2 held a pair of trumps and did not play it.
CONTRACT_TRICK = {
    "rules": "kawu",
    "level": "5",
    "trump": "H",
    "decks": "2",
    "play_1": "5H 5H",
    "hand_1": "5H 5H 9S",
    "play_2": "9H KH",
    "hand_2": "9H KH 7H 7H 3C",
    "play_3": "SJ SJ",
    "hand_3": "SJ SJ",
    "play_4": "2C 3C",
}


def field_block(page: str, name: str) -> str:
    """The HTML of one cards field: its label, input, errors and grid slot."""
    at = page.index(f'id="id_{name}"')
    start = page.rindex('<div class="cards-field', 0, at)
    return page[start : page.index('class="card-grid-slot"', at)]


def text(page: str) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", page).split()))


@pytest.fixture
def game(group, players) -> Game:
    return Game.objects.create(
        group=group, rules_json=get_rules("open-ladder").to_json(), **players
    )


def add_hand(game: Game, number: int, **fields) -> Hand:
    """A hand North declares in hearts and holds to 45 points (North–South climb 1)."""
    return Hand.objects.create(
        game=game,
        number=number,
        declarer=fields.pop("declarer", "N"),
        trump=fields.pop("trump", "H"),
        kitty_points=0,
        opponent_points=45,
        last_trick_winner="declarers",
        last_trick_format="single",
        last_trick_cards=1,
        **fields,
    )


def dispute_url(game: Game) -> str:
    return f"/groups/{game.group_id}/games/{game.pk}/dispute/"


def test_it_judges_the_contract_s_example_trick_for_anyone(client):
    response = client.post("/dispute/", {**CONTRACT_TRICK, "action": "judge"})

    assert response.status_code == 200
    verdict = text(response.text[response.text.index('id="verdict"') :])
    assert "P3 wins the trick 20 points" in verdict
    assert "P1 led a pair in trumps." in verdict
    assert "P2 9♥ K♥ ✗ Illegal: P2 held the pair 7H 7H in trumps and had to play it" in verdict
    assert "P1 5♥ 5♥ ✓ Legal" in verdict
    assert "P4 2♣ 3♣ Not checked: their hand was not given" in verdict
    assert "Save the verdict" not in verdict


def test_it_updates_the_verdict_in_place_for_htmx(client):
    response = client.post("/dispute/", CONTRACT_TRICK, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="verdict"')
    assert "P3 wins the trick" in response.text
    # The fields come along out of band, so that errors beside them appear and clear.
    assert '<div id="dispute-fields" data-seated="false" hx-swap-oob="true">' in response.text
    assert "<html" not in response.text


def test_the_standalone_page_works_logged_out_and_links_from_home(client):
    page = client.get("/dispute/")

    assert page.status_code == 200
    assert "P1 played" in page.text
    assert 'href="/dispute/"' in client.get("/").text


def test_a_table_of_three_decks_has_six_players(client):
    response = client.post(
        "/dispute/",
        {"rules": "standard", "level": "2", "trump": "S", "decks": "3"}
        | {f"play_{n}": card for n, card in enumerate(["3H", "4H", "6H", "7H", "8H", "AH"], 1)},
    )

    assert "P6 wins the trick" in text(response.text)
    assert 'data-seat="6" data-index="5">' in response.text
    assert 'data-seat="7" data-index="6" hidden>' in response.text


def test_it_judges_a_hand_without_trump(client):
    # At level 5 without trump, the level cards and the small jokers are one tractor.
    response = client.post(
        "/dispute/",
        {
            "rules": "standard",
            "level": "5",
            "trump": "none",
            "decks": "2",
            "play_1": "5S 5S SJ SJ",
            "play_2": "5H 5H BJ BJ",
            "play_3": "AS AS KS KS",
            "play_4": "2C 3C 4C 6C",
        },
    )

    verdict = text(response.text[response.text.index('id="verdict"') :])
    assert "P1 wins the trick 40 points" in verdict
    assert "P1 led a tractor in trumps. standard · level 5 · No trump" in verdict


def test_a_failed_throw_shows_who_beats_it_what_to_lead_and_the_penalty(client):
    response = client.post(
        "/dispute/",
        {
            "rules": "open-ladder",
            "level": "2",
            "trump": "S",
            "decks": "2",
            "play_1": "AH QH QH",
            "play_2": "KH KH 3H",
            "hand_2": "KH KH 3H 4C",
        },
    )

    verdict = text(response.text[response.text.index('id="verdict"') :])
    assert "P1's throw fails P2 can beat it: P1 leads Q♥ Q♥ Penalty: 10 points" in verdict
    assert (
        "✗ Illegal: P1's throw fails: P2 held KH KH, which beats QH QH; "
        "P1 takes back 1 card and leads QH QH, paying 10 points"
    ) in verdict


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"play_2": "XH 9H"}, "play_2", "unknown card &#x27;XH&#x27;"),
        ({"hand_3": "2C 2C 2C SJ SJ"}, "hand_3", "P3&#x27;s hand: 2C appears 3 times"),
        ({"play_4": "SJ 3C"}, "play_4", "the plays: SJ appears 3 times"),
        ({"hand_1": "5H 5H BJ BJ", "play_4": "BJ 3C"}, "play_4", "the hands and plays together"),
        ({"play_2": "9H QH"}, "play_2", "P2&#x27;s play: QH is not in P2&#x27;s hand"),
        ({"play_1": "AS KS", "hand_1": ""}, "play_1", "which the kawu rules forbid"),
        ({"play_1": "5H 9S"}, "play_1", "mixes trumps and spades"),
        ({"play_1": ""}, "play_1", "Give the cards P1 led."),
        ({"play_3": ""}, "play_3", "P3 plays before P4: give P3&#x27;s cards too."),
    ],
    ids=[
        "unknown card",
        "too many copies in a hand",
        "too many copies in the plays",
        "too many copies in hands and plays",
        "not in the hand",
        "forbidden throw",
        "mixed lead",
        "no lead",
        "a gap",
    ],
)
def test_a_bad_trick_is_named_beside_the_field_at_fault(client, changes, field, message):
    data = {**CONTRACT_TRICK, **changes}

    response = client.post("/dispute/", data)

    assert response.status_code == 200
    block = field_block(response.text, field)
    assert message in block
    assert "is-invalid" in block
    for name, value in data.items():
        if name.startswith(("play_", "hand_")) and value:
            assert f'value="{value}"' in field_block(response.text, name)
    assert "see the fields marked in red" in response.text


def test_it_asks_for_the_trump_and_the_level(client):
    data = {key: value for key, value in CONTRACT_TRICK.items() if key not in ("trump", "level")}

    response = client.post("/dispute/", data)

    assert response.status_code == 200
    assert "Tap the trump suit, or No trump." in response.text
    assert "Choose the level being played." in response.text
    assert 'value="9H KH"' in response.text


def test_it_prefills_the_hand_being_played_from_the_game(member, game):
    add_hand(game, 1)  # North–South hold: South starts hand 2 at level 3 (open-ladder rotates).

    page = member.get(dispute_url(game)).text

    assert '<option value="open-ladder" selected>' in page
    assert '<option value="3" selected>' in page
    assert not re.search(r'name="trump"[^>]*checked', page)  # bid afresh: the table taps it
    assert re.search(r'name="leader" id="id_leader_2"\s+value="S" autocomplete="off" checked', page)
    # The seats in play order from the leader, counter-clockwise: Lin, Jun, Mei, Hao.
    names = re.findall(r'<h2 class="seat-name">(\w+) ', page)
    assert names == ["Lin", "Jun", "Mei", "Hao"]


def test_a_recorded_hand_prefills_its_own_level_trump_and_declarer(member, game):
    add_hand(game, 1)
    add_hand(game, 2, declarer="S", trump="")

    page = member.get(dispute_url(game) + "?hand=1").text

    assert '<option value="2" selected>' in page  # hand 1 was played at 2
    assert re.search(r'value="H" autocomplete="off" checked', page)
    assert re.search(r'value="N" autocomplete="off" checked', page)
    hand_2 = member.get(dispute_url(game) + "?hand=2").text
    assert re.search(r'value="none" autocomplete="off" checked', hand_2)


def test_a_group_s_own_table_is_among_the_rules(member, game):
    rules = {**get_rules("kawu").to_json(), "name": "Thursday rules"}
    game.rules_json = rules
    game.save()

    page = member.get(dispute_url(game)).text

    assert '<option value="game" selected>Thursday rules</option>' in page


def trick_in_game(**changes) -> dict:
    """Mei (North) leads a pair of trump fives; Jun (East, last) revokes."""
    return {
        "rules": "open-ladder",
        "level": "5",
        "trump": "H",
        "decks": "2",
        "leader": "N",
        "play_N": "5H 5H",
        "play_W": "SJ SJ",
        "play_S": "2C 3C",
        "play_E": "9H KH",
        "hand_E": "9H KH 7H 7H",
        **changes,
    }


def test_it_saves_a_verdict_as_a_precedent_of_a_hand(member, user, game):
    add_hand(game, 1)

    response = member.post(dispute_url(game), trick_in_game(action="save", hand_number="1"))

    assert response.status_code == 302
    assert response["Location"] == f"{game.get_absolute_url()}#precedents-1"
    dispute = Dispute.objects.get()
    assert (dispute.hand.number, dispute.hand_number, dispute.created_by) == (1, 1, user)
    assert dispute.request["plays"][0] == ["Mei", ["5H", "5H"]]
    assert dispute.request["hands"] == {"Jun": ["9H", "KH", "7H", "7H"]}
    assert dispute.verdict["winner"] == "Hao"
    # The precedent is a ``scoring judge`` request: the command line gives the same verdict.
    assert judge_request(dispute.request) == dispute.verdict
    page = text(member.get(game.get_absolute_url()).text)
    assert "1 precedent Hao wins the trick 20 points" in page
    assert "Jun held the pair 7H 7H in trumps and had to play it" in page


def test_htmx_saves_in_place(member, game):
    add_hand(game, 1)

    response = member.post(
        dispute_url(game),
        trick_in_game(action="save", hand_number="1"),
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="verdict"')
    assert "Saved as a precedent of hand 1." in response.text
    assert "Save the verdict" not in response.text
    assert Dispute.objects.count() == 1


def test_judging_saves_nothing(member, game):
    response = member.post(dispute_url(game), trick_in_game(action="judge"))

    assert "Hao wins the trick" in text(response.text)
    assert "Save the verdict" in response.text
    assert '<option value="1" selected>Hand 1, being played</option>' in response.text
    assert not Dispute.objects.exists()


def test_a_precedent_of_the_hand_being_played_joins_it_when_it_is_recorded(member, game):
    member.post(dispute_url(game), trick_in_game(action="save", hand_number="1"))
    dispute = Dispute.objects.get()
    assert dispute.hand is None
    assert "This hand: 1 precedent" in text(member.get(game.get_absolute_url()).text)
    game.refresh_from_db()  # the precedent changed the game for the phones watching it

    member.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {
            "version": game.version,
            "declarer": "N",
            "bid": "one",
            "trump": "H",
            "kitty_points": "0",
            "opponent_points": "45",
            "last_trick_winner": "declarers",
            "last_trick_format": "single",
        },
    )

    dispute.refresh_from_db()
    assert dispute.hand == Hand.objects.get(number=1)
    page = text(member.get(game.get_absolute_url()).text)
    assert "This hand:" not in page
    assert "1 precedent Hao wins the trick" in page


def test_an_undone_hand_s_precedents_wait_for_the_hand_played_again(member, game):
    add_hand(game, 1)
    member.post(dispute_url(game), trick_in_game(action="save", hand_number="1"))
    game.refresh_from_db()

    member.post(game.get_absolute_url(), {"action": "undo", "version": game.version})

    assert Dispute.objects.get().hand is None
    assert "This hand: 1 precedent" in text(member.get(game.get_absolute_url()).text)


def test_a_hand_that_can_no_longer_take_precedents_is_named(member, game):
    response = member.post(dispute_url(game), trick_in_game(action="save", hand_number="7"))

    assert response.status_code == 200
    assert "Select a valid choice. 7 is not one of the available choices." in response.text
    assert not Dispute.objects.exists()


def test_a_bad_trick_is_not_saved(member, game):
    response = member.post(dispute_url(game), trick_in_game(action="save", play_E="9H QH"))

    assert response.status_code == 200
    assert "P2" not in field_block(response.text, "play_E")
    assert "Jun&#x27;s play: QH is not in Jun&#x27;s hand" in field_block(response.text, "play_E")
    assert not Dispute.objects.exists()


def test_the_game_and_its_hands_link_to_the_dispute(member, game):
    add_hand(game, 1)

    assert f'href="{dispute_url(game)}"' in member.get(game.get_absolute_url()).text
    new = member.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text
    assert f'href="{dispute_url(game)}?hand=2"' in new
    edit = member.get(f"/groups/{game.group_id}/games/{game.pk}/hands/1/").text
    assert f'href="{dispute_url(game)}?hand=1"' in edit


def test_it_hides_a_game_s_dispute_from_people_outside_the_group(client, outsider, game):
    assert client.get(dispute_url(game))["Location"].startswith("/accounts/login/")
    client.force_login(outsider)

    assert client.get(dispute_url(game)).status_code == 404
    assert client.post(dispute_url(game), trick_in_game(action="save")).status_code == 404
    assert not Dispute.objects.exists()


def page_queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url)
    assert page.status_code == 200
    return len(queries), page.text


def test_the_scoreboard_s_queries_do_not_grow_with_precedents(member, game, endless_hands):
    # 300 hands where the opponents always take the deal at 80, each with a precedent.
    game.rules_json = get_rules("standard").to_json()
    game.save()
    hands = endless_hands(game)
    without, _page = page_queries(member, game.get_absolute_url())
    request = {"level": "2", "trump": "S", "plays": [["Mei", ["AS"]]]}
    verdict = judge_request(request)
    Dispute.objects.bulk_create(
        Dispute(game=game, hand=hand, hand_number=hand.number, request=request, verdict=verdict)
        for hand in hands
    )

    with_precedents, page = page_queries(member, game.get_absolute_url())

    assert with_precedents == without <= 6
    assert text(page).count("1 precedent Mei is winning so far") == 300


def test_watching_phones_see_a_new_precedent(member, client, game):
    add_hand(game, 1)
    game.refresh_from_db()
    since = game.version

    member.post(dispute_url(game), trick_in_game(action="save", hand_number="1"))

    poll = client.get(
        f"/watch/{game.share_token}/", {"since": since}, headers={"HX-Request": "true"}
    )
    assert poll.status_code == 200
    assert "1 precedent" in text(poll.text)


def test_deleting_an_earlier_hand_keeps_waiting_precedents_with_the_hand_being_played(member, game):
    for number, declarer in ((1, "N"), (2, "S"), (3, "N")):  # open-ladder rotates the start
        add_hand(game, number, declarer=declarer)
    member.post(dispute_url(game), trick_in_game(action="save", hand_number="4"))
    game.refresh_from_db()

    member.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {"action": "delete", "version": game.version},
    )

    assert Dispute.objects.get().hand_number == 3
    assert "This hand: 1 precedent" in text(member.get(game.get_absolute_url()).text)
