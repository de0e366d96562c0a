"""The Dispute page: a disputed trick tapped in and judged by `scoring`, at any table or in a
game, and a game's verdicts kept as the group's precedents."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hands import HELD_FIELDS

from companion.models import Dispute, Game, GameSummary, Hand, Player
from companion.scoreboard import HANDS_SHOWN
from scoring import Rank, Suit, TrumpRule
from scoring.cli import judge_request
from tests.reading import elements, text, texts

pytestmark = pytest.mark.django_db

# docs/engine-json.md's example: P2 held a pair of trumps and did not play it.
CONTRACT_TRICK = {
    "rules": "kawu",
    "level": "5",
    "trump": "H",
    "players": "4",
    "decks": "2",
    "play_0": "5H 5H",
    "hand_0": "5H 5H 9S",
    "play_1": "9H KH",
    "hand_1": "9H KH 7H 7H 3C",
    "play_2": "SJ SJ",
    "hand_2": "SJ SJ",
    "play_3": "2C 3C",
}
# Eight players with four decks: four aces of hearts on the table, and P7's big jokers win.
EIGHT_PLAYS = ["9H 9H", "KH KH", "AH AH", "AH AH", "2S 2S", "3H 4H", "BJ BJ", "5H 5H"]
EIGHT_TRICK = {
    "rules": "standard",
    "level": "2",
    "trump": "S",
    "players": "8",
    "decks": "4",
    **{f"play_{seat}": cards for seat, cards in enumerate(EIGHT_PLAYS)},
}


def field_block(page: str, name: str) -> str:
    """The HTML of one cards field: its label, input, errors and grid slot."""
    at = page.index(f'id="id_{name}"')
    start = page.rindex('<div class="cards-field', 0, at)
    return page[start : page.index('class="card-grid-slot"', at)]


def seat_names(page: str) -> list[str]:
    """The seats as the page lists them, top to bottom (without the leader's badge)."""
    return [name.split()[0] for name in texts(page, "h2.seat-name")]


def checked(page: str, name: str) -> list[str]:
    """The values of the radio buttons ``name`` that are checked."""
    return [button.attrs["value"] for button in elements(page, f'input[name="{name}"][checked]')]


@pytest.fixture
def game(start_game) -> Game:
    """Mei, Jun, Lin and Hao under open-ladder, Mei starting (the start rotates)."""
    return start_game("open-ladder", first_declarer=0)


@pytest.fixture
def six(group, players) -> list[Player]:
    """The cast and two more, in play order: Mei, Jun, Lin, Hao, Wei, Yan."""
    return [*players, *(Player.objects.create(group=group, name=name) for name in ("Wei", "Yan"))]


@pytest.fixture
def six_game(start_game, six) -> Game:
    """Six partners under standard rules (Mei, Lin and Wei against Jun, Hao and Yan), with the
    three decks `scoring` proposes for them."""
    return start_game("standard", seated=six)


def add_hand(game: Game, number: int, **fields) -> Hand:
    """A hand Mei (seat 0) declares in hearts and holds to 45 points."""
    return Hand.objects.create(
        game=game,
        number=number,
        declarer=fields.pop("declarer", 0),
        trump=fields.pop("trump", "H"),
        bid=fields.pop("bid", "one"),
        kitty_points=0,
        opponent_points=45,
        last_trick_winner="declarers",
        last_trick_format="single",
        last_trick_cards=1,
        **fields,
    )


def dispute_url(game: Game) -> str:
    return f"/groups/{game.group_id}/games/{game.pk}/dispute/"


# Any table


def test_it_judges_the_contract_s_example_trick_for_anyone(client):
    response = client.post("/dispute/", {**CONTRACT_TRICK, "action": "judge"})

    assert response.status_code == 200
    verdict = text(response.text, "#verdict")
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
    assert "P3 wins the trick" in text(response.text)
    # The fields come along out of band, so that errors beside them appear and clear.
    assert '<div id="dispute-fields" data-decks="2" hx-swap-oob="true">' in response.text
    assert "<html" not in response.text


def test_it_reads_typed_cards_as_the_grid_s_codes_as_they_are_typed(client):
    typed = {**CONTRACT_TRICK, "play_0": "10h 5♠, bj xc", "hand_3": "t"}

    response = client.post("/dispute/", {**typed, "action": "read"}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="card-codes" hidden>')
    assert (
        '<div data-field="play_0" data-value="10h 5♠, bj xc" data-codes="TH 5S BJ"></div>'
        in response.text
    )
    assert '<div data-field="hand_3" data-value="t" data-codes=""></div>' in response.text
    assert "verdict" not in response.text


def test_the_page_renders_what_each_field_reads(client):
    response = client.post("/dispute/", {**CONTRACT_TRICK, "play_1": "9h k♥", "action": "judge"})

    assert '<div data-field="play_1" data-value="9h k♥" data-codes="9H KH"></div>' in response.text
    assert (
        '<div data-field="hand_1" data-value="9H KH 7H 7H 3C" data-codes="9H KH 7H 7H 3C"></div>'
        in response.text
    )


def test_the_standalone_page_works_logged_out_and_links_from_home(client):
    page = client.get("/dispute/").text

    assert seat_names(page) == ["P1", "P2", "P3", "P4"]
    assert "P1 played" in text(page)
    assert (checked(page, "players"), checked(page, "decks")) == (["4"], ["2"])
    assert re.findall(r'name="players" id="[^"]+"\s+value="(\d)"', page) == list("45678")
    assert re.findall(r'name="decks" id="[^"]+"\s+value="(\d)"', page) == list("234")
    assert 'href="/dispute/"' in client.get("/").text


def test_eight_players_with_four_decks_have_every_play_judged(client):
    response = client.post("/dispute/", EIGHT_TRICK)

    page = response.text
    assert seat_names(page) == [f"P{n}" for n in range(1, 9)]
    verdict = text(page, "#verdict")
    assert "P7 wins the trick 30 points" in verdict
    assert "P1 led a pair in hearts." in verdict
    assert texts(page, "li.verdict-play") == [
        f"P{seat + 1} {cards} Not checked: their hand was not given"
        for seat, cards in enumerate(
            ["9♥ 9♥", "K♥ K♥", "A♥ A♥", "A♥ A♥", "2♠ 2♠", "3♥ 4♥", "BJ BJ", "5♥ 5♥"]
        )
    ]
    assert 'data-decks="4"' in page


def test_a_french_verdict_names_the_lead_s_suit_as_a_french_player_does(client):
    client.cookies["django_language"] = "fr"

    hearts = text(client.post("/dispute/", EIGHT_TRICK).text, "#verdict")
    trumps = text(client.post("/dispute/", CONTRACT_TRICK).text, "#verdict")

    assert "J1 a entamé une paire de cœur." in hearts
    assert "J1 a entamé une paire d'atout." in trumps
    assert "dans les" not in hearts + trumps


def test_two_decks_hold_only_two_aces_of_hearts(client):
    response = client.post("/dispute/", {**EIGHT_TRICK, "decks": "2"})

    assert "AH appears 4 times, but 2 decks hold only 2" in text(response, "#id_play_3_error")
    assert "wins the trick" not in text(response.text)


def test_an_eight_player_trick_in_progress_is_winning_so_far(client):
    data = {key: value for key, value in EIGHT_TRICK.items() if key != "play_7"}

    response = client.post("/dispute/", data)

    assert "P7 is winning so far" in text(response.text, "#verdict")


@pytest.mark.parametrize(("players", "decks"), [(4, 2), (5, 2), (6, 3), (7, 3), (8, 4)])
def test_choosing_the_players_seats_them_with_the_decks_scoring_proposes(client, players, decks):
    response = client.post(
        "/dispute/",
        {**CONTRACT_TRICK, "players": str(players), "action": "seat", "changed": "players"},
        headers={"HX-Request": "true"},
    )

    page = response.text
    assert seat_names(page) == [f"P{n}" for n in range(1, players + 1)]
    assert (checked(page, "players"), checked(page, "decks")) == ([str(players)], [str(decks)])
    assert 'value="9H KH"' in field_block(page, "play_1")  # what was typed stays
    assert "is-invalid" not in page
    assert "wins the trick" not in page  # a verdict for another table is gone


def test_choosing_the_decks_keeps_them(client):
    response = client.post(
        "/dispute/", {**CONTRACT_TRICK, "players": "6", "decks": "4", "action": "seat"}
    )

    page = response.text
    assert response.status_code == 200
    assert (checked(page, "players"), checked(page, "decks")) == (["6"], ["4"])
    assert seat_names(page) == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert 'data-decks="4"' in page


def test_a_table_that_cannot_be_is_named(client):
    response = client.post("/dispute/", {**CONTRACT_TRICK, "players": "9"})

    assert response.status_code == 200
    assert "Select a valid choice. 9 is not one of the available choices." in text(response.text)
    assert seat_names(response.text) == ["P1", "P2", "P3", "P4"]


def test_it_judges_a_hand_without_trump(client):
    # At level 5 without trump, the level cards and the small jokers are one tractor.
    response = client.post(
        "/dispute/",
        {
            "rules": "standard",
            "level": "5",
            "trump": "NT",
            "players": "4",
            "decks": "2",
            "play_0": "5S 5S SJ SJ",
            "play_1": "5H 5H BJ BJ",
            "play_2": "AS AS KS KS",
            "play_3": "2C 3C 4C 6C",
        },
    )

    verdict = text(response.text, "#verdict")
    assert "P1 wins the trick 40 points" in verdict
    assert "P1 led a tractor in trumps. Standard · level 5 · No trump" in verdict


def test_a_failed_throw_shows_who_beats_it_what_to_lead_and_the_penalty(client):
    response = client.post(
        "/dispute/",
        {
            "rules": "open-ladder",
            "level": "2",
            "trump": "S",
            "players": "4",
            "decks": "2",
            "play_0": "AH QH QH",
            "play_1": "KH KH 3H",
            "hand_1": "KH KH 3H 4C",
        },
    )

    verdict = text(response.text, "#verdict")
    assert "P1's throw fails P2 can beat it: P1 leads Q♥ Q♥ instead. Penalty: 10 points." in verdict
    assert (
        "✗ Illegal: P1's throw fails: P2 held KH KH, which beats QH QH; "
        "P1 takes back 1 card and leads QH QH, paying 10 points"
    ) in verdict


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"play_1": "XH 9H"}, "play_1", "XH is not a card: write cards like 5H KD TS BJ."),
        ({"hand_2": "2C 2C 2C SJ SJ"}, "hand_2", "P3&#x27;s hand: 2C appears 3 times"),
        ({"play_3": "SJ 3C"}, "play_3", "the plays: SJ appears 3 times"),
        ({"hand_0": "5H 5H BJ BJ", "play_3": "BJ 3C"}, "play_3", "the hands and plays together"),
        ({"play_1": "9H QH"}, "play_1", "P2&#x27;s play: QH is not in P2&#x27;s hand"),
        ({"play_0": "AS KS", "hand_0": ""}, "play_0", "which the kawu rules forbid"),
        ({"play_0": "5H 9S"}, "play_0", "mixes trumps and spades"),
        ({"play_0": ""}, "play_0", "Give the cards P1 led."),
        ({"play_2": ""}, "play_2", "P3 plays before P4: give P3&#x27;s cards too."),
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
    assert "see the fields marked in red" in text(response.text)


