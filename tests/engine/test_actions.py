"""Actions: constructors, validation, and the JSON round trip the site's action log relies on."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.engine import Action, ActionKind, IllegalActionError

dice = st.integers(1, 6)
moves = st.lists(
    st.tuples(st.integers(1, 25), st.integers(0, 24)).filter(lambda m: m[1] < m[0]), max_size=4
)
actions = st.one_of(
    st.builds(Action.roll, dice, dice),
    st.builds(Action.play, moves),
    st.builds(Action.resign, st.integers(1, 3)),
    st.sampled_from(
        [
            Action.double(),
            Action.take(),
            Action.drop(),
            Action.beaver(),
            Action.accept_resign(),
            Action.reject_resign(),
            Action.timeout(),
        ]
    ),
)


@given(actions)
def test_every_action_survives_json(action: Action) -> None:
    assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_the_dict_holds_only_the_fields_of_its_kind() -> None:
    assert Action.double().to_dict() == {"kind": "double"}
    assert Action.roll(6, 5).to_dict() == {"kind": "roll", "dice": [6, 5]}
    assert Action.play(()).to_dict() == {"kind": "play", "moves": []}
    assert Action.resign(2).to_dict() == {"kind": "resign", "level": 2}


def test_repr_pastes_back() -> None:
    for action in (Action.roll(3, 1), Action.play([(25, 22), (13, 9)]), Action.resign(3), Action.take()):
        assert eval(repr(action)) == action


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        (lambda: Action.roll(0, 3), "each from 1 to 6"),
        (lambda: Action.roll(7, 3), "each from 1 to 6"),
        (lambda: Action.play([(3, 5)]), "3/5 is not a checker move"),
        (lambda: Action.play([(26, 20)]), "26/20 is not a checker move"),
        (lambda: Action.resign(0), "not 0"),
        (lambda: Action(ActionKind.DOUBLE, dice=(3, 1)), "only a roll"),
        (lambda: Action(ActionKind.ROLL), "only a roll"),
        (lambda: Action(ActionKind.TAKE, moves=((8, 5),)), "Only a play"),
        (lambda: Action(ActionKind.DROP, level=2), "Only a resignation"),
    ],
)
def test_it_refuses_malformed_actions(build: object, reason: str) -> None:
    with pytest.raises(IllegalActionError, match=reason):
        build()  # type: ignore[operator]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": "fly"},
        {"kind": "roll", "dice": [3]},
        {"kind": "roll", "dice": "31"},
        {"kind": "play", "moves": [[8, "5"]]},
        {"kind": "play", "moves": 85},
        {"kind": "resign", "level": "2"},
        {"kind": "resign", "level": True},
        {"kind": "roll", "dice": [True, 2]},
    ],
)
def test_from_dict_refuses_what_to_dict_never_writes(data: dict[str, object]) -> None:
    with pytest.raises(IllegalActionError):
        Action.from_dict(data)
