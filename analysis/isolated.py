"""``analyse_match`` in a fresh process for each match.

The gnubg binding keeps state between calls that leaks from one match into the next: a one-point
match analysed after a money game in the same process came out 15% off gnubg's own numbers (and
emptying its evaluation cache did not help). A spawned process per analysis starts clean, as the
worker's other tasks (the bots) then cannot disturb it either. Progress comes back over a pipe.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

from backgammon.engine import find_variant
from backgammon.engine.actions import Action
from backgammon.engine.game import MatchRules

from .analyse import Progress, analyse_match

__all__ = ["analyse_isolated"]


def _rules_data(rules: MatchRules) -> dict[str, Any]:
    return {"code": rules.variant.code, "match_length": rules.match_length, "jacoby": rules.jacoby,
            "beavers": rules.beavers, "automatic_doubles": rules.automatic_doubles}


def _child(rules_data: dict[str, Any], actions: list[dict[str, Any]], pipe: Any) -> None:
    rules = MatchRules(find_variant(rules_data.pop("code")), **rules_data)
    try:
        result = analyse_match(rules, [Action.from_dict(data) for data in actions],
                               lambda done, total: pipe.send(("progress", done, total)))
    except Exception as error:  # noqa: BLE001 - the parent records it as the analysis failure
        pipe.send(("error", f"{type(error).__name__}: {error}", None))
    else:
        pipe.send(("result", result, None))
    finally:
        pipe.close()


def analyse_isolated(rules: MatchRules, actions: Sequence[Action], progress: Progress | None = None,
                     *, alive: Callable[[], None] | None = None, alive_every: float = 10.0) -> dict[str, Any]:
    """What ``analyse_match`` returns, computed in a spawned process; its errors raise here.

    ``alive()`` is called every ``alive_every`` seconds that the child is silent (starting up,
    or on a long position): the caller's heartbeat."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, daemon=True,
                            args=(_rules_data(rules), [action.to_dict() for action in actions], sender))
    child.start()
    sender.close()
    try:
        while True:
            while alive is not None and not receiver.poll(alive_every):
                alive()
            try:
                kind, payload, total = receiver.recv()
            except EOFError:
                raise RuntimeError(f"The analysis process stopped (exit code {child.exitcode})") from None
            if kind == "progress":
                if progress is not None:
                    progress(payload, total)
            elif kind == "error":
                raise RuntimeError(payload)
            else:
                result: dict[str, Any] = payload
                return result
    finally:
        child.join(timeout=10)
        if child.is_alive():
            child.kill()