def test_it_asks_for_the_trump_and_the_level(client):
    data = {key: value for key, value in CONTRACT_TRICK.items() if key not in ("trump", "level")}

    response = client.post("/dispute/", data)

    assert response.status_code == 200
    assert "Tap the trump suit, or No trump." in text(response.text)
    assert "Choose the level being played." in text(response.text)
    assert 'value="9H KH"' in response.text


# A game's table


def test_it_prefills_the_hand_being_played_from_the_game(member, game):
    add_hand(game, 1)  # Mei and Lin hold: Lin starts hand 2 at level 3 (open-ladder rotates).

    page = member.get(dispute_url(game)).text

    assert '<option value="open-ladder" selected>' in page
    assert '<option value="3" selected>' in page
    assert checked(page, "trump") == []  # bid afresh: the table taps it
    assert checked(page, "leader") == ["2"]
    assert seat_names(page) == ["Lin", "Hao", "Mei", "Jun"]  # play order from the leader
    assert "Thursday Tractor: 4 players, 2 decks." in text(page)
    assert 'name="players"' not in page
    assert 'name="decks"' not in page


def test_a_recorded_hand_prefills_its_own_level_trump_and_declarer(member, game):
    add_hand(game, 1)
    add_hand(game, 2, declarer=2, trump="NT", bid="none")

    page = member.get(dispute_url(game) + "?hand=1").text

    assert '<option value="2" selected>' in page  # hand 1 was played at 2
    assert (checked(page, "trump"), checked(page, "leader")) == (["H"], ["0"])
    hand_2 = member.get(dispute_url(game) + "?hand=2").text
    assert (checked(hand_2, "trump"), checked(hand_2, "leader")) == (["NT"], ["2"])
    assert seat_names(hand_2) == ["Lin", "Hao", "Mei", "Jun"]


