"""Laws of settlement over the presets and over any valid table a group could write."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from sweep import examples

from scoring import (
    PRESETS,
    Band,
    Format,
    GameEnd,
    KittyRule,
    LastTrick,
    Rank,
    Rules,
    Side,
    Starter,
    TractorFollow,
    get_rules,
    rules_from_json,
    settle,
)
from scoring.errors import SettleError
from scoring.settle import Levels, Settlement

FAST = examples(100, 5000)

multiples_of_5 = st.integers(min_value=1, max_value=80).map(lambda n: 5 * n)


@st.composite
def custom_rules(draw: st.DrawFn, *, every: bool = True) -> Rules:
    """A valid table: declarers' bands climbing no more as the opponents score more, then
    opponents' bands climbing no less, the last one open; and any valid other settings."""
    declarers_bands = draw(st.integers(min_value=1, max_value=4))
    opponents_bands = draw(st.integers(min_value=1, max_value=4))
    count = declarers_bands + opponents_bands
    starts = [0, *sorted(draw(st.sets(multiples_of_5, min_size=count - 1, max_size=count - 1)))]
    ends = [start - 5 for start in starts[1:]] + [None]
    declarer_levels = sorted(
        draw(st.lists(st.integers(0, 4), min_size=declarers_bands, max_size=declarers_bands)),
        reverse=True,
    )
    bands = [
        Band(starts[i], ends[i], Side.DECLARERS, declarer_levels[i]) for i in range(declarers_bands)
    ]
    least = 0
    for i in range(declarers_bands, count):
        # A step longer than half the band climbs at most one level more within it, so four
        # opponents' bands stay within the 12 levels a band may award.
        span = ends[i] - starts[i] if ends[i] is not None else 0
        steps = st.integers(span // 10 + 1, 200).map(lambda n: 5 * n)
        step = draw(st.none() | steps) if every else None
        band = Band(starts[i], ends[i], Side.OPPONENTS, least + draw(st.integers(0, 2)), step)
        bands.append(band)
        least = band.levels_for(band.high) if band.high is not None else band.levels
    throws = draw(st.booleans())
    kitty_rules = [KittyRule.DOUBLE, KittyRule.PER_CARD] + ([] if throws else [KittyRule.PER_PAIR])
    return Rules(
        name=draw(st.text(min_size=1, max_size=12).filter(str.strip)),
        bands=tuple(bands),
        kitty=draw(st.sampled_from(kitty_rules)),
        game_end=draw(st.sampled_from(GameEnd)),
        starter=draw(st.sampled_from(Starter)),
        throws=throws,
        throw_penalty=draw(st.integers(0, 10).map(lambda n: 5 * n)) if throws else 0,
        tractor_follow=draw(st.sampled_from(TractorFollow)),
        description=draw(st.text(max_size=30)),
    )


any_rules = st.sampled_from(list(PRESETS.values())) | custom_rules()
ranks = st.sampled_from(Rank)
levels = st.builds(Levels, declarers=ranks, opponents=ranks)


@st.composite
def last_tricks(draw: st.DrawFn, rules: Rules, winner: Side | None = None) -> LastTrick:
    """A last trick these rules allow, won by ``winner`` or by either side."""
    formats = [Format.SINGLE, Format.PAIR, Format.TRACTOR] + (
        [Format.THROW] if rules.throws else []
    )
    fmt = draw(st.sampled_from(formats))
    if fmt is Format.SINGLE:
        cards = 1
    elif fmt is Format.PAIR:
        cards = 2
    elif fmt is Format.TRACTOR:
        cards = 2 * draw(st.integers(2, 12))
    else:
        cards = draw(st.integers(2, 25))
    return LastTrick(winner or draw(st.sampled_from(Side)), fmt, cards)


def goodness(result: Settlement) -> int:
    """How good a result is for the declarers: any hold beats any loss, a hold with more levels
    is better, a loss with the opponents climbing more is worse."""
    if result.winner is Side.DECLARERS:
        return result.levels_gained
    return -1 - result.levels_gained


@FAST
@given(any_rules, st.data())
def test_more_opponent_points_never_improve_the_declarers_result(
    rules: Rules, data: st.DataObject
) -> None:
    kitty = data.draw(st.integers(0, 16).map(lambda n: 5 * n), label="kitty_points")
    fewer, more = sorted(
        data.draw(
            st.lists(st.integers(0, (200 - kitty) // 5), min_size=2, max_size=2).map(
                lambda ns: [5 * n for n in ns]
            ),
            label="opponent_points",
        )
    )
    last_trick = data.draw(last_tricks(rules), label="last_trick")
    before = data.draw(levels, label="levels")
    worse = settle(rules, before, more, kitty, last_trick)
    better = settle(rules, before, fewer, kitty, last_trick)
    assert goodness(worse) <= goodness(better)


@FAST
@given(any_rules, st.data())
def test_more_opponents_total_never_improves_the_declarers_band(
    rules: Rules, data: st.DataObject
) -> None:
    fewer, more = sorted(data.draw(st.lists(st.integers(0, 600), min_size=2, max_size=2)))
    fewer, more = 5 * fewer, 5 * more
    low, high = rules.band_for(fewer), rules.band_for(more)
    assert bands_goodness(high, more) <= bands_goodness(low, fewer)


def bands_goodness(band: Band, total: int) -> int:
    gained = band.levels_for(total)
    return gained if band.winner is Side.DECLARERS else -1 - gained


rules_without_every = st.sampled_from([PRESETS["standard"], PRESETS["simplified"]]) | custom_rules(
    every=False
)


@FAST
@given(rules_without_every, st.data())
def test_without_a_kitty_bonus_the_result_depends_only_on_the_band(
    rules: Rules, data: st.DataObject
) -> None:
    kitty = data.draw(st.integers(0, 16).map(lambda n: 5 * n), label="kitty_points")
    # The declarers took the last trick, or the kitty is empty: no bonus either way.
    winner = Side.DECLARERS if kitty else data.draw(st.sampled_from(Side), label="winner")
    last_trick = data.draw(last_tricks(rules, winner), label="last_trick")
    before = data.draw(levels, label="levels")
    first = 5 * data.draw(st.integers(0, (200 - kitty) // 5), label="first")
    band = rules.band_for(first)
    top = min(band.high if band.high is not None else 200, 200 - kitty)
    second = 5 * data.draw(st.integers(band.low // 5, top // 5), label="second")
    one = settle(rules, before, first, kitty, last_trick)
    other = settle(rules, before, second, kitty, last_trick)
    assert one.kitty_bonus == other.kitty_bonus == 0
    assert (one.opponent_total, other.opponent_total) == (first, second)
    assert one.band == other.band == band
    assert (one.winner, one.levels_gained, one.levels, one.next_declarers, one.game_over) == (
        other.winner,
        other.levels_gained,
        other.levels,
        other.next_declarers,
        other.game_over,
    )


@FAST
@given(any_rules, st.data())
def test_the_kitty_counts_for_the_opponents_only_when_they_take_the_last_trick(
    rules: Rules, data: st.DataObject
) -> None:
    kitty = data.draw(st.integers(0, 16).map(lambda n: 5 * n), label="kitty_points")
    points = 5 * data.draw(st.integers(0, (200 - kitty) // 5), label="opponent_points")
    last_trick = data.draw(last_tricks(rules), label="last_trick")
    result = settle(rules, data.draw(levels, label="levels"), points, kitty, last_trick)
    assert result.kitty_multiplier == rules.kitty_multiplier(last_trick.format, last_trick.cards)
    expected_bonus = kitty * result.kitty_multiplier if last_trick.winner is Side.OPPONENTS else 0
    assert result.kitty_bonus == expected_bonus
    assert result.opponent_total == points + expected_bonus


@FAST
@given(any_rules, st.data())
def test_the_winner_climbs_to_at_most_A_and_declares_next_while_the_loser_stays(
    rules: Rules, data: st.DataObject
) -> None:
    kitty = data.draw(st.integers(0, 16).map(lambda n: 5 * n), label="kitty_points")
    points = 5 * data.draw(st.integers(0, (200 - kitty) // 5), label="opponent_points")
    before = data.draw(levels, label="levels")
    result = settle(rules, before, points, kitty, data.draw(last_tricks(rules), label="last"))
    winner, loser = result.winner, result.winner.other
    assert result.next_declarers is winner
    assert result.levels.of(loser) == before.of(loser)
    climbed = before.of(winner) + result.award
    assert result.levels.of(winner) == min(climbed, Rank.ACE)
    if rules.game_end is GameEnd.PAST_ACE:
        assert result.levels_gained == result.award
        assert result.game_over is (climbed > Rank.ACE)
    else:
        assert result.levels_gained == result.levels.of(winner) - before.of(winner)
        assert result.game_over is (winner is Side.DECLARERS and before.declarers is Rank.ACE)
    assert result.game_winner is (winner if result.game_over else None)
    # A side already at A that is awarded levels climbs none: it just takes or keeps the deal.
    assert (", stopping at A" in result.explanation) is (
        climbed > Rank.ACE and not result.game_over and result.levels_gained > 0
    )


@FAST
@given(any_rules)
def test_any_valid_rules_survive_the_json_round_trip_exactly(rules: Rules) -> None:
    assert rules_from_json(rules.to_json()) == rules
    through_text = json.loads(json.dumps(rules.to_json()))
    assert rules_from_json(through_text) == rules
    assert rules_from_json(through_text).to_json() == rules.to_json()
    assert get_rules(through_text) == rules


decks = st.sampled_from([2, 3, 4])


@st.composite
def scalable_rules(draw: st.DrawFn) -> tuple[Rules, int]:
    """Rules and a number of decks they scale to. A group's band with an ``every`` can scale
    into a table that climbs less at a higher total (see test_rules.py), so with more than
    two decks only the presets and tables without ``every`` are drawn."""
    count = draw(decks)
    if count == 2:
        return draw(any_rules), count
    return draw(st.sampled_from(list(PRESETS.values())) | custom_rules(every=False)), count


@st.composite
def hand_points(draw: st.DrawFn, count: int, kitty_cards: int) -> tuple[int, int]:
    """Opponents' points and kitty points that ``count`` decks and a kitty can hold."""
    kitty = 5 * draw(st.integers(0, 2 * kitty_cards), label="kitty_points")
    points = 5 * draw(st.integers(0, 20 * count - kitty // 5), label="opponent_points")
    return points, kitty


@FAST
@given(scalable_rules(), st.data())
def test_with_any_decks_more_opponent_points_never_improve_the_declarers_result(
    rules_and_decks: tuple[Rules, int], data: st.DataObject
) -> None:
    rules, count = rules_and_decks
    kitty_cards = data.draw(st.integers(5, 12), label="kitty_cards")
    fewer, kitty = data.draw(hand_points(count, kitty_cards))
    more = 5 * data.draw(st.integers(fewer // 5, 20 * count - kitty // 5), label="more")
    last_trick = data.draw(last_tricks(rules), label="last_trick")
    before = data.draw(levels, label="levels")

    def result(points: int) -> Settlement:
        return settle(
            rules, before, points, kitty, last_trick, decks=count, kitty_cards=kitty_cards,
            players=4 if last_trick.cards <= 24 else 2,
        )  # fmt: skip

    assert goodness(result(more)) <= goodness(result(fewer))


@FAST
@given(scalable_rules())
def test_a_scaled_table_moves_each_start_but_0_and_5_by_decks_over_2_rounded_down_to_5(
    rules_and_decks: tuple[Rules, int],
) -> None:
    rules, count = rules_and_decks
    scaled = rules.for_decks(count)
    assert [(band.winner, band.levels) for band in scaled.bands] == [
        (band.winner, band.levels) for band in rules.bands
    ]
    for band, written in zip(scaled.bands, rules.bands, strict=True):
        if written.low <= 5:
            assert band.low == written.low
        else:
            assert band.low == written.low * count // 2 // 5 * 5
        if written.every:
            assert band.every == max(5, written.every * count // 2 // 5 * 5)
    for band, following in zip(scaled.bands, scaled.bands[1:], strict=False):
        assert band.high == following.low - 5
    assert scaled.bands[-1].high is None
    assert (scaled.name, scaled.kitty, scaled.game_end, scaled.starter) == (
        rules.name,
        rules.kitty,
        rules.game_end,
        rules.starter,
    )


@FAST
@given(any_rules)
def test_two_decks_read_the_table_as_written(rules: Rules) -> None:
    assert rules.for_decks(2) is rules


@FAST
@given(st.sampled_from(list(PRESETS.values())), decks, st.integers(5, 12), st.data())
def test_points_that_the_decks_and_kitty_can_hold_settle_and_no_others(
    rules: Rules, count: int, kitty_cards: int, data: st.DataObject
) -> None:
    points = 5 * data.draw(st.integers(0, 20 * count + 4), label="opponent_points")
    kitty = 5 * data.draw(st.integers(0, 2 * kitty_cards + 2), label="kitty_points")
    holds = points <= 100 * count and kitty <= 10 * kitty_cards and points + kitty <= 100 * count
    try:
        settle(
            rules,
            Levels(Rank.FIVE, Rank.THREE),
            points,
            kitty,
            LastTrick(Side.DECLARERS, Format.SINGLE, 1),
            decks=count,
            kitty_cards=kitty_cards,
        )
    except SettleError as error:
        assert not holds, str(error)
        assert error.field in ("opponent_points", "kitty_points")
    else:
        assert holds


@FAST
@given(scalable_rules(), st.data())
def test_a_short_handed_side_that_holds_is_awarded_exactly_one_more(
    rules_and_decks: tuple[Rules, int], data: st.DataObject
) -> None:
    rules, count = rules_and_decks
    points, kitty = data.draw(hand_points(count, 8))
    last_trick = data.draw(last_tricks(rules), label="last_trick")
    before = data.draw(levels, label="levels")
    full = settle(rules, before, points, kitty, last_trick, decks=count, kitty_cards=8)
    short = settle(
        rules, before, points, kitty, last_trick, decks=count, kitty_cards=8, short_handed=True
    )
    assert short.winner is full.winner
    assert short.award == full.award + (full.winner is Side.DECLARERS)
    assert short.short_handed is (full.winner is Side.DECLARERS)
    if full.winner is Side.OPPONENTS:
        assert short.levels == full.levels
