"""What the benchmark players read off the game page's HTML: the forms and links a browser would
use (bench/web/locustfile.py and bench/web/wire.py both play through them)."""

from __future__ import annotations

import re

__all__ = ["ACCEPT_RESIGN", "CSRF", "CSRF_HEADER", "EXPECTED_NUMBER", "MENU_COUNTS", "MOVE_LINK", "ROLL_BUTTON", "STEPS",
           "SUBMIT_PLAY", "SWAP", "TAKE_BUTTON"]

EXPECTED_NUMBER = re.compile(r'name="expected_number" value="(\d+)"')
MENU_COUNTS = re.compile(r'id="play-badge" class="play-badge" hx-get="([^"]+)"')
ROLL_BUTTON = re.compile(r'name="kind" value="roll"')
MOVE_LINK = re.compile(r'<a class="move" href="([^"]+)"')
SUBMIT_PLAY = re.compile(r'class="controls__submit".*?name="kind" value="play"', re.DOTALL)
TAKE_BUTTON = re.compile(r'name="kind" value="take"')
ACCEPT_RESIGN = re.compile(r'name="kind" value="reject_resign"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# The page's token in <body>'s hx-headers, which htmx sends with every form it posts (a pushed
# game region's forms carry no token field of their own).
CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
STEPS = re.compile(r'name="steps" value="([^"]*)"')
SWAP = re.compile(r'name="swap" value="([^"]*)"')