def test_a_fixed_trump_game_prefills_the_hand_s_trump(member, start_game):
    game = start_game(trumps=TrumpRule(suits=(Suit.HEARTS, Suit.SPADES)), first_declarer=0)
    add_hand(game, 1, bid="")

    page = member.get(dispute_url(game)).text

    assert checked(page, "trump") == ["S"]  # the rotation's second suit
    assert checked(page, "leader") == ["2"]
    no_trump = start_game(trumps=TrumpRule(no_trump=True), first_declarer=3)
    page = member.get(dispute_url(no_trump)).text
    assert (checked(page, "trump"), checked(page, "leader")) == (["NT"], ["3"])


def test_a_group_s_own_table_is_among_the_rules(member, game):
    game.rules_json = {**game.rules.to_json(), "name": "Thursday rules"}
    game.save()

    page = member.get(dispute_url(game)).text

    assert '<option value="game" selected>Thursday rules</option>' in page


def test_a_six_seat_game_prefills_the_team_s_level_and_its_next_starter(member, six_game):
    add_hand(six_game, 1)  # Mei's team holds to 45 of 300: +2, and Lin is next of them.

    page = member.get(dispute_url(six_game)).text

    assert '<option value="4" selected>' in page
    assert checked(page, "leader") == ["2"]
    assert seat_names(page) == ["Lin", "Hao", "Wei", "Yan", "Mei", "Jun"]
    assert "Thursday Tractor: 6 players, 3 decks." in text(page)


