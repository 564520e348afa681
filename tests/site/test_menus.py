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
                "Edit ignore list", "Change password", "Edit ratings", "Become a member!", "News", "Log out"],
    "Help": ["Tutorial", "Rules", "Features and tips", "Dice FAQ", "Ratings", "Analysis board"],
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


def test_only_staff_have_the_site_admin_in_their_account_menu(admin_client: Client, alice_client: Client) -> None:
    """Issue 29, item 19: staff reach the admin from the menu; players never see the item."""
    staff_items = menus(admin_client.get("/").content.decode())["Account"]
    assert staff_items[-2:] == [("Site admin", "/admin/"), ("Log out", "")]
    assert admin_client.get("/admin/").status_code == 200
    assert "Site admin" not in [name for name, _ in menus(alice_client.get("/").content.decode())["Account"]]


def test_the_readme_puts_each_page_in_the_menu_the_site_has_it_in(alice_client: Client) -> None:
    """Issue 29, item 20: the README said PLAY for the Ladder and Tournament areas, which the
    site has under SPY; every "`/path/`, NAME menu" it says must be where the header has it."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    said = re.findall(r"`(/[^` ]*)`,? \(?(PLAY|TALK|SPY|ACCOUNT|HELP) menu", readme)
    assert {"/ladders/", "/tournaments/"} <= {path for path, _ in said}
    shown = menus(alice_client.get("/").content.decode())
    for path, menu in said:
        assert path in [href for _, href in shown[menu.capitalize()]], (path, menu)
    assert "RUN_PORT" in readme
