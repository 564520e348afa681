"""Random legal actions for property tests and .mat round trips (not a test module itself)."""

from __future__ import annotations

import random

from backgammon.engine import (
    Action,
    MatchRules,
    MatchState,
    Phase,
    apply_action,
    find_variant,
    new_match,
)

MAX_ACTIONS = 5000

# One set of rules for every variant: the matches of random tests are played under each.
EVERY_VARIANT = [
    MatchRules(find_variant("BP"), 5),
    MatchRules(find_variant("B9"), 9),
    MatchRules(find_variant("BO"), 3),
    MatchRules(find_variant("BS"), 5),
    MatchRules(find_variant("BX"), 0),
    MatchRules(find_variant("BN"), 0),
    MatchRules(find_variant("BR"), 0),
    MatchRules(find_variant("BA"), 0),
    MatchRules(find_variant("MP"), 0, jacoby=True, beavers=True, automatic_doubles=2),
]


def random_action(state: MatchState, rng: random.Random, *, double_rate: float = 0.15) -> Action:
    """One action the actor (or the system) could take now, chosen at random."""
    if state.phase is Phase.OPENING_ROLL:
        return Action.roll(rng.randint(1, 6), rng.randint(1, 6))
    if state.phase is Phase.ROLL:
        if state.can_double() and rng.random() < double_rate:
            return Action.double()
        if rng.random() < 0.005:
            return Action.resign(rng.randint(1, 3))
        return Action.roll(rng.randint(1, 6), rng.randint(1, 6))
    if state.phase is Phase.MOVE:
        play = rng.choice(state.legal_plays())
        return Action.play([(move.origin, move.destination) for move in play.moves])
    if state.phase is Phase.TAKE_OR_DROP:
        if state.rules.beavers and rng.random() < 0.2 and state.can_beaver():
            return Action.beaver()
        return Action.take() if rng.random() < 0.6 else Action.drop()
    return Action.accept_resign() if rng.random() < 0.7 else Action.reject_resign()


def random_record(
    rules: MatchRules, seed: int, *, double_rate: float = 0.15
) -> tuple[list[Action], list[MatchState]]:
    """The actions of a whole random match and every state along the way (the first is new_match)."""
    rng = random.Random(seed)
    states = [new_match(rules)]
    actions: list[Action] = []
    while states[-1].phase is not Phase.MATCH_OVER and len(actions) < MAX_ACTIONS:
        action = random_action(states[-1], rng, double_rate=double_rate)
        actions.append(action)
        states.append(apply_action(states[-1], action))
    return actions, states
