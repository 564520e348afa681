"""The site's menus keep ItsYourTurn's items in ItsYourTurn's order (seed 000), extras after or
beside them, and every item leads to a page that answers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

# ItsYourTurn's items first and in its order; ours come after them (Notices beside the
# other settings). A menu of more than seven or eight items is too long to scan.
EXPECTED = {
    "Play": ["Game status", "Start new game", "Waiting Room", "Auto-Match", "Next game"],
    "Talk": ["My messages", "Send message", "Tell a friend!"],
    "Spy": ["Ladder area", "Tournament area", "Who is here?", "Search user profiles",
            "Watch games", "Dice statistics"],
    "Account": ["Edit user profile", "Edit game boards", "Notices", "Buddy list",
                "Edit ignore list", "Change password", "News", "Log out"],
    "Help": ["Tutorial", "Rules", "Features and tips", "Dice FAQ", "Ratings"],
}


def menus(html: str) -> dict[str, list[tuple[str, str]]]:
    """{menu title: [(item text, href), ...]} as the header shows them."""
    found = {}
    for block in re.findall(r'<details class="menu">(.*?)</details>', html, re.DOTALL):
        title = re.sub(r"<[^>]+>|\d+", "", block.split("</summary>")[0]).split(">")[-1].strip()
        items = re.findall(r'<li>\s*(?:<a href="([^"]*)">(.*?)</a>|<form[^>]*>.*?<button[^>]*>(.*?)</button>)', block, re.DOTALL)
        found[title] = [((text or button).split("<")[0].strip(), href) for href, text, button in items]
    return found


def test_the_menus_keep_itsyourturns_order_and_every_item_answers(alice_client: Client, alice: Any) -> None:
    shown = menus(alice_client.get("/").content.decode())
    assert {title: [name for name, _ in items] for title, items in shown.items()} == EXPECTED
    for title, items in shown.items():
        for name, href in items:
            if href:
                assert alice_client.get(href, follow=True).status_code == 200, (title, name, href)