def test_before_anyone_bids_the_level_is_the_table_s_if_it_is_shared(member, start_game, six):
    even = start_game(seated=six)
    uneven = start_game(seated=six, levels=[Rank.THREE, Rank.TWO] * 3)

    assert '<option value="2" selected>' in member.get(dispute_url(even)).text
    page = member.get(dispute_url(uneven)).text
    level = re.search(r'<select name="level".*?</select>', page, flags=re.S).group()
    # Mei's team is at 3 and Jun's at 2: the level waits for the bid.
    assert re.findall(r'<option value="(\w*)" selected>', level) == [""]
    assert checked(page, "leader") == ["0"]


def six_seat_trick(**changes) -> dict:
    """Lin leads a pair of kings of spades at the six-seat table; Yan, holding a pair of
    spades, does not play it; Jun, void, trumps with a pair of level cards."""
    return {
        "rules": "standard",
        "level": "4",
        "trump": "H",
        "leader": "2",
        "play_2": "KS KS",
        "play_3": "3S 3S",
        "play_4": "AS AS",
        "play_5": "5S 6S",
        "hand_5": "5S 6S 9S 9S",
        "play_0": "KS 2S",
        "play_1": "4H 4H",
        **changes,
    }


def test_a_six_seat_game_judges_and_keeps_a_three_deck_trick(member, six_game):
    add_hand(six_game, 1)

    response = member.post(dispute_url(six_game), six_seat_trick(action="save"))

    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert dispute.hand_number == 2
    assert dispute.request["decks"] == 3  # three kings of spades are no error
    assert [name for name, _cards in dispute.request["plays"]] == [
        "Lin",
        "Hao",
        "Wei",
        "Yan",
        "Mei",
        "Jun",
    ]
    assert dispute.verdict["winner"] == "Jun"
    assert judge_request(dispute.request) == dispute.verdict
    assert dispute.complete
    verdict = text(member.post(dispute_url(six_game), six_seat_trick()).text, "#verdict")
    assert "Jun wins the trick 35 points" in verdict
    assert "Yan 5♠ 6♠ ✗ Illegal: Yan held the pair 9S 9S in spades and had to play it" in verdict


def test_a_six_seat_trick_in_progress_is_winning_so_far(member, six_game):
    page = member.post(dispute_url(six_game), six_seat_trick(play_1="")).text

    assert "Wei is winning so far" in text(page, "#verdict")
    member.post(dispute_url(six_game), six_seat_trick(play_1="", action="save"))
    assert not Dispute.objects.get().complete


