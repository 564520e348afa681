"""What the benchmark players read off the game page's HTML: the forms and links a browser would
use (bench/web/locustfile.py and bench/web/wire.py both play through them)."""

from __future__ import annotations

import re

__all__ = ["ACCEPT_RESIGN", "CSRF", "CSRF_HEADER", "EXPECTED_NUMBER", "MENU_COUNTS", "MOVE_LINK", "ROLL_BUTTON", "STEPS",
           "SUBMIT_PLAY", "SWAP", "TAKE_BUTTON", "TURN_MAP",
           "turn_from_map"]

EXPECTED_NUMBER = re.compile(r'name="expected_number" value="(\d+)"')
MENU_COUNTS = re.compile(r'id="play-badge" class="play-badge" hx-get="([^"]+)"')
ROLL_BUTTON = re.compile(r'name="kind" value="roll"')
MOVE_LINK = re.compile(r'<a class="move" href="([^"]+)"')
# The Submit the page shows (not the copy kept in <template id="turn-submit"> for its script).
SUBMIT_PLAY = re.compile(r'id="turn-submit-slot">\s*<form [^>]*class="controls__submit".*?name="kind" value="play"',
                         re.DOTALL)
TAKE_BUTTON = re.compile(r'name="kind" value="take"')
ACCEPT_RESIGN = re.compile(r'name="kind" value="reject_resign"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# The page's token in <body>'s hx-headers, which htmx sends with every form it posts (a pushed
# game region's forms carry no token field of their own).
CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
STEPS = re.compile(r'name="steps" value="([^"]*)"')
# The turn's click map, from which static/js/turn.js builds the turn in the page (json_script).
TURN_MAP = re.compile(r'<script id="turn-map" type="application/json">(.*?)</script>', re.DOTALL)


def turn_from_map(text: str) -> tuple[str, str]:
    """The steps and swap a player submits after clicking through the turn in the page as
    static/js/turn.js lets them: from the map's start, the highest checker each time (the first
    of the board's links), until the move is complete."""
    import json

    found = json.loads(text)
    node = found["roots"][1 if found["swap"] else 0]
    for origin, destination in found["steps"]:
        node = found["nodes"][node][3][str(origin)][2]
    steps = [tuple(step) for step in found["steps"]]
    while not found["nodes"][node][0]:
        clicks = found["nodes"][node][3]
        origin = max(int(key) for key in clicks)
        _die, destination, node = clicks[str(origin)]
        steps.append((origin, destination))
    names = {0: "off", 25: "bar"}
    text_steps = ",".join(f"{names.get(o, o)}-{names.get(d, d)}" for o, d in steps)
    return text_steps, "1" if found["swap"] else ""
SWAP = re.compile(r'name="swap" value="([^"]*)"')
