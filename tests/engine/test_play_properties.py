"""Properties of move generation on random positions, against the brute-force reference."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st
from playhelp import most_dice, reference_results

from backgammon.engine import Position
from backgammon.engine.cli import _decode, result_ids
from backgammon.engine.notation import format_play, parse_moves, parse_play
from backgammon.engine.plays import legal_plays, only_play

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn, race: bool = False) -> Position:
    """Any board: each checker on a place 0 (off) .. 25 (bar); the opponent avoids my points."""
    places = st.lists(st.integers(0, 25), min_size=15, max_size=15)
    # Bias towards the home board and the bar now and then so bear-offs and entries get tested.
    home = st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 25]), min_size=15, max_size=15)
    mine_places = draw(st.one_of(places, home))
    theirs_places = draw(st.one_of(places, home))
    mine = [0] * 25
    for place in mine_places:
        if place:
            mine[place - 1] += 1
    theirs = [0] * 25
    for place in theirs_places:
        # Their point q is my point 25 - q: skip it when I am there.
        if place and not (place < 25 and mine[24 - place]):
            theirs[place - 1] += 1
    waiting = draw(st.integers(0, mine[24])) if race else 0
    return Position(tuple(mine), tuple(theirs), waiting)


@settings(max_examples=300, deadline=None)
@given(positions(race=True), dice)
def test_fast_generator_equals_the_reference(position: Position, roll: tuple[int, int]) -> None:
    assert {play.result for play in legal_plays(position, roll)} == reference_results(position, roll)


@settings(max_examples=300, deadline=None)
@given(positions(race=True), dice)
def test_the_only_play_is_the_one_legal_play_when_there_is_no_other(position: Position, roll: tuple[int, int]) -> None:
    plays = legal_plays(position, roll)
    assert only_play(position, roll) == (plays[0] if len(plays) == 1 else None)


@settings(max_examples=150, deadline=None)
@given(positions(race=True), dice)
def test_checkers_are_conserved_and_plays_are_distinct(position: Position, roll: tuple[int, int]) -> None:
    plays = legal_plays(position, roll)
    assert len({play.result for play in plays}) == len(plays)
    for play in plays:
        borne = sum(1 for move in play.moves if move.destination == 0)
        hits = sum(move.hit for move in play.moves)
        assert sum(play.result.mine) == sum(position.mine) - borne
        assert sum(play.result.theirs) == sum(position.theirs)
        assert play.result.theirs[24] == position.theirs[24] + hits
        spans = sum(move.origin - move.destination for move in play.moves)
        assert position.pip_count()[0] - play.result.pip_count()[0] == spans
        assert all(move.origin - move.destination <= max(roll) for move in play.moves)


@settings(max_examples=150, deadline=None)
@given(positions(race=True), dice)
def test_every_play_uses_as_many_dice_as_possible(position: Position, roll: tuple[int, int]) -> None:
    most = most_dice(position, roll)
    assert {len(play.moves) for play in legal_plays(position, roll)} == {most}


@settings(max_examples=200, deadline=None)
@given(positions(), dice)
def test_batch_ids_equal_the_value_objects(position: Position, roll: tuple[int, int]) -> None:
    board, opp, theirs = _decode(position.id)
    fast = sorted(result_ids(board, opp, theirs, 0, roll))
    assert fast == sorted(play.result.swapped().id for play in legal_plays(position, roll))


@settings(max_examples=200, deadline=None)
@given(positions(race=True))
def test_position_ids_round_trip(position: Position) -> None:
    again = Position.from_id(position.id)
    assert (again.mine, again.theirs) == (position.mine, position.theirs)
    assert Position.from_id(position.swapped().id) == Position(position.theirs, position.mine)


@settings(max_examples=150, deadline=None)
@given(positions(race=True), dice, st.randoms(use_true_random=False))
def test_notation_round_trips(position: Position, roll: tuple[int, int], rng: Random) -> None:
    plays = legal_plays(position, roll)
    # A sample keeps doubles with hundreds of plays fast; hypothesis varies the sample.
    for play in rng.sample(plays, min(len(plays), 12)):
        text = format_play(play)
        assert parse_play(position, roll, text).result == play.result, text
        assert len(parse_moves(text)) <= 4
