"""Every header menu opens inside the screen, on a phone, a middling screen and a wide one: up to
900 px wide the menus wait behind the bar's Menu button and open together as one sheet; wider, each
opens under its name, and one that opened past an edge would be cut off."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TabMaker


@pytest.mark.parametrize("width", [390, 700, 1280])
def test_each_menu_opens_inside_the_screen(tab_for: TabMaker, alice: Any, transactional_db: None,
                                           width: int) -> None:
    tab = tab_for(width, alice)
    tab.goto("/")
    sheet = width <= 900  # a phone's or a middling screen's bar: the menus open as one sheet
    toggle = tab.get_by_role("button", name="Menu")
    if sheet:
        toggle.click()  # every menu opens at once in the sheet
    else:
        expect(toggle).to_be_hidden()
    for menu in tab.locator("details.menu").all():
        if not sheet:
            menu.locator("summary").click()
        items = menu.locator(".menu__items")
        expect(items).to_be_visible()
        box = items.bounding_box()
        assert box is not None
        name = menu.locator("summary").inner_text()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, name, box)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width, (width, name)
        if not sheet:
            menu.locator("summary").click()