def test_another_leader_seats_the_table_from_them(member, six_game):
    response = member.post(
        dispute_url(six_game),
        six_seat_trick(leader="4", action="seat"),
        headers={"HX-Request": "true"},
    )

    page = response.text
    assert page.lstrip().startswith('<section id="verdict">\n')
    assert seat_names(page) == ["Wei", "Yan", "Mei", "Jun", "Lin", "Hao"]
    assert checked(page, "leader") == ["4"]
    assert 'value="5S 6S 9S 9S"' in field_block(page, "hand_5")
    assert "wins the trick" not in text(page)


def test_the_trick_is_read_in_play_order_from_the_leader(member, six_game):
    # The same plays, led by Wei: his aces lead, and Lin's kings come after Jun's trumps.
    response = member.post(dispute_url(six_game), six_seat_trick(leader="4"))

    page = response.text
    assert "Wei led a pair in spades." in text(page, "#verdict")
    assert [play.split()[0] for play in texts(page, "li.verdict-play")] == [
        "Wei",
        "Yan",
        "Mei",
        "Jun",
        "Lin",
        "Hao",
    ]


def trick_in_game(**changes) -> dict:
    """Mei (seat 0) leads a pair of trump fives; Hao (last) revokes."""
    return {
        "rules": "open-ladder",
        "level": "5",
        "trump": "H",
        "leader": "0",
        "play_0": "5H 5H",
        "play_1": "SJ SJ",
        "play_2": "2C 3C",
        "play_3": "9H KH",
        "hand_3": "9H KH 7H 7H",
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
    assert dispute.request["hands"] == {"Hao": ["9H", "KH", "7H", "7H"]}
    assert dispute.request["decks"] == 2
    assert dispute.verdict["winner"] == "Jun"
    # The precedent is a ``scoring judge`` request: the command line gives the same verdict.
    assert judge_request(dispute.request) == dispute.verdict
    page = text(member.get(game.get_absolute_url()).text)
    assert "1 precedent Jun wins the trick 20 points" in text(page)
    assert "Hao held the pair 7H 7H in trumps and had to play it" in text(page)


def test_htmx_saves_in_place(member, game):
    add_hand(game, 1)

    response = member.post(
        dispute_url(game),
        trick_in_game(action="save", hand_number="1"),
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="verdict"')
    assert "Saved as a precedent of hand 1." in text(response.text)
    assert "Save the verdict" not in text(response.text)
    assert Dispute.objects.count() == 1


def test_reading_typed_cards_saves_nothing_and_reads_no_hand(member, game):
    with CaptureQueriesContext(connection) as queries:
        response = member.post(
            dispute_url(game),
            trick_in_game(action="read", hand_number="1"),
            headers={"HX-Request": "true"},
        )

    assert response.text.lstrip().startswith('<div id="card-codes" hidden>')
    assert not Dispute.objects.exists()
    # Read as often as a player types: the game's hands are not needed.
    assert not [query for query in queries if "companion_hand" in query["sql"]]


def test_judging_saves_nothing(member, game):
    response = member.post(dispute_url(game), trick_in_game(action="judge"))

    assert "Jun wins the trick" in text(response.text)
    assert "Save the verdict" in text(response.text)
    assert '<option value="1" selected>Hand 1, being played</option>' in response.text
    assert not Dispute.objects.exists()


def test_a_precedent_of_the_hand_being_played_joins_it_when_it_is_recorded(member, user, game):
    member.post(dispute_url(game), trick_in_game(action="save", hand_number="1"))
    dispute = Dispute.objects.get()
    assert dispute.hand is None
    assert "This hand: 1 precedent" in text(member.get(game.get_absolute_url()).text)
    game.refresh_from_db()  # the precedent changed the game for the phones watching it

    game.record_hand(
        HELD_FIELDS,
        version=game.version,
        request_key="",
        by=user,
    )

    dispute.refresh_from_db()
    assert dispute.hand == Hand.objects.get(number=1)
    page = text(member.get(game.get_absolute_url()).text)
    assert "This hand:" not in text(page)
    assert "1 precedent Jun wins the trick" in text(page)


def test_an_undone_hand_s_precedents_wait_for_the_hand_played_again(member, game):
    add_hand(game, 1)
    member.post(dispute_url(game), trick_in_game(action="save", hand_number="1"))
    game.refresh_from_db()

    member.post(game.get_absolute_url() + "undo/", {"version": game.version})

    assert Dispute.objects.get().hand is None
    assert "This hand: 1 precedent" in text(member.get(game.get_absolute_url()).text)


def test_a_hand_that_can_no_longer_take_precedents_is_named(member, game):
    response = member.post(dispute_url(game), trick_in_game(action="save", hand_number="7"))

    assert response.status_code == 200
    assert "Select a valid choice. 7 is not one of the available choices." in text(response.text)
    assert not Dispute.objects.exists()


def test_a_bad_trick_is_not_saved(member, game):
    response = member.post(dispute_url(game), trick_in_game(action="save", play_3="9H QH"))

    assert response.status_code == 200
    block = field_block(response.text, "play_3")
    assert "P4" not in block
    assert "Hao's play: QH is not in Hao's hand" in text(block)
    assert not Dispute.objects.exists()


def test_a_leader_who_is_not_at_the_table_is_named(member, game):
    response = member.post(dispute_url(game), trick_in_game(leader="6"))

    assert response.status_code == 200
    assert "Select a valid choice. 6 is not one of the available choices." in text(response.text)


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


def test_precedents_know_a_complete_trick_without_a_query_each(six_game):
    hands = [add_hand(six_game, 1), add_hand(six_game, 2, declarer=2)]
    table = zip(
        ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan"),
        ("AS", "KS", "QS", "JS", "TS", "9S"),
        strict=True,
    )
    whole = {"level": "2", "trump": "S", "decks": 3, "plays": [[n, [c]] for n, c in table]}
    for hand in hands:
        for request in (whole, {**whole, "plays": whole["plays"][:5]}):
            Dispute.objects.create(
                game=six_game,
                hand=hand,
                hand_number=hand.number,
                request=request,
                verdict=judge_request(request),
            )
    game = Game.objects.get(pk=six_game.pk)

    with CaptureQueriesContext(connection) as queries:
        found = game.precedents(hands)
        complete = {n: [dispute.complete for dispute in found[n]] for n in found}

    assert complete == {1: [True, False], 2: [True, False]}
    assert len(queries) == 2  # the precedents, and the game's seats once


def page_queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url)
    assert page.status_code == 200
    return len(queries), page.text


def test_the_scoreboard_s_queries_do_not_grow_with_precedents(member, start_game, endless_hands):
    # 300 hands where the opponents always take the deal at 80, each with a precedent.
    game = start_game("standard")
    hands = endless_hands(game)
    GameSummary.bring_up_to_date([game])  # as an import does for the hands it writes
    without, _page = page_queries(member, game.get_absolute_url())
    request = {"level": "2", "trump": "S", "plays": [["Mei", ["AS"]]]}
    verdict = judge_request(request)
    Dispute.objects.bulk_create(
        Dispute(game=game, hand=hand, hand_number=hand.number, request=request, verdict=verdict)
        for hand in hands
    )
    # As Game.add_dispute saves them: the game's version rises, and its summary's with it.
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    GameSummary.objects.filter(game=game).update(version=game.version + 1)

    with_precedents, page = page_queries(member, game.get_absolute_url())
    _queries, earlier = page_queries(member, f"{game.get_absolute_url()}?before=289")

    assert with_precedents == without <= 7
    # The page shows the latest hands, each with its precedent; earlier ones a page at a time.
    assert text(page).count("1 precedent Mei is winning so far") == HANDS_SHOWN
    assert text(earlier).count("1 precedent Mei is winning so far") == HANDS_SHOWN


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


def test_deleting_an_earlier_hand_keeps_waiting_precedents_with_the_hand_being_played(
    member, start_game
):
    game = start_game("standard")  # Mei's team bids and holds: either of them may start
    for number, declarer in ((1, 0), (2, 2), (3, 0)):
        add_hand(game, number, declarer=declarer)
    member.post(dispute_url(game), trick_in_game(action="save", hand_number="4"))
    game.refresh_from_db()

    member.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/delete/",
        {"version": game.version},
    )

    assert Dispute.objects.get().hand_number == 3
    assert "This hand: 1 precedent" in text(member.get(game.get_absolute_url()).text)
